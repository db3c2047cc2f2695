import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { forwardedClientAddress, forwardedHttps, type ProxyTrust } from "./proxy-trust";

// Between node:http and React Router's fetch-style handler, without a web framework in the way: the
// request as a Fetch Request, the Response written back. The client's address and protocol come from
// the proxy in front only when the configuration trusts it (`ProxyTrust`, decided once at start).

/** True when the client reached us over HTTPS, directly or through a trusted proxy in front. */
export const isHttps = (req: IncomingMessage, trust: ProxyTrust) =>
  forwardedHttps(req.headers, Boolean((req.socket as TLSSocket).encrypted), trust);

/** The client's address: from the trusted proxy in front (see `ProxyTrust`), else the socket's. */
export const clientAddressOf = (req: IncomingMessage, trust: ProxyTrust): string =>
  forwardedClientAddress(req.headers, req.socket.remoteAddress, trust);

/** The path of the request's URL, without the query. */
export const pathnameOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0] ?? "/";

/** Bodies already read off their requests (one that was to be forwarded to another machine, then served here). */
const preReadBodies = new WeakMap<IncomingMessage, Buffer>();
export const setPreReadBody = (req: IncomingMessage, body: Buffer) => preReadBodies.set(req, body);

/** The node request as a Fetch Request; aborted when the client goes away before the answer is sent. */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse, https: boolean): Request {
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
  }
  const host = req.headers.host ?? "localhost";
  const url = new URL(req.url ?? "/", `${https ? "https" : "http"}://${host}`);
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => {
    controller = null;
    if (!req.complete) dropUnreadBody(req);
  });
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const preRead = preReadBodies.get(req);
    init.body = preRead ? new Uint8Array(preRead) : createReadableStreamFromReadable(req);
    if (!preRead) init.duplex = "half";
  }
  return new Request(url, init);
}

/** How much of a body nobody read is dropped after the answer before the connection is given up. */
const DROP_AT_MOST = 64 * 1024 * 1024;

/**
 * A body the route never read (a redirect to sign in, a 403) stays paused in the socket once its
 * stream has been handed to React Router, so Node does not drop it itself and the connection's next
 * request waits behind it: read the rest and drop it, up to a bound, then close the connection.
 */
function dropUnreadBody(req: IncomingMessage): void {
  req.removeAllListeners("data");
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DROP_AT_MOST) req.socket.destroy();
  });
  req.resume();
}

/**
 * Writes a Fetch Response to the node response, headers set one by one (so compression sees them). An
 * event stream is streamed; any other body is whole in memory already (pages are rendered complete,
 * files come from the database) and goes in one write with its length, so small answers are not
 * gzipped for nothing.
 */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  if (/^text\/event-stream/i.test(response.headers.get("content-type") ?? "")) {
    // Its headers go at once: the first event may be a while coming.
    res.flushHeaders();
    try {
      await writeReadableStreamToWritable(response.body, res);
    } catch (error) {
      if (!res.destroyed && !res.writableEnded) throw error;
    }
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
