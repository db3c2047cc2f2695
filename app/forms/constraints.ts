import type { getZodConstraint } from "@conform-to/zod/v4";

type Constraints = ReturnType<typeof getZodConstraint>;

/**
 * The schema's constraints with `required` dropped where the field is optional in the form's terms
 * although the schema needs it once its group is used (an optional contact, a repeatable block, a
 * choice with an empty default): screen readers announce `required`, so it must be true.
 */
export function withOptionalFields(constraint: Constraints, isOptional: (name: string) => boolean): Constraints {
  return Object.fromEntries(
    Object.entries(constraint).map(([name, rules]) => [name, isOptional(name) ? { ...rules, required: false } : rules]),
  );
}
