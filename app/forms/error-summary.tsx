import { useEffect, useRef } from "react";
import { LinkedText } from "./linked-text";

export type FieldErrorLink = { fieldId: string; message: string };

/**
 * The red alert headed 'Error!' (spec section 8) that doubles as the GOV.UK error summary: the
 * form-level messages, then one link per field error in form order. It takes focus when it appears
 * (on the server render via autofocus, in the browser on each new failed submission).
 */
export function ErrorSummary({
  formErrors = [],
  fieldErrors = [],
  submissionKey,
}: {
  formErrors?: string[];
  fieldErrors?: FieldErrorLink[];
  /** Changes with every failed submission, so focus returns to the summary each time. */
  submissionKey?: unknown;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const hasErrors = formErrors.length > 0 || fieldErrors.length > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on every new submission
  useEffect(() => {
    if (hasErrors) ref.current?.focus();
  }, [hasErrors, submissionKey]);
  if (!hasErrors) return null;
  return (
    // biome-ignore lint/a11y/noAutofocus: GOV.UK pattern: the summary takes focus so it is read first, even without JavaScript
    <div className="alert alert--error" ref={ref} tabIndex={-1} autoFocus>
      <div role="alert">
        <h2 className="alert__title" id="error-summary-title">
          Error!
        </h2>
        {formErrors.map((message) => (
          <p key={message}>
            <LinkedText text={message} />
          </p>
        ))}
        {fieldErrors.length > 0 ? (
          <ul>
            {fieldErrors.map((error) => (
              <li key={`${error.fieldId}:${error.message}`}>
                <a
                  href={`#${error.fieldId}`}
                  onClick={(event) => {
                    // Focus the field itself, as GOV.UK does; the label stays in view.
                    const field = document.getElementById(error.fieldId);
                    if (!field) return;
                    event.preventDefault();
                    field.focus();
                    field.closest(".field, fieldset")?.scrollIntoView({ block: "start" });
                  }}
                >
                  {error.message}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
