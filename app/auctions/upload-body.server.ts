// Reading a form body with a ceiling. Nothing in front of the routes limits request bodies, so an
// upload is refused as soon as it is known to be too big: from Content-Length before a byte is read,
// or by counting while it streams (chunked bodies have no length). What is over the ceiling is never
// kept: it is read and thrown away (up to a bound) only so that a browser still uploading receives
// our answer instead of a reset connection.

/** How much more than the ceiling is read and discarded before the connection is given up. */
const DISCARD_AT_MOST = 64 * 1024 * 1024;

export type LimitedForm = { kind: "form"; form: FormData } | { kind: "too-large" } | { kind: "malformed" };

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
 * The request's form (multipart or URL-encoded) when its body is at most `limit` bytes; "too-large"
 * otherwise, without holding more than `limit` bytes in memory at any time.
 */
export async function readLimitedForm(request: Request, limit: number): Promise<LimitedForm> {
  const declaredHeader = request.headers.get("content-length");
  const declared = declaredHeader === null ? undefined : Number(declaredHeader);
  if (declared !== undefined && !(declared >= 0)) return { kind: "malformed" };
  if (!request.body) return { kind: "malformed" };
  const reader = request.body.getReader();
  if (declared !== undefined && declared > limit) {
    if (declared > limit + DISCARD_AT_MOST) await reader.cancel().catch(() => {});
    else await discard(reader, DISCARD_AT_MOST);
    return { kind: "too-large" };
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
        return { kind: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: "malformed" };
  }
  try {
    const parsed = new Request("http://upload.invalid/", {
      method: "POST",
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      body: Buffer.concat(chunks),
    });
    return { kind: "form", form: await parsed.formData() };
  } catch {
    return { kind: "malformed" };
  }
}
