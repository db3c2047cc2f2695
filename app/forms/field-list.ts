import type { FieldMetadata } from "@conform-to/react";

/**
 * A repeatable field's items. Conform throws when the value answered for a list is not a list (a
 * tampered post: `lines=abc`), which would make a client's mistake a 500; such a value stands for no
 * items, and the schema's own message says what is wrong.
 */
// biome-ignore lint/suspicious/noExplicitAny: any list's item type and form schema
export function fieldList<Item>(list: FieldMetadata<Item[], any, string[]>) {
  const value = list.initialValue;
  return value === undefined || value === null || Array.isArray(value) ? list.getFieldList() : [];
}
