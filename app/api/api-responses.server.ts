import type { z } from "zod";
import { MAX_FORM_BODY_BYTES, readBody, refusalHeaders } from "~/platform/request-body.server";

export const MAX_BODY_BYTES = MAX_FORM_BODY_BYTES;

/** `{"errors": {"<field or 'form'>": "<message>"}}` with a 4xx status (interfaces.md). */
export function apiErrors(status: number, errors: Record<string, string>, headers?: HeadersInit): Response {
  return Response.json({ errors }, { status, headers });
}

/**
 * A JSON answer whose body must be what `schema` (the one the API description publishes for it)
 * says: checked by the compiler here, and against the description for every answer the tests get.
 */
export function apiJson<Schema extends z.ZodType>(
  _schema: Schema,
  body: NoInfer<z.output<Schema>>,
  init?: ResponseInit,
): Response {
  return Response.json(body, init);
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

/**
 * The body of an API request as a plain object: JSON or form-encoded, at most 1 MB
 * (app/platform/request-body.server.ts reads it). Throws a 4xx Response in the API's error shape
 * (React Router returns thrown Responses as they are) for anything else.
 */
export async function readApiBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readBody(request, { accept: ["json", "urlencoded"], maxBytes: MAX_BODY_BYTES });
  switch (body.kind) {
    case "refused":
      throw apiErrors(body.refusal.status, { form: body.refusal.message }, refusalHeaders(body.refusal.status));
    case "empty":
      return {};
    case "urlencoded":
    case "multipart":
      return Object.fromEntries([...body.form].map(([name, value]) => [name, String(value)]));
    case "json":
      if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
        throw apiErrors(400, { form: "The request body must be a JSON object." });
      }
      return body.value as Record<string, unknown>;
  }
}
