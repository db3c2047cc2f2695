import { createHash } from "node:crypto";
import { hashToken } from "~/shared/secret-tokens.server";

// What makes two registration requests "the same": the access token decides which registration, the
// normalized data (the rows it is written as) decides whether a replay sends what was registered.

/** JSON with object keys sorted and undefined left out: one text per value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The hash stored with a registration: of the organization type and the rows the data is written
 * as, so spellings that store the same (letter case of codes and e-mails, the order of chosen ids,
 * blank optional fields, the API or the page form) count as the same submission.
 */
export const submissionHash = (organizationType: number, rows: unknown) =>
  sha256(canonicalJson([organizationType, rows]));

/** Chosen ids as a set: their order in the request is not part of the registration. */
export const idSet = (ids: readonly number[]) => [...new Set(ids)].sort((left, right) => left - right);

/**
 * The payment provider's idempotency key for one attempt to register with this access token: the
 * same access token, purpose and parameters (card token, holder, …) give the same key, so a retry
 * gets the customer the first try made; a changed card or holder is a new attempt with a new key
 * (Stripe refuses a key repeated with other parameters). Only the access token's hash goes in.
 */
export const registrationAttemptKey = (accessToken: string, purpose: string, parameters: unknown) =>
  sha256(canonicalJson([hashToken(accessToken), purpose, parameters]));
