import { z } from "zod";

// The one id rule, for route params, query strings, page forms and /api payloads alike: the digits of
// a positive PostgreSQL integer, with no sign, space, leading zero, decimal point, exponent or radix
// prefix (`Number()` reads "0x10", "1e1", " 7", "7.0" and "0b11" as numbers; none of them is an id).
// A JSON payload may also give the id as a number.

/** PostgreSQL's largest integer (int4): a larger id would make the lookup itself fail. */
export const MAX_ID = 2_147_483_647;

const ID_DIGITS = /^[1-9]\d{0,9}$/;

/** The id written in a URL, a query string or a form field; undefined when the text is not one. */
export function parseId(raw: string | null | undefined): number | undefined {
  if (!raw || !ID_DIGITS.test(raw)) return undefined;
  const id = Number(raw);
  return id <= MAX_ID ? id : undefined;
}

/** The id given as text (a form, a URL) or as a JSON number (an /api payload); undefined otherwise. */
export function idOf(value: unknown): number | undefined {
  if (typeof value === "string") return parseId(value);
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_ID ? value : undefined;
}

/**
 * An id field of a form or an /api payload, refused with the field's message (missing included). The
 * rule reads the text itself: Conform coerces a form's text with `Number()` for a number schema it
 * finds before the schema's checks, which read "0x10" as 16; here that schema only sees idOf's answer.
 */
export function idField(message: string) {
  return z.preprocess(idOf, z.number({ error: message }));
}
