import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SelectField, type SelectOption, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { SubmitButton } from "~/forms/submit-button";
import { accountSetupSchema, MIN_PASSWORD_LENGTH, newPasswordSchema } from "../schemas";

/**
 * New Password + Confirm Password (+ Timezone for account setup): the form of the reset,
 * set-password and account-setup pages.
 */
export function NewPasswordForm({
  id,
  legend,
  lastResult,
  timezoneOptions,
  submitLabel = "Submit",
}: {
  id: string;
  legend?: string;
  lastResult?: SubmissionResult<string[]>;
  timezoneOptions?: SelectOption[];
  submitLabel?: string;
}) {
  const schema = timezoneOptions ? accountSetupSchema : newPasswordSchema;
  const [form, fields] = useForm<{ newPassword: string; confirmPassword: string; timezone?: string }>({
    id,
    lastResult,
    ...validatedBy(schema),
  });
  const orderedFields = timezoneOptions
    ? [fields.newPassword, fields.confirmPassword, fields.timezone]
    : [fields.newPassword, fields.confirmPassword];
  const passwordInputs = (
    <>
      <TextField
        field={fields.newPassword}
        label="New Password"
        type="password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        inputProps={{ autoComplete: "new-password" }}
      />
      <TextField
        field={fields.confirmPassword}
        label="Confirm Password"
        type="password"
        inputProps={{ autoComplete: "new-password" }}
      />
    </>
  );
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <ErrorSummary formErrors={form.errors} fieldErrors={summaryLinks(orderedFields)} submissionKey={lastResult} />
      {legend ? (
        <fieldset className="fieldset">
          <legend className="fieldset__legend">{legend}</legend>
          {passwordInputs}
        </fieldset>
      ) : (
        passwordInputs
      )}
      {timezoneOptions ? <SelectField field={fields.timezone} label="Timezone" options={timezoneOptions} /> : null}
      <SubmitButton>{submitLabel}</SubmitButton>
    </Form>
  );
}
