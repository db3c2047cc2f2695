import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

type Constraints = ReturnType<typeof getZodConstraint>;

/** What a form changes in the shared wiring; every option left out keeps the default. */
export type BrowserValidationOptions = {
  /**
   * The attributes (`required`, `maxLength`, ...) the fields get: the schema's by default, or the
   * form's own adjustment of them; `false` for none, on forms whose messages come from the schema
   * alone (a `maxLength` would stop the typing before the message that explains the limit).
   */
  constraint?: Constraints | false;
  /** After a refused submit, check again as the user types (default) or only on the next submit (file inputs). */
  shouldRevalidate?: "onInput" | "onSubmit";
  /** The form data as the server reads it, where that differs from what the browser sends (an amount cut short). */
  prepare?: (formData: FormData) => FormData;
  /** Rewrites a refusal's errors in place as the server's action does before it answers (one problem at a time). */
  adjustErrors?: (error: Record<string, string[] | null>, formData: FormData) => void;
  /** `false`: the browser does not check, the server answers every submission. */
  checkInBrowser?: boolean;
};

/**
 * The `useForm` options every form shares: the schema's constraints on the fields, and the server's
 * own check run in the browser on submit (then again as the user corrects a field), so JavaScript
 * only saves a round trip and never says anything the server would not.
 *
 * The submission is typed by the schema's output: a form that names its fields' type gives `useForm`
 * both, `useForm<Fields, z.output<typeof schema>>`.
 */
export function validatedBy<Schema extends z.ZodType>(schema: Schema, options: BrowserValidationOptions = {}) {
  const { constraint, shouldRevalidate = "onInput", prepare, adjustErrors, checkInBrowser = true } = options;
  const onValidate = ({ formData }: { formData: FormData }) => {
    const data = prepare ? prepare(formData) : formData;
    const submission = parseWithZod(data, { schema });
    if (adjustErrors && submission.status === "error" && submission.error) adjustErrors(submission.error, data);
    return submission;
  };
  return {
    constraint: constraint === false ? undefined : (constraint ?? getZodConstraint(schema)),
    shouldValidate: "onSubmit" as const,
    shouldRevalidate,
    onValidate: checkInBrowser ? onValidate : undefined,
  };
}
