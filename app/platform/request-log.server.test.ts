import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogLines } from "../../tests/support/log-lines";
import { configureLogger } from "./logger.server";
import type { ProxyTrust } from "./proxy-trust";
import { createRequestLog } from "./request-log.server";

const log = captureLogLines();
let server: Server | undefined;

/** A server whose handler logs each request as the app's does, its routes named by a fixed label. */
async function serve(trust: ProxyTrust, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  configureLogger({ level: "info", destination: log.destination });
  const logRequest = createRequestLog(
    (pathname) => (pathname.startsWith("/reset-password/") ? "/reset-password/:token" : pathname),
    trust,
  );
  server = createServer((req, res) => {
    logRequest(req, res);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Waits for the lines the server writes after the client has its answer. */
async function linesWhen(count: number) {
  for (let tries = 0; tries < 100 && log.lines().length < count; tries++) await new Promise((r) => setTimeout(r, 10));
  return log.lines();
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  log.clear();
  configureLogger({ level: "silent" });
});

describe("the request log", () => {
  it("logs the route's pattern, never the path or its query, and sends the request id back", async () => {
    const baseURL = await serve({ kind: "none" }, (_req, res) => res.end("hello"));
    const response = await fetch(`${baseURL}/reset-password/secret-token-123?code=424242`, {
      headers: { "fly-request-id": "not-trusted-here" },
    });
    expect(await response.text()).toBe("hello");
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [line] = await linesWhen(1);
    expect(line).toMatchObject({
      level: 30,
      msg: "request finished",
      reqId: id,
      req: { method: "GET", route: "/reset-password/:token" },
      res: { status: 200, bytes: expect.any(Number) },
      durationMs: expect.any(Number),
    });
    expect(log.text()).not.toMatch(/secret-token-123|424242/);
  });

  it("takes Fly's request id when Fly's proxy is the one trusted", async () => {
    const baseURL = await serve({ kind: "fly" }, (_req, res) => res.end());
    const response = await fetch(`${baseURL}/`, { headers: { "fly-request-id": "01JDABC-yyc" } });
    expect(response.headers.get("x-request-id")).toBe("01JDABC-yyc");
    expect((await linesWhen(1))[0]?.reqId).toBe("01JDABC-yyc");
  });

  it("logs a 5xx at level error, without a made-up error", async () => {
    const baseURL = await serve({ kind: "none" }, (_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    await (await fetch(`${baseURL}/healthz`)).arrayBuffer();
    const [line] = await linesWhen(1);
    expect(line).toMatchObject({ level: 50, msg: "request failed", res: { status: 503 } });
    expect(line?.err).toBeUndefined();
  });

  it("carries the error behind a failed request, with its stack, and no query parameters", async () => {
    const baseURL = await serve({ kind: "none" }, (_req, res) => {
      res.err = new Error("Failed query: select 1 where token_hash = $1\nparams: secret-hash-9876");
      res.statusCode = 500;
      res.end();
    });
    await (await fetch(`${baseURL}/account`)).arrayBuffer();
    const [line] = await linesWhen(1);
    expect(line).toMatchObject({ level: 50, msg: "request failed", req: { route: "/account" }, res: { status: 500 } });
    expect(line?.err?.stack).toMatch(
      /^Error: Failed query: select 1 where token_hash = \$1\nparams: \[redacted\]\n\s+at /,
    );
    expect(log.text()).not.toContain("secret-hash-9876");
  });

  it("logs an event stream when its client goes, with how long it lasted", async () => {
    const baseURL = await serve({ kind: "none" }, (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: hello\n\n");
    });
    const watching = new AbortController();
    const response = await fetch(`${baseURL}/auctions/5/events`, { signal: watching.signal });
    await response.body?.getReader().read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    watching.abort();
    const [line] = await linesWhen(1);
    expect(line).toMatchObject({
      level: 30,
      msg: "connection closed before the response finished",
      req: { method: "GET", route: "/auctions/5/events" },
      res: { status: 200 },
    });
    expect(line?.durationMs).toBeGreaterThanOrEqual(40);
  });
});
