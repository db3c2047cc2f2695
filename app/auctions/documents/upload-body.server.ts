import { readBody } from "~/platform/request-body.server";

// Upload forms (multipart, with their own larger caps) read through the shared body reader; the
// pages answer its refusals themselves, with the message at the file field.

export { discardBody } from "~/platform/request-body.server";

export type LimitedForm =
  | { kind: "form"; form: FormData }
  | { kind: "too-large" }
  | { kind: "malformed"; status: 400 | 415 };

/**
 * The request's form (multipart or URL-encoded) when its body is at most `limit` bytes; "too-large"
 * otherwise, without holding more than `limit` bytes in memory at any time; "malformed" for any other
 * body (no or another content type, unparsable).
 */
export async function readLimitedForm(request: Request, limit: number): Promise<LimitedForm> {
  const body = await readBody(request, { accept: ["multipart", "urlencoded"], maxBytes: limit });
  if (body.kind === "multipart" || body.kind === "urlencoded") return { kind: "form", form: body.form };
  if (body.kind === "refused" && body.refusal.status === 413) return { kind: "too-large" };
  return { kind: "malformed", status: body.kind === "refused" && body.refusal.status === 415 ? 415 : 400 };
}
