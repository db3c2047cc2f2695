import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SelectField, type SelectOption, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { SubmitButton } from "~/forms/submit-button";
import { type ServicePayload, servicePayload } from "../catalogue-schema";

/** What the inputs hold: text, the select included. */
type ServiceFields = { name: string; cost_account_code: string; parent: string };

export const SERVICE_FIELD_NAMES = ["name", "cost_account_code", "parent"] as const;

/** Add or edit a service: the same payload and rules as POST/PUT /api/services. */
export function ServiceForm({
  id,
  lastResult,
  defaultValue,
  parentOptions,
  submitLabel,
}: {
  id: string;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: ServiceFields;
  parentOptions: SelectOption[];
  submitLabel: string;
}) {
  const [form, fields] = useForm<ServiceFields, ServicePayload>({
    id,
    lastResult,
    defaultValue,
    ...validatedBy(servicePayload, {
      // Both may be left empty (null); the preprocessing hides that from getZodConstraint.
      constraint: { ...getZodConstraint(servicePayload), cost_account_code: {}, parent: {} },
    }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={summaryLinks([fields.name, fields.cost_account_code, fields.parent])}
        submissionKey={lastResult}
      />
      <TextField field={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
      <TextField
        field={fields.cost_account_code}
        label="Cost account code (optional)"
        hint="The buyer's chart-of-accounts code, for example 100.10."
        inputProps={{ autoComplete: "off", spellCheck: false }}
      />
      <SelectField
        field={fields.parent}
        label="Parent service"
        hint="Leave as 'None' for a top group. Services go three levels deep at most."
        placeholder="None: this is a top group"
        options={parentOptions}
      />
      <div className="button-row">
        <SubmitButton>{submitLabel}</SubmitButton>
        <Link to="/staff/services">Cancel</Link>
      </div>
    </Form>
  );
}
