import type { InputHTMLAttributes, ReactNode } from "react";
import { LinkedText } from "./linked-text";

export type TextInputType =
  | "text"
  | "email"
  | "password"
  | "tel"
  | "date"
  | "datetime-local"
  | "number"
  | "search"
  | "url";

/** The inline error, above the control, with a hidden "Error:" for screen readers (GOV.UK). */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">Error:</span> <LinkedText text={errors.join(" ")} />
    </p>
  );
}

/** The ids that describe a control: its hint and, when it has errors, its error message. */
export function describedBy(id: string, errorId: string, hint: ReactNode, errors?: string[]) {
  const ids = [hint ? `${id}-hint` : null, errors?.length ? errorId : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** A control's hint, with the id `describedBy` refers to. */
export function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? (
    <span className="field__hint" id={`${id}-hint`}>
      {hint}
    </span>
  ) : null;
}

/** What every single-control field has around its control: label, hint and inline error. */
export function FieldFrame({
  id,
  errorId,
  label,
  hint,
  errors,
  children,
}: {
  id: string;
  errorId: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  children: ReactNode;
}) {
  return (
    <div className={errors?.length ? "field field--error" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <FieldHint id={id} hint={hint} />
      <FieldError id={errorId} errors={errors} />
      {children}
    </div>
  );
}

export type TextInputProps = {
  id: string;
  name: string;
  label: string;
  type?: TextInputType;
  hint?: ReactNode;
  errors?: string[];
  /** Defaults to `${id}-error`. */
  errorId?: string;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
};

/**
 * A labelled text input with its hint and error tied by aria-describedby and aria-invalid on error.
 * It has no form-library dependency, so a page whose form needs no browser-side validation (the
 * sign-in form on Home) does not download one; `TextField` wraps it for Conform forms.
 */
export function TextInput({ id, name, label, type = "text", hint, errors, errorId, inputProps }: TextInputProps) {
  const invalid = Boolean(errors?.length);
  const errorElementId = errorId ?? `${id}-error`;
  return (
    <FieldFrame id={id} errorId={errorElementId} label={label} hint={hint} errors={errors}>
      <input
        id={id}
        name={name}
        type={type}
        {...inputProps}
        className={invalid ? "input input--error" : "input"}
        aria-invalid={invalid || inputProps?.["aria-invalid"] || undefined}
        aria-describedby={
          [describedBy(id, errorElementId, hint, errors), inputProps?.["aria-describedby"]].filter(Boolean).join(" ") ||
          undefined
        }
      />
    </FieldFrame>
  );
}

/** A labelled multi-line text box without a form library, wired like TextInput. */
export function TextAreaInput({
  id,
  name,
  label,
  hint,
  errors,
  defaultValue,
  rows = 4,
}: {
  id: string;
  name: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  defaultValue?: string;
  rows?: number;
}) {
  const invalid = Boolean(errors?.length);
  const errorId = `${id}-error`;
  return (
    <FieldFrame id={id} errorId={errorId} label={label} hint={hint} errors={errors}>
      <textarea
        id={id}
        name={name}
        rows={rows}
        defaultValue={defaultValue}
        className={invalid ? "textarea input--error" : "textarea"}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, errorId, hint, errors)}
      />
    </FieldFrame>
  );
}
