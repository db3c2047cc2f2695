import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import type { FieldErrorLink } from "~/forms/error-summary";
import { DateFromTodayField, SelectField, type SelectOption, TextAreaField, TextField } from "~/forms/field";
import { fieldList } from "~/forms/field-list";
import { summaryLinks } from "~/forms/form-errors";
import { type AnyForm, RepeatableGroup } from "~/forms/repeatable-group";
import { certificationOptions } from "~db/reference-data/index";
import { FIRST_YEAR } from "./seller-registration-schema";

// Section 8.0 Key Personnel of the seller form: a key person with three repeatable blocks. Add and
// remove are Conform intent buttons: without JavaScript they post the form and the server answers
// with the page one block more or less, everything typed kept.

export type WorkExperienceValues = {
  company_name: string;
  position: string;
  start_year: string;
  end_year: string;
  responsibilities: string;
};
export type CertificationValues = { certification_name: string; expires_on: string };
export type EducationValues = { program_name: string; cert_degree: string; start_year: string; end_year: string };
export type KeyPersonValues = {
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  confirm_email: string;
  experience: string;
  skills: string;
  workExperiences: WorkExperienceValues[];
  certifications: CertificationValues[];
  education: EducationValues[];
};

/** Each repeatable group starts with one block (spec section 9). */
export const NEW_KEY_PERSON = { workExperiences: [{}], certifications: [{}], education: [{}] };

type PersonFields = ReturnType<FieldMetadata<KeyPersonValues>["getFieldset"]>;

const CERTIFICATION_OPTIONS: SelectOption[] = certificationOptions.map((name) => ({ value: name, label: name }));

/** Year lists run from the current year down to 1950 (spec section 5). */
export function yearOptions(currentYear: number): SelectOption[] {
  return Array.from({ length: currentYear - FIRST_YEAR + 1 }, (_, index) => {
    const year = String(currentYear - index);
    return { value: year, label: year };
  });
}

/** The person's errors as summary links, in the order of the fieldset. */
export function keyPersonSummaryLinks(person: FieldMetadata<KeyPersonValues>): FieldErrorLink[] {
  const fields = person.getFieldset();
  return [
    ...summaryLinks([
      person,
      fields.first_name,
      fields.last_name,
      fields.phone,
      fields.email,
      fields.confirm_email,
      fields.experience,
      fields.skills,
    ]),
    ...fieldList(fields.workExperiences).flatMap((item) => {
      const block = item.getFieldset();
      return summaryLinks([
        block.company_name,
        block.position,
        block.start_year,
        block.end_year,
        block.responsibilities,
      ]);
    }),
    ...fieldList(fields.certifications).flatMap((item) => {
      const block = item.getFieldset();
      return summaryLinks([block.certification_name, block.expires_on]);
    }),
    ...fieldList(fields.education).flatMap((item) => {
      const block = item.getFieldset();
      return summaryLinks([block.program_name, block.cert_degree, block.start_year, block.end_year]);
    }),
  ];
}

export function KeyPersonFieldset({
  form,
  person,
  legend,
  required,
  today,
  currentYear,
  actions,
}: {
  form: AnyForm;
  person: FieldMetadata<KeyPersonValues>;
  legend: string;
  /** The sales contact's fields are required; the operations contact's are optional. */
  required: boolean;
  today: string;
  currentYear: number;
  actions?: ReactNode;
}) {
  const fields: PersonFields = person.getFieldset();
  const optional = required ? "" : " (optional)";
  const years = yearOptions(currentYear);
  return (
    <fieldset className="fieldset form-section">
      <legend className="fieldset__legend">
        <h3>{legend}</h3>
      </legend>
      {required ? null : <p className="field__hint">Optional. Kept only when a first name is given.</p>}
      {person.errors?.length ? <p className="field__error">{person.errors.join(" ")}</p> : null}
      <TextField field={fields.first_name} label="First Name" />
      <TextField field={fields.last_name} label="Last Name" />
      <TextField field={fields.phone} label="Phone" type="tel" />
      <TextField field={fields.email} label="Email" type="email" />
      <TextField field={fields.confirm_email} label="Confirm Email" type="email" />
      <TextAreaField field={fields.experience} label={`Experience Summary${optional}`} />
      <TextAreaField field={fields.skills} label={`Skills Summary${optional}`} />

      <RepeatableGroup
        form={form}
        list={fields.workExperiences}
        heading="Work Experience"
        noun="work experience"
        hint="Kept when a company name is given."
        render={(item) => {
          const block = item.getFieldset();
          return (
            <>
              <TextField field={block.company_name} label="Company Name" />
              <TextField field={block.position} label="Position (optional)" />
              <SelectField field={block.start_year} label="Start Year (optional)" options={years} />
              <SelectField field={block.end_year} label="End Year (optional)" options={years} />
              <TextAreaField field={block.responsibilities} label="Responsibilities (optional)" rows={3} />
            </>
          );
        }}
      />
      <RepeatableGroup
        form={form}
        list={fields.certifications}
        heading="Certifications"
        noun="certification"
        hint="Kept when a certification is chosen."
        render={(item) => {
          const block = item.getFieldset();
          return (
            <>
              <SelectField field={block.certification_name} label="Certification" options={CERTIFICATION_OPTIONS} />
              <DateFromTodayField field={block.expires_on} label="Expiry Date (optional)" today={today} />
            </>
          );
        }}
      />
      <RepeatableGroup
        form={form}
        list={fields.education}
        heading="Technical Training / Education"
        noun="training or education"
        hint="Kept when a program name is given."
        render={(item) => {
          const block = item.getFieldset();
          return (
            <>
              <TextField field={block.program_name} label="Program Name" />
              <TextField field={block.cert_degree} label="Certificate / Degree (optional)" />
              <SelectField field={block.start_year} label="Start Year (optional)" options={years} />
              <SelectField field={block.end_year} label="End Year (optional)" options={years} />
            </>
          );
        }}
      />
      {actions}
    </fieldset>
  );
}
