import { data } from "react-router";

// The one reader of request bodies, for every page action and every /api call. A client's mistake
// with the body as a whole is a 4xx here, before any route code runs: a content type the route does
// not take (or none) is 415, a body that cannot be parsed (invalid UTF-8, broken multipart, malformed
// JSON) is 400, a body over the route's cap is 413. Nothing in front of the routes limits bodies,
// so the cap is counted while the body streams (chunked bodies have no length) and nothing over it
// is ever kept.

/** Page forms and API calls: 1 MB unless the route says more (uploads set their own caps). */
export const MAX_FORM_BODY_BYTES = 1_000_000;

/** How much more than the cap is read and thrown away before the connection is given up. */
const DISCARD_AT_MOST = 64 * 1024 * 1024;

export type BodyFormat = "urlencoded" | "multipart" | "json";

export type BodyRefusal = { status: 400 | 413 | 415; message: string };

export type ReadBody =
  | { kind: "urlencoded"; form: FormData }
  | { kind: "multipart"; form: FormData }
  | { kind: "json"; value: unknown }
  | { kind: "empty" }
  | { kind: "refused"; refusal: BodyRefusal };

const CONTENT_TYPES: Record<BodyFormat, string> = {
  urlencoded: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
  json: "application/json",
};

const refused = (status: BodyRefusal["status"], message: string): ReadBody => ({
  kind: "refused",
  refusal: { status, message },
});

/** The format a Content-Type names, or undefined for any other (or none). */
function formatOf(contentType: string | null): BodyFormat | undefined {
  const essence = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (essence === CONTENT_TYPES.urlencoded) return "urlencoded";
  if (essence === CONTENT_TYPES.multipart) return "multipart";
  if (essence === CONTENT_TYPES.json || (essence.startsWith("application/") && essence.endsWith("+json"))) {
    return "json";
  }
  return undefined;
}

/** Reads and drops the rest of a body, up to `budget` bytes; past that the stream is cancelled. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let read = 0;
  try {
    while (read <= budget) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing to answer.
  }
}

/** Throws the body away without keeping it (refusals decided before reading it). */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const reader = request.body.getReader();
  if (declared > DISCARD_AT_MOST) {
    await reader.cancel().catch(() => {});
    return;
  }
  await discard(reader, DISCARD_AT_MOST);
}

/**
 * The body's bytes when they are at most `limit`; "too-large" otherwise (the rest read and dropped,
 * so a client still sending gets our answer rather than a reset connection); "unreadable" when the
 * body cannot be read at all.
 */
async function readBytes(request: Request, limit: number): Promise<Buffer | "too-large" | "unreadable"> {
  const declaredHeader = request.headers.get("content-length");
  const declared = declaredHeader === null ? undefined : Number(declaredHeader);
  if (declared !== undefined && !(declared >= 0)) return "unreadable";
  if (request.bodyUsed) return "unreadable";
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  if (declared !== undefined && declared > limit) {
    if (declared > limit + DISCARD_AT_MOST) await reader.cancel().catch(() => {});
    else await discard(reader, DISCARD_AT_MOST);
    return "too-large";
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        chunks.length = 0;
        await discard(reader, DISCARD_AT_MOST);
        return "too-large";
      }
      chunks.push(value);
    }
  } catch {
    return "unreadable";
  }
  return Buffer.concat(chunks);
}

/** The body's exact bytes, for a signature over them (webhooks): read nothing else before this. */
export const readRawBody = readBytes;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function formatNames(accept: readonly BodyFormat[]): string {
  return accept.map((format) => CONTENT_TYPES[format]).join(" or ");
}

/**
 * The body in one of the formats the route accepts, at most `maxBytes`, or why it is refused.
 * An empty body with no content type is "empty" (a form without fields, a DELETE).
 */
export async function readBody(
  request: Request,
  options: { accept: readonly BodyFormat[]; maxBytes?: number },
): Promise<ReadBody> {
  const maxBytes = options.maxBytes ?? MAX_FORM_BODY_BYTES;
  const contentType = request.headers.get("content-type");
  const format = formatOf(contentType);
  // Read (or drop) whatever comes first, so a refused body is still read up to its bound and the
  // client gets our answer rather than a reset connection.
  const bytes = await readBytes(request, maxBytes);
  if (bytes === "too-large") return refused(413, tooLargeMessage(maxBytes));
  if (bytes === "unreadable") return refused(400, "The request body could not be read.");
  if (!format || !options.accept.includes(format)) {
    if (bytes.length === 0 && !contentType) return { kind: "empty" };
    return refused(415, `Send the body as ${formatNames(options.accept)}.`);
  }
  if (format === "multipart") {
    try {
      // The platform's parser, on the bytes already counted (never on the unbounded stream).
      const parsed = new Request("http://body.invalid/", {
        method: "POST",
        headers: { "content-type": contentType ?? "" },
        body: new Uint8Array(bytes),
      });
      return { kind: "multipart", form: await parsed.formData() };
    } catch {
      return refused(400, "The form data could not be read.");
    }
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) return refused(400, "The request body is not valid UTF-8.");
  if (format === "urlencoded") {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
    return { kind: "urlencoded", form };
  }
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return refused(400, "The request body is not valid JSON.");
  }
}

function tooLargeMessage(maxBytes: number): string {
  return maxBytes % 1_000_000 === 0
    ? `The request body is larger than ${maxBytes / 1_000_000} MB.`
    : `The request body is larger than ${maxBytes} bytes.`;
}

/** What the error page says about a refused body (the status picks the text). */
export type RequestBodyProblem = { requestBodyProblem: BodyRefusal["status"] };

/**
 * A page action's form: URL-encoded, or multipart too when the route takes files. A refused body is
 * thrown as a 4xx that the error page explains (app/root.tsx), never reaching the route's code.
 */
export async function readFormBody(
  request: Request,
  options: { maxBytes?: number; multipart?: boolean } = {},
): Promise<FormData> {
  const body = await readBody(request, {
    accept: options.multipart ? ["urlencoded", "multipart"] : ["urlencoded"],
    maxBytes: options.maxBytes,
  });
  if (body.kind === "urlencoded" || body.kind === "multipart") return body.form;
  if (body.kind === "empty") return new FormData();
  throw refuseRequestBody(body.kind === "refused" ? body.refusal.status : 415);
}

/** The 4xx a page action throws for a body it cannot take; the error page explains it (app/root.tsx). */
export function refuseRequestBody(status: BodyRefusal["status"]) {
  return data<RequestBodyProblem>({ requestBodyProblem: status }, { status, headers: refusalHeaders(status) });
}

/** A refused upload is answered before it is all read: the connection is not reused. */
export function refusalHeaders(status: number): HeadersInit | undefined {
  return status === 413 ? { Connection: "close" } : undefined;
}
