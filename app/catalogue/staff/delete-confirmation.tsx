import { Form, Link } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";

/**
 * The confirmation step of a delete: what will go, a button that posts, and a way back. A refusal
 * from the server (409: in use, has sub-services) is shown in the 'Error!' alert, saying why.
 */
export function DeleteConfirmation({
  heading,
  what,
  backTo,
  error,
}: {
  heading: string;
  what: string;
  backTo: string;
  error?: string;
}) {
  return (
    <div className="narrow">
      <h1>{heading}</h1>
      <ErrorSummary formErrors={error ? [error] : []} submissionKey={error} />
      <p>
        Delete <strong>{what}</strong>? This cannot be undone.
      </p>
      <Form method="post" className="button-row">
        <SubmitButton>Yes, delete</SubmitButton>
        <Link to={backTo}>No, go back</Link>
      </Form>
    </div>
  );
}
