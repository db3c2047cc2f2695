import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { pinoHttp } from "pino-http";
import { logger } from "./logger.server";
import { pathnameOf } from "./node-http.server";
import type { ProxyTrust } from "./proxy-trust";

// One line per request when its response finishes, or when its connection closes first (an event
// stream ends that way): the request id, method, route pattern, status, duration and bytes sent.
// Never the URL, its query, a header or a body: paths carry reset tokens and access codes.

/** Fly's request ids (01HXYZ…-region); anything else in the header is not Fly's and not kept. */
const FLY_REQUEST_ID = /^[\w-]{1,128}$/;

/**
 * The response's socket and the bytes written on it before this response (a kept-alive connection
 * carries several); the response lets go of its socket when it finishes.
 */
const socketAtStart = new WeakMap<ServerResponse, { socket: Socket; bytesBefore: number }>();

/** Bytes sent for this response, headers included. */
function bytesSent(res: ServerResponse): number | undefined {
  const start = socketAtStart.get(res);
  return start && start.socket.bytesWritten - start.bytesBefore;
}

/** Fly's id for the request when Fly's proxy is the one trusted (a client cannot choose it), else a new one. */
function requestIdOf(req: IncomingMessage, trust: ProxyTrust): string {
  const fly = req.headers["fly-request-id"];
  return trust.kind === "fly" && typeof fly === "string" && FLY_REQUEST_ID.test(fly) ? fly : randomUUID();
}

/**
 * `logRequest(req, res)`, called as a request arrives (before any fast path answers it): sends the
 * request id back as `X-Request-Id` and logs the request's line when it ends.
 */
export function createRequestLog(routeLabelOf: (pathname: string) => string, trust: ProxyTrust) {
  const log = pinoHttp({
    logger,
    // Our serializers are handed the request and response themselves, and pick a few fields.
    wrapSerializers: false,
    quietReqLogger: true,
    customAttributeKeys: { responseTime: "durationMs" },
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, route: routeLabelOf(pathnameOf(req)) }),
      res: (res: ServerResponse) => ({
        status: res.statusCode,
        bytes: bytesSent(res),
      }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: (_req, res) =>
      res.writableFinished ? "request finished" : "connection closed before the response finished",
    customErrorMessage: () => "request failed",
    // A 5xx with no error behind it (the error was logged where it happened): no made-up error and stack.
    customErrorObject: (_req, res, error, value) =>
      res.err || !error.message.startsWith("failed with status code") ? value : { ...value, err: undefined },
  });
  return (req: IncomingMessage, res: ServerResponse): void => {
    req.id = requestIdOf(req, trust);
    res.setHeader("X-Request-Id", req.id);
    if (req.socket) socketAtStart.set(res, { socket: req.socket, bytesBefore: req.socket.bytesWritten });
    log(req, res);
  };
}
