import { type FieldMetadata, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { firstCheckboxId } from "~/catalogue/pickers/checkbox-tree";
import { type ServiceAreaCheckboxData, serviceAreaTree } from "~/catalogue/pickers/picker-selection";
import { validatedBy } from "~/forms/browser-validation";
import { withOptionalFields } from "~/forms/constraints";
import { ErrorSummary, type FieldErrorLink } from "~/forms/error-summary";
import { RadioGroupField, radioId, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import type { FormValues } from "../changes/stored-registration.server";
import {
  type CommonRegistrationValues,
  GeneralInformationSection,
  generalInformationSummaryLinks,
  IndustryAndServiceAreaSections,
} from "../form/general-information-section";
import {
  BILLING_PREFERENCES,
  type BuyerRegistrationData,
  buyerRegistrationFormSchema,
  INCOMPLETE_FORM,
} from "../form/registration-data";
import type { RegistrationFormOptions } from "../form/registration-form.server";

type ContactValues = { first_name: string; last_name: string; phone: string; email: string };

/** The form's fields as the browser sends them (the schema turns them into the API's data object). */
type RegistrationFormValues = CommonRegistrationValues & {
  primaryContact: ContactValues;
  alternateContact: ContactValues;
  accountingContact: ContactValues;
  billing_preference: string;
};

const NO_AREAS: number[] = [];

/**
 * Step 5 for buyers and consultants (the two forms are identical). A plain form: without
 * JavaScript the server validates and answers with the same page, values kept.
 */
export function BuyerRegistrationForm({
  id,
  accessToken,
  options,
  serviceAreas,
  lastResult,
  selectedServiceAreas = NO_AREAS,
  defaultValue,
  submitLabel = "Submit Registration",
}: {
  id: string;
  accessToken: string;
  options: RegistrationFormOptions;
  serviceAreas: ServiceAreaCheckboxData;
  lastResult?: SubmissionResult<string[]>;
  selectedServiceAreas?: number[];
  /** The stored registration, when the form is shown again pre-filled. */
  defaultValue?: FormValues;
  submitLabel?: string;
}) {
  // The schema's input is unknown (a preprocess picks the state control); the fields are these.
  const [form, fields] = useForm<RegistrationFormValues, BuyerRegistrationData>({
    id,
    lastResult,
    defaultValue: defaultValue as Partial<RegistrationFormValues> | undefined,
    ...validatedBy(buyerRegistrationFormSchema, {
      // The alternate contact is optional as a whole (kept only when a first name is given).
      constraint: withOptionalFields(getZodConstraint(buyerRegistrationFormSchema), (name) =>
        name.startsWith("alternateContact."),
      ),
    }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, lastResult);

  const primary = fields.primaryContact.getFieldset();
  const alternate = fields.alternateContact.getFieldset();
  const accounting = fields.accountingContact.getFieldset();

  const contactFields = (contact: typeof primary) => [
    contact.first_name,
    contact.last_name,
    contact.phone,
    contact.email,
  ];
  const fieldLinks: FieldErrorLink[] = [
    ...generalInformationSummaryLinks(fields),
    ...summaryLinks([
      ...contactFields(primary),
      ...contactFields(alternate),
      ...contactFields(accounting),
      fields.alternateContact,
      fields.accountingContact,
    ]),
    ...(fields.billing_preference.errors ?? []).map((message) => ({
      fieldId: radioId(fields.billing_preference, 0),
      message,
    })),
    ...summaryLinks([fields.primary_industry]),
    ...(fields.serviceAreas.errors ?? []).map((message) => ({
      fieldId: firstCheckboxId("service-areas", serviceAreaTree(serviceAreas)),
      message,
    })),
  ];
  const formErrors = [...new Set([...(fieldLinks.length > 0 ? [INCOMPLETE_FORM] : []), ...(form.errors ?? [])])];

  return (
    <Form method="post" {...formProps} className="stack registration-form">
      <ErrorSummary formErrors={formErrors} fieldErrors={fieldLinks} submissionKey={submissionKey} />
      <p>All fields are required unless marked optional.</p>
      <input type="hidden" name="reg_access_token" value={accessToken} />

      <GeneralInformationSection id={id} fields={fields} options={options} />

      <ContactFieldset
        legend="2.0 Primary Contact"
        fields={primary}
        hint="Your account is created from the primary contact: once your registration is approved, we email them a link to set up the account."
      />
      <ContactFieldset
        legend="3.0 Alternate Contact"
        fields={alternate}
        errors={fields.alternateContact.errors}
        hint="Optional. Kept only when a first name is given."
      />
      <ContactFieldset legend="4.0 Accounting Contact" fields={accounting} errors={fields.accountingContact.errors} />

      <RadioGroupField
        field={fields.billing_preference}
        legend={<h2>5.0 Billing Preference</h2>}
        options={BILLING_PREFERENCES}
      />

      <IndustryAndServiceAreaSections
        id={id}
        numbers={["6.0", "7.0"]}
        industry={fields.primary_industry}
        serviceAreas={fields.serviceAreas}
        options={options}
        serviceAreaData={serviceAreas}
        selectedServiceAreas={selectedServiceAreas}
      />

      <SubmitButton>{submitLabel}</SubmitButton>
    </Form>
  );
}

function ContactFieldset({
  legend,
  fields,
  hint,
  errors,
}: {
  legend: string;
  fields: ReturnType<FieldMetadata<ContactValues>["getFieldset"]>;
  hint?: string;
  errors?: string[];
}) {
  const hintId = `${fields.first_name.id}-group-hint`;
  return (
    <fieldset className="fieldset form-section" aria-describedby={hint ? hintId : undefined}>
      <legend className="fieldset__legend">
        <h2>{legend}</h2>
      </legend>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {errors?.length ? <p className="field__error">{errors.join(" ")}</p> : null}
      <TextField field={fields.first_name} label="First Name" inputProps={{ autoComplete: "off" }} />
      <TextField field={fields.last_name} label="Last Name" inputProps={{ autoComplete: "off" }} />
      <TextField field={fields.phone} label="Phone" type="tel" />
      <TextField field={fields.email} label="Email" type="email" />
    </fieldset>
  );
}
