import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogLines, LOG_LEVEL_NUMBERS } from "../support/log-lines";
import { createClient, createStaffAndBuyerUsers, startTestApp, type TestApp } from "../support/test-app";
import { databaseKinds } from "../support/test-database";

describe.each(databaseKinds)("application on %s", (kind) => {
  let app: TestApp;
  // Errors only: what the last test expects to be logged.
  const log = captureLogLines();
  beforeAll(async () => {
    app = await startTestApp(kind, { LOG_LEVEL: "error" }, { logDestination: log.destination });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("reports healthy while the database answers", async () => {
    const response = await fetch(`${app.baseURL}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("lists the dev outbox as JSON while a channel has no provider", async () => {
    const response = await fetch(`${app.baseURL}/dev/outbox.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ messages: [] });
    expect((await fetch(`${app.baseURL}/dev/outbox`)).status).toBe(200);
  });

  it("answers 404 in the normal layout for unknown paths, and JSON under /api", async () => {
    const response = await fetch(`${app.baseURL}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page Not Found");
    expect(html).toContain("Error 404");
    expect(html).toContain("The page you are looking for does not exist.");
    const api = await fetch(`${app.baseURL}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ errors: { form: "Not found." } });
  });

  it("answers the next request on a kept-alive connection after a large body it did not read", async () => {
    // One connection for both requests: a body left unread in it used to hold up the next request.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, pathname: string, body?: Buffer) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const outgoing = httpRequest(`${app.baseURL}${pathname}`, { method, agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, socket: outgoing.socket }));
        });
        outgoing.on("error", reject);
        if (body) {
          outgoing.setHeader("content-type", "application/x-www-form-urlencoded");
          outgoing.setHeader("content-length", body.length);
        }
        outgoing.end(body);
      });
    try {
      // Signed out: the page sends the visitor to sign in without reading the form.
      const refused = await send("POST", "/auctions/new", Buffer.alloc(3_000_000, "a"));
      expect(refused.status).toBe(302);
      const next = await send("GET", "/healthz");
      expect(next.status).toBe(200);
      expect(next.socket).toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });

  it("lets no browser or proxy keep a response built for one request, unless its route says so", async () => {
    const staff = await createStaffAndBuyerUsers(app);
    const visitor = createClient(app.baseURL);
    const cacheControl = async (client: ReturnType<typeof createClient>, path: string) => {
      const response = await client.request(path);
      await response.body?.cancel();
      return `${response.status} ${response.headers.get("cache-control")}`;
    };
    // Built per request: a signed-in page and its data request, a redirect to sign in, a form, a
    // search, a 404, an API answer.
    expect(await cacheControl(staff, "/staff/registrations")).toBe("200 no-store");
    expect(await cacheControl(staff, "/staff/registrations.data")).toBe("200 no-store");
    expect(await cacheControl(visitor, "/account")).toBe("302 no-store");
    expect(await cacheControl(visitor, "/login")).toBe("200 no-store");
    expect(await cacheControl(visitor, "/faq?q=wcb")).toBe("200 no-store");
    expect(await cacheControl(visitor, "/no-such-page")).toBe("404 no-store");
    expect(await cacheControl(visitor, "/api/no-such-thing")).toBe("404 no-store");
    // What says otherwise keeps its own: a page the same for every signed-out visitor, a file.
    expect(await cacheControl(visitor, "/about")).toBe("200 no-cache");
    expect(await cacheControl(visitor, "/favicon.svg")).toBe("200 public, max-age=3600");
  });

  // Runs last: it takes the database away.
  it("answers 503 from /healthz and a friendly 500 page without internals once the database is gone", async () => {
    await app.closeDatabase();
    log.clear();
    expect((await fetch(`${app.baseURL}/healthz`)).status).toBe(503);
    const response = await fetch(`${app.baseURL}/dev/outbox`);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Something went wrong");
    expect(html).not.toMatch(/at .*\.js:\d+|Error:|stack/i);
    // The internals go to the log instead: each failure with its stack, and each request's line.
    const errors = log.lines().filter((line) => line.level === LOG_LEVEL_NUMBERS.error);
    expect(errors.find((line) => line.msg === "health check failed")?.err?.stack).toMatch(/\n\s+at /);
    expect(errors.find((line) => line.msg === "a loader or action failed")?.err?.stack).toMatch(/\n\s+at /);
    expect(errors.map((line) => line.req?.route)).toEqual(expect.arrayContaining(["/dev/outbox"]));
  });
});
