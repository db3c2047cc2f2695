import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * The `useForm` options every form shares: the schema's constraints on the fields, and the server's
 * own check run in the browser on submit (then again as the user corrects a field), so JavaScript
 * only saves a round trip and never says anything the server would not.
 */
export function validatedBy<Schema extends z.ZodType>(schema: Schema) {
  return {
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit" as const,
    shouldRevalidate: "onInput" as const,
    onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }),
  };
}
