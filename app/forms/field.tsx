import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { describedBy, FieldError, FieldFrame, FieldHint, TextInput, type TextInputType } from "./text-input";

/** Every text input of a Conform form goes through this, so nobody wires ARIA by hand. */
export function TextField({
  field,
  label,
  type = "text",
  hint,
  inputProps,
  errors = field.errors,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  type?: TextInputType;
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  /** Errors to show instead of the field's own (when another field's error belongs at this control). */
  errors?: string[];
}) {
  const { key, id, name, ...props } = getInputProps(field, { type, ariaAttributes: false });
  return (
    <TextInput
      key={key}
      id={id}
      name={name}
      label={label}
      type={type}
      hint={hint}
      errors={errors}
      errorId={field.errorId}
      inputProps={{ ...props, ...inputProps }}
    />
  );
}

export type SelectOption = { value: string; label: string };

export function SelectField({
  field,
  label,
  options,
  placeholder = "-- Please select --",
  hint,
  errors = field.errors,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  options: SelectOption[];
  placeholder?: string;
  hint?: ReactNode;
  /** Errors to show instead of the field's own (when another field's error belongs at this control). */
  errors?: string[];
}) {
  const invalid = Boolean(errors?.length);
  const { key, ...props } = getSelectProps(field, { ariaAttributes: false });
  return (
    <FieldFrame id={field.id} errorId={field.errorId} label={label} hint={hint} errors={errors}>
      <select
        key={key}
        {...props}
        className={invalid ? "select input--error" : "select"}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(field.id, field.errorId, hint, errors)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** The id of a radio button of a group, for labels and the error summary (values may hold spaces). */
export const radioId = (field: { id: string }, index: number) => `${field.id}-${index}`;

/** One choice of several: radio buttons in a fieldset whose legend asks the question. */
export function RadioGroupField({
  field,
  legend,
  options,
  hint,
}: {
  field: FieldMetadata<string | undefined>;
  legend: ReactNode;
  /** Values that are their own labels, or value and label. */
  options: readonly (string | SelectOption)[];
  hint?: ReactNode;
}) {
  const invalid = Boolean(field.errors?.length);
  const choices = options.map((option) => (typeof option === "string" ? { value: option, label: option } : option));
  return (
    <fieldset
      className={invalid ? "fieldset field--error" : "fieldset"}
      aria-describedby={describedBy(field.id, field.errorId, hint, field.errors)}
    >
      <legend className="fieldset__legend">{legend}</legend>
      <FieldHint id={field.id} hint={hint} />
      <FieldError id={field.errorId} errors={field.errors} />
      {choices.map((option, index) => (
        <div className="checkbox" key={`${field.key ?? ""}-${option.value}`}>
          <input
            type="radio"
            className="checkbox__input"
            id={radioId(field, index)}
            name={field.name}
            value={option.value}
            defaultChecked={field.initialValue === option.value}
            aria-invalid={invalid || undefined}
          />
          <label className="checkbox__label" htmlFor={radioId(field, index)}>
            {option.label}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/** A labelled multi-line text box, wired like TextField. */
export function TextAreaField({
  field,
  label,
  hint,
  rows = 4,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  rows?: number;
}) {
  const invalid = Boolean(field.errors?.length);
  const { key, ...props } = getTextareaProps(field, { ariaAttributes: false });
  return (
    <FieldFrame id={field.id} errorId={field.errorId} label={label} hint={hint} errors={field.errors}>
      <textarea
        key={key}
        {...props}
        rows={rows}
        className={invalid ? "textarea input--error" : "textarea"}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(field.id, field.errorId, hint, field.errors)}
      />
    </FieldFrame>
  );
}

/** One checkbox with its label beside it; ticked it sends "yes". */
export function CheckboxField({
  field,
  label,
  hint,
}: {
  field: FieldMetadata<string | boolean | undefined>;
  label: string;
  hint?: ReactNode;
}) {
  const invalid = Boolean(field.errors?.length);
  const { key, ...props } = getInputProps(field as FieldMetadata<string>, {
    type: "checkbox",
    value: "yes",
    ariaAttributes: false,
  });
  return (
    <div className="checkbox" key={key}>
      <input
        {...props}
        className="checkbox__input"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(field.id, field.errorId, hint, field.errors)}
      />
      <label className="checkbox__label" htmlFor={field.id}>
        {label}
      </label>
      <FieldHint id={field.id} hint={hint} />
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A date that may not be before `today` (the browser's picker refuses earlier days; the server checks too). */
export function DateFromTodayField({
  field,
  label,
  today,
  hint = "Today or later.",
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  today: string;
  hint?: string;
}) {
  return <TextField field={field} label={label} type="date" hint={hint} inputProps={{ min: today }} />;
}
