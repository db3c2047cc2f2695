import type { z } from "zod";

export const MAX_BODY_BYTES = 1_000_000;

/** `{"errors": {"<field or 'form'>": "<message>"}}` with a 4xx status (interfaces.md). */
export function apiErrors(status: number, errors: Record<string, string>, headers?: HeadersInit): Response {
  return Response.json({ errors }, { status, headers });
}

/** First message per field; problems with the body as a whole are reported under "form". */
export function zodErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    errors[key] ??= issue.message;
  }
  return errors;
}

async function readLimited(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The body of an API request as a plain object: JSON or form-encoded, at most 1 MB. Throws a 4xx
 * Response (React Router returns thrown Responses as they are) for anything else.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const text = await readLimited(request, MAX_BODY_BYTES);
  if (text === undefined) {
    // The rest of the upload is not read: close the connection rather than leave it half-consumed.
    throw apiErrors(413, { form: "The request body is larger than 1 MB." }, { Connection: "close" });
  }
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === "") return {};
  if (type && type !== "application/json" && !type.endsWith("+json")) {
    throw apiErrors(415, { form: "Send the body as application/json or application/x-www-form-urlencoded." });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw apiErrors(400, { form: "The request body is not valid JSON." });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw apiErrors(400, { form: "The request body must be a JSON object." });
  }
  return parsed as Record<string, unknown>;
}
