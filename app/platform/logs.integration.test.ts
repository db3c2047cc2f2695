import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAccountToken } from "~/accounts/account-tokens.server";
import { createApiToken } from "~/catalogue/api-tokens.server";
import { outboxMessages, users } from "~db/schema";
import { captureLogLines, LOG_LEVEL_NUMBERS } from "../../tests/support/log-lines";
import { startSellerFormApp } from "../../tests/support/seller-form-app";
import { createClient } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";

// Logs are JSON lines, one per request, and never carry a password, token, card datum, SMS code or
// session id: each is sent through the app here while every line is kept, at level debug.

const STAFF_EMAIL = "logs-staff@example.com";

describe.each(databaseKinds)("the log on %s", (kind) => {
  const log = captureLogLines();
  const staffPassword = `pw-${randomBytes(12).toString("hex")}`;
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  beforeAll(async () => {
    context = await startSellerFormApp(
      kind,
      {
        LOG_LEVEL: "debug",
        // Fly's request ids are taken from Fly's proxy only (the one trusted here, in place of the
        // seller form's one proxy: every client is then 127.0.0.1, enough for these few requests).
        TRUSTED_PROXY_HOPS: "",
        TRUST_PROXY: "fly",
        SEED_STAFF_EMAIL: STAFF_EMAIL,
        SEED_STAFF_PASSWORD: staffPassword,
      },
      { logDestination: log.destination },
    );
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  it("has a JSON line for each request with its id, method, route, status, duration and size, and no secret", async () => {
    const { app } = context;
    const secrets: Record<string, string> = { "the staff password": staffPassword };
    const requests: { route: string; status: number }[] = [];
    const client = createClient(app.baseURL);
    const send = async (route: string, path: string, init: Parameters<typeof client.request>[1] = {}) => {
      const response = await client.request(path, init);
      await response.arrayBuffer();
      requests.push({ route, status: response.status });
      return response;
    };

    // A password, then the session cookie it gives.
    const signedIn = await send("/login", "/login", { form: { email: STAFF_EMAIL, password: staffPassword } });
    expect(signedIn.status).toBe(302);
    const [sessionCookie] = [...client.cookies.values()];
    expect(sessionCookie).toBeDefined();
    secrets["the session cookie"] = sessionCookie ?? "";
    await send("/staff", "/staff");
    // A query string is never logged either.
    const queryToken = randomBytes(16).toString("hex");
    secrets["a query's value"] = queryToken;
    await send("/login", `/login?redirectTo=/account&token=${queryToken}`);

    // An API token, in the Authorization header.
    const [staff] = await app.services.db.select().from(users).where(eq(users.email, STAFF_EMAIL));
    const apiToken = await createApiToken(app.services.db, { userId: staff?.id ?? 0, name: "logs", lifetimeDays: 1 });
    secrets["the API token"] = apiToken;
    const listed = await send("/api/services", "/api/services", { headers: { authorization: `Bearer ${apiToken}` } });
    expect(listed.status).toBe(200);
    // A password in a JSON body (the API's sign-in).
    await send("/api/account/login", "/api/account/login", { json: { email: STAFF_EMAIL, password: staffPassword } });

    // A reset link and a set-password link, in the path; the new password, in the body.
    const visitor = createClient(app.baseURL);
    const resetToken = await issueAccountToken(app.services.db, staff?.id ?? 0, "password_reset");
    const setToken = await issueAccountToken(app.services.db, staff?.id ?? 0, "set_password");
    const newPassword = `new-${randomBytes(12).toString("hex")}`;
    Object.assign(secrets, { "the reset token": resetToken, "the set-password token": setToken, newPassword });
    const resetPage = await visitor.request(`/reset-password/${resetToken}`);
    requests.push({ route: "/reset-password/:passwordResetToken", status: resetPage.status });
    expect(resetPage.status).toBe(200);
    const setPage = await visitor.request(`/set-password/${setToken}`);
    requests.push({ route: "/set-password/:setPasswordToken", status: setPage.status });
    expect(setPage.status).toBe(200);
    const reset = await visitor.request(`/reset-password/${resetToken}`, {
      form: { newPassword, confirmPassword: newPassword },
    });
    requests.push({ route: "/reset-password/:passwordResetToken", status: reset.status });
    expect(reset.status).toBe(302);

    // SMS codes and access tokens (registration steps 1-4 over the API), then card data in a form body.
    const accessToken = await context.sellerToken();
    secrets["the access token"] = accessToken;
    const codes = (await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.channel, "sms")))
      .map((sms) => /\d{6}/.exec(sms.text)?.[0])
      .filter((code) => code !== undefined);
    expect(codes.length).toBeGreaterThan(0);
    for (const [index, code] of codes.entries()) secrets[`SMS code ${index + 1}`] = code;
    const form = context.completeForm();
    const cardNumber = form.get("card_number") ?? "";
    Object.assign(secrets, { "the card number": cardNumber, "the card number unspaced": cardNumber.replace(/ /g, "") });
    const registered = await context.submit(accessToken, form);
    expect(registered.status).toBe(302);
    requests.push({ route: "/signup/seller-registration/:accessToken", status: registered.status });

    // Fly's request id is used and sent back.
    const flyRequestId = "01JDXAMPLE0000000000000000-yyc";
    const withFlyId = await fetch(`${app.baseURL}/`, { headers: { "fly-request-id": flyRequestId } });
    expect(withFlyId.headers.get("x-request-id")).toBe(flyRequestId);
    await withFlyId.arrayBuffer();
    // Anything else gets an id of its own, sent back too.
    const withoutFlyId = await fetch(`${app.baseURL}/healthz`);
    expect(withoutFlyId.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await withoutFlyId.arrayBuffer();

    // The connection's close, not its finish, may end the last line: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = log.lines();
    const requestLines = lines.filter((line) => line.req !== undefined);
    for (const line of requestLines) {
      expect(line).toMatchObject({
        level: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        msg: expect.any(String),
        reqId: expect.any(String),
        req: {
          method: expect.stringMatching(/^[A-Z]+$/),
          route: expect.stringMatching(/^\/|^unmatched$|^static file$/),
        },
        res: { status: expect.any(Number), bytes: expect.any(Number) },
        durationMs: expect.any(Number),
      });
      expect(Object.keys(line.req ?? {}).sort()).toEqual(["method", "route"]);
      expect(line.res?.bytes).toBeGreaterThan(0);
    }
    const logged = requestLines.map((line) => ({ route: line.req?.route, status: line.res?.status }));
    for (const request of requests) expect(logged).toContainEqual(request);
    expect(requestLines.find((line) => line.reqId === flyRequestId)?.req).toEqual({ method: "GET", route: "/" });
    expect(requestLines.some((line) => line.reqId === withoutFlyId.headers.get("x-request-id"))).toBe(true);
    expect(requestLines.every((line) => line.level < LOG_LEVEL_NUMBERS.error)).toBe(true);

    const text = log.text();
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret.length, what).toBeGreaterThanOrEqual(6);
      expect(text.includes(secret), `${what} is in the log`).toBe(false);
    }
  });
});
