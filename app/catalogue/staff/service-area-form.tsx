import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { SelectField, type SelectOption, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { SubmitButton } from "~/forms/submit-button";
import { type ServiceAreaPayload, serviceAreaPayload } from "../catalogue-schema";

type ServiceAreaFields = { city: string; province: string };

export const SERVICE_AREA_FIELD_NAMES = ["city", "province", "country"] as const;

/** Add or edit a service area: the same payload and rules as POST/PUT /api/service_areas (country CA). */
export function ServiceAreaForm({
  id,
  lastResult,
  defaultValue,
  provinceOptions,
  submitLabel,
}: {
  id: string;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: ServiceAreaFields;
  provinceOptions: SelectOption[];
  submitLabel: string;
}) {
  const [form, fields] = useForm<ServiceAreaFields, ServiceAreaPayload>({
    id,
    lastResult,
    defaultValue,
    ...validatedBy(serviceAreaPayload),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={summaryLinks([fields.city, fields.province])}
        submissionKey={lastResult}
      />
      <TextField field={fields.city} label="City or town" inputProps={{ autoComplete: "off" }} />
      <SelectField field={fields.province} label="Province or territory" options={provinceOptions} />
      <p className="field__hint">Country: Canada.</p>
      <div className="button-row">
        <SubmitButton>{submitLabel}</SubmitButton>
        <Link to="/staff/service-areas">Cancel</Link>
      </div>
    </Form>
  );
}
