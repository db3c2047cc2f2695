import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_SETTINGS } from "~/platform/env.server";
import { sessions } from "~db/schema";
import { fakeStripeForFile } from "../mocks/stripe";
import { captureLogLines, LOG_LEVEL_NUMBERS } from "../support/log-lines";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "../support/test-app";
import { databaseKinds } from "../support/test-database";

// Issue 17, class 1: a production server never serves the development doors (the dev outbox, which
// shows every SMS code and link, and the test card provider) unless the operator says DEV_OUTBOX=on,
// and then every page says it is a staging copy. Also: the session cookie is Secure over HTTPS.

const run = promisify(execFile);
fakeStripeForFile();

/**
 * Providers configured with made-up values; nothing is sent in these tests. At start only Stripe is
 * asked, for its prices (answered by the fake Stripe at the network edge).
 */
const PROVIDERS = {
  TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000000",
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_FROM: "+15875550100",
  POSTMARK_SERVER_TOKEN: "server-token",
  MAIL_FROM: "no-reply@upstream.example",
  STRIPE_SECRET_KEY: "sk_test_doors",
  STRIPE_PUBLISHABLE_KEY: "pk_test_doors",
  STRIPE_SUBSCRIPTION_PRICE_ID: "price_yearly",
  STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
  STRIPE_GST_TAX_RATE_ID: "txr_gst",
  STRIPE_WEBHOOK_SECRET: "whsec_doors",
  // Not a provider, but required in production too: printed on every invoice.
  GST_REGISTRATION_NUMBER: "123456789 RT0001",
};
const PRODUCTION = { NODE_ENV: "production", SESSION_SECRET: randomBytes(32).toString("hex") };
const STAFF = { SEED_STAFF_EMAIL: "staff@example.com", SEED_STAFF_PASSWORD: "staff-password" };

/** The banner of a staging copy: a labelled region with words. */
const BANNER =
  /<section class="staging-banner" aria-label="Staging"><p class="staging-banner__text"><strong>Staging copy<\/strong>/;

/** Runs `node server.js <flag>` as an operator would, with only the given environment; answers its exit and output. */
async function startServer(flag: string | undefined, environment: NodeJS.ProcessEnv) {
  const env = { PATH: process.env.PATH, PGLITE_DIR: "memory://", ...environment };
  try {
    const { stdout, stderr } = await run(process.execPath, ["server.js", ...(flag ? [flag] : [])], {
      env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("a production start without providers", () => {
  it.each([
    ["the web server", undefined],
    ["the worker", "--worker"],
    ["the reminders run", "--send-reminders"],
    ["the release command", "--migrate-only"],
  ])("stops %s with one line naming every missing setting", async (_, flag) => {
    const { code, stdout, stderr } = await startServer(flag, { NODE_ENV: "production" });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: /);
    for (const name of [...PROVIDER_SETTINGS, "SESSION_SECRET"]) expect(lines[0]).toContain(name);
    expect(lines[0]).toContain("DEV_OUTBOX=on");
  });

  it("names only what is missing", async () => {
    const { code, stderr } = await startServer(undefined, { ...PRODUCTION, ...PROVIDERS, POSTMARK_SERVER_TOKEN: "" });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid configuration: POSTMARK_SERVER_TOKEN is required when NODE_ENV=production/);
    expect(stderr).not.toContain("TWILIO");
  });
});

describe.each(databaseKinds)("production with providers on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { ...PRODUCTION, ...PROVIDERS });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers 404 at /dev/outbox and /dev/outbox.json, and takes no test cards", async () => {
    expect((await fetch(`${app.baseURL}/dev/outbox`)).status).toBe(404);
    const json = await fetch(`${app.baseURL}/dev/outbox.json`);
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ errors: { form: "Not found." } });
    expect(app.services.messaging.outboxChannels).toEqual([]);
    expect(app.services.payments.provider).toBe("stripe");
  });

  it("shows no staging banner", async () => {
    for (const path of ["/", "/login"]) {
      const html = await (await fetch(`${app.baseURL}${path}`)).text();
      expect(html).toContain("<main");
      expect(html).not.toContain("staging-banner");
    }
  });
});

describe.each(databaseKinds)("production with DEV_OUTBOX=on (a staging copy) on %s", (kind) => {
  let app: TestApp;
  let warnings: string[] = [];
  beforeAll(async () => {
    const log = captureLogLines();
    app = await startTestApp(
      kind,
      { ...PRODUCTION, DEV_OUTBOX: "on", LOG_LEVEL: "warn" },
      { logDestination: log.destination },
    );
    warnings = log
      .lines()
      .filter((line) => line.level === LOG_LEVEL_NUMBERS.warn)
      .map((line) => line.msg);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("says so at start, and keeps messages in the outbox and takes test cards as in development", async () => {
    expect(warnings.some((warning) => warning.includes("DEV_OUTBOX=on") && warning.includes("staging copy"))).toBe(
      true,
    );
    expect(warnings.some((warning) => warning.includes("dev outbox"))).toBe(true);
    expect(app.services.payments.provider).toBe("test");
    expect((await fetch(`${app.baseURL}/dev/outbox`)).status).toBe(200);
    const json = await fetch(`${app.baseURL}/dev/outbox.json`);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ messages: [] });
  });

  it("shows the staging banner on every page: cached static pages, rendered pages, the outbox and errors", async () => {
    for (const path of ["/", "/about", "/login", "/signup", "/dev/outbox", "/no-such-page"]) {
      const html = await (await fetch(`${app.baseURL}${path}`)).text();
      expect(html, path).toMatch(BANNER);
    }
  });
});

describe.each(databaseKinds)("the session cookie over HTTPS on %s", (kind) => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp(kind, STAFF);
    proxied = await startTestApp(kind, { ...STAFF, ...BEHIND_ONE_PROXY });
  });
  afterAll(async () => {
    await direct?.stop();
    await proxied?.stop();
  });

  const sessionCookie = (response: Response) =>
    response.headers.getSetCookie().find((header) => header.startsWith("__session=")) ?? "";
  const isSecure = (header: string) => /;\s*Secure(;|$)/i.test(header);

  async function signIn(app: TestApp, headers: Record<string, string>) {
    const client = createClient(app.baseURL);
    const response = await client.request("/login", {
      form: { email: STAFF.SEED_STAFF_EMAIL, password: STAFF.SEED_STAFF_PASSWORD },
      headers,
    });
    expect(response.status).toBe(302);
    return { client, cookie: sessionCookie(response) };
  }

  it("is Secure when a trusted proxy says the request came over HTTPS, on sign-in, renewal and sign-out", async () => {
    const https = { "x-forwarded-proto": "https" };
    const { client, cookie } = await signIn(proxied, https);
    expect(cookie).toContain("HttpOnly");
    expect(isSecure(cookie)).toBe(true);

    // A session last renewed over a day ago (the only one so far) is renewed by the next signed-in request.
    await proxied.services.db.update(sessions).set({ expiresAt: new Date(Date.now() + 5 * 24 * 60 * 60 * 1000) });
    proxied.services.sessions.signedInUsers?.forget({ all: true });
    const renewed = sessionCookie(await client.request("/account", { headers: https }));
    expect(renewed).not.toBe("");
    expect(isSecure(renewed)).toBe(true);

    const signedOut = sessionCookie(await client.request("/logout", { method: "POST", headers: https }));
    expect(signedOut).not.toBe("");
    expect(isSecure(signedOut)).toBe(true);
  });

  it("is not Secure over plain HTTP outside production", async () => {
    const { client, cookie } = await signIn(proxied, {});
    expect(cookie).not.toBe("");
    expect(isSecure(cookie)).toBe(false);
    expect(isSecure(sessionCookie(await client.request("/logout", { method: "POST" })))).toBe(false);
  });

  it("believes no X-Forwarded-Proto from a client when no proxy is trusted", async () => {
    const { cookie } = await signIn(direct, { "x-forwarded-proto": "https" });
    expect(cookie).not.toBe("");
    expect(isSecure(cookie)).toBe(false);
  });
});

describe("the session cookie in production", () => {
  it("is Secure even over plain HTTP", async () => {
    const app = await startTestApp("pglite", { ...PRODUCTION, ...PROVIDERS, ...STAFF });
    try {
      const response = await createClient(app.baseURL).request("/login", {
        form: { email: STAFF.SEED_STAFF_EMAIL, password: STAFF.SEED_STAFF_PASSWORD },
      });
      expect(response.status).toBe(302);
      const cookie = response.headers.getSetCookie().find((header) => header.startsWith("__session=")) ?? "";
      expect(cookie).toMatch(/;\s*Secure(;|$)/i);
    } finally {
      await app.stop();
    }
  });
});
