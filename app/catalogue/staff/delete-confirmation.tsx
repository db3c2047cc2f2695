import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
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
  lastResult,
}: {
  heading: string;
  what: string;
  backTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form] = useForm({ id: "delete", lastResult });
  return (
    <div className="narrow">
      <h1>{heading}</h1>
      <ErrorSummary formErrors={form.errors} submissionKey={lastResult} />
      <p>
        Delete <strong>{what}</strong>? This cannot be undone.
      </p>
      <Form method="post" {...getFormProps(form)} className="button-row">
        <SubmitButton>Yes, delete</SubmitButton>
        <Link to={backTo}>No, go back</Link>
      </Form>
    </div>
  );
}
