import type { FieldMetadata } from "@conform-to/react";
import type { FieldErrorLink } from "./error-summary";

/** The field errors of a Conform form, in the order the fields appear, as summary links. */
export function summaryLinks(fields: FieldMetadata<unknown>[]): FieldErrorLink[] {
  return fields.flatMap((field) => (field.errors ?? []).map((message) => ({ fieldId: field.id, message })));
}
