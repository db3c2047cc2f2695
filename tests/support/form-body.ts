import type { FormValues } from "~/registration/changes/stored-registration.server";

/**
 * Form values as a browser without JavaScript posts them (Conform's names: `a.b`, `a[0].c`, a list
 * as repeated fields), with `changes` set (null removes a field) after flattening.
 */
export function formBody(values: FormValues, changes: Record<string, string | string[] | null> = {}): URLSearchParams {
  const flat = new Map<string, string | string[]>();
  const visit = (value: FormValues[string], name: string) => {
    if (typeof value === "string") {
      flat.set(name, value);
    } else if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
      flat.set(name, value as string[]);
    } else if (Array.isArray(value)) {
      for (const [index, item] of (value as FormValues[]).entries()) visitObject(item, `${name}[${index}]`);
    } else {
      visitObject(value, name);
    }
  };
  const visitObject = (object: FormValues, prefix: string) => {
    for (const [key, value] of Object.entries(object)) visit(value, prefix ? `${prefix}.${key}` : key);
  };
  visitObject(values, "");
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) flat.delete(name);
    else flat.set(name, value);
  }
  const body = new URLSearchParams();
  for (const [name, value] of flat) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return body;
}
