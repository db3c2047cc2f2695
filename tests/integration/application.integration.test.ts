import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasBuild, startTestApp, type TestApp } from "../support/test-app";
import { databaseKinds } from "../support/test-database";

describe.runIf(hasBuild).each(databaseKinds)("application on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind);
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

  // Runs last: it takes the database away.
  it("answers 503 from /healthz and a friendly 500 page without internals once the database is gone", async () => {
    await app.closeDatabase();
    const originalError = console.error;
    console.error = () => {}; // the expected failures are logged; keep the test output clean
    try {
      expect((await fetch(`${app.baseURL}/healthz`)).status).toBe(503);
      const response = await fetch(`${app.baseURL}/dev/outbox`);
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toContain("Something went wrong");
      expect(html).not.toMatch(/at .*\.js:\d+|Error:|stack/i);
    } finally {
      console.error = originalError;
    }
  });
});
