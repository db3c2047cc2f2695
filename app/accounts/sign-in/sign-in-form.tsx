import { type FieldMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect } from "react";
import { Form } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { summaryLinks } from "~/forms/form-errors";
import { signInSchema } from "../schemas";
import { SignInFields } from "./sign-in-fields";

type SignInValues = { email: string; password: string };

const fieldState = (field: FieldMetadata<string>) => ({
  id: field.id,
  name: field.name,
  errors: field.errors,
  errorId: field.errorId,
  defaultValue: field.initialValue,
});

/**
 * The sign-in form of /login, with the error summary; it validates in the browser with the schema
 * the action uses. Home has a plain form with the same fields (`HomeSignInForm`).
 */
export function SignInForm({
  id = "sign-in",
  lastResult,
  redirectTo,
}: {
  id?: string;
  lastResult?: SubmissionResult<string[]>;
  redirectTo?: string;
}) {
  const [form, fields] = useForm<SignInValues>({
    id,
    lastResult,
    // The fields set their own attributes (they are Home's too).
    ...validatedBy(signInSchema, { constraint: false }),
  });
  // A refused sign-in empties the password (spec section 8). Without JavaScript the server leaves it
  // out of the page; with JavaScript the same input stays on screen, so it is emptied here.
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    const password = document.getElementById(fields.password.id);
    if (password instanceof HTMLInputElement) password.value = "";
  }, [lastResult, fields.password.id]);
  return (
    <Form method="post" action="/login" {...getFormProps(form)} className="stack">
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={summaryLinks([fields.email, fields.password])}
        submissionKey={lastResult}
      />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <SignInFields email={fieldState(fields.email)} password={fieldState(fields.password)} />
    </Form>
  );
}
