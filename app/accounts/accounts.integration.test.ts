import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, organizations, sessions, users } from "~db/schema";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { consumeAccountToken, findUsableToken, issueAccountToken } from "./account-tokens.server";
import { hashPassword } from "./password.server";
import { ensureStaffUser } from "./staff/staff.server";

let nextUser = 0;

describe.each(databaseKinds)("accounts on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, {
      ...BEHIND_ONE_PROXY,
      SEED_STAFF_EMAIL: "Staff@Example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A buyer with a password, in its own organization; each call a new address (throttles are per account). */
  async function createBuyer(password = "buyer-password") {
    const { db } = app.services;
    nextUser += 1;
    const email = `buyer${nextUser}-${kind}@example.com`;
    const [organization] = await db
      .insert(organizations)
      .values({ name: `Prairie Drilling ${nextUser}`, organizationType: 2 })
      .returning();
    const [user] = await db
      .insert(users)
      .values({ email, role: 2, organizationId: organization?.id, passwordHash: await hashPassword(password) })
      .returning();
    if (!user) throw new Error("no user");
    return { id: user.id, email, password };
  }

  async function signIn(client: ReturnType<typeof createClient>, email: string, password: string) {
    return client.request("/api/account/login", { json: { email, password } });
  }

  describe("staff bootstrap", () => {
    it("creates the staff user from SEED_STAFF_EMAIL at start, lower-cased", async () => {
      const [staff] = await app.services.db.select().from(users).where(eq(users.email, "staff@example.com"));
      expect(staff?.role).toBe(1);
      const response = await signIn(createClient(app.baseURL), "staff@example.com", "staff-password");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ user: { id: staff?.id, email: "staff@example.com", role: 1 } });
    });

    it("is idempotent and re-sets the password", async () => {
      const first = await ensureStaffUser(app.services.db, "ops@example.com", "first-password");
      const second = await ensureStaffUser(app.services.db, "OPS@example.com", "second-password");
      expect(second).toBe(first);
      const rows = await app.services.db.select().from(users).where(eq(users.email, "ops@example.com"));
      expect(rows).toHaveLength(1);
      expect((await signIn(createClient(app.baseURL), "ops@example.com", "second-password")).status).toBe(200);
    });
  });

  describe("link tokens", () => {
    it("stores only a hash of a 32-byte random token", async () => {
      const user = await createBuyer();
      const token = await issueAccountToken(app.services.db, user.id, "password_reset");
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const rows = await app.services.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.tokenHash).not.toContain(token);
      expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    });

    it("expires reset links after 1 hour and set-password and setup links after 7 days", async () => {
      const user = await createBuyer();
      const { db } = app.services;
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000 - 1000);
      const expiredReset = await issueAccountToken(db, user.id, "password_reset", hourAgo);
      const freshReset = await issueAccountToken(db, user.id, "password_reset", new Date(Date.now() - 59 * 60 * 1000));
      const weekAgo = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000 - 1000);
      const expiredSetup = await issueAccountToken(db, user.id, "account_setup", weekAgo);
      const sixDays = new Date(Date.now() - 6 * 24 * 60 * 60 * 1000);
      const freshSet = await issueAccountToken(db, user.id, "set_password", sixDays);
      expect(await findUsableToken(db, expiredReset, ["password_reset"])).toBeUndefined();
      expect(await findUsableToken(db, freshReset, ["password_reset"])).toEqual({
        userId: user.id,
        purpose: "password_reset",
      });
      expect(await findUsableToken(db, expiredSetup, ["account_setup"])).toBeUndefined();
      expect(await findUsableToken(db, freshSet, ["set_password"])).toBeDefined();
      const page = await fetch(`${app.baseURL}/reset-password/${expiredReset}`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain("Please check the link and try again.");
    });

    it("works once, for its own purpose, and not when tampered with", async () => {
      const user = await createBuyer();
      const { db } = app.services;
      const token = await issueAccountToken(db, user.id, "set_password");
      const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
      expect(await findUsableToken(db, tampered, ["set_password"])).toBeUndefined();
      expect(await findUsableToken(db, token, ["password_reset", "account_setup"])).toBeUndefined();
      expect(await findUsableToken(db, "../../etc/passwd", ["set_password"])).toBeUndefined();

      const client = createClient(app.baseURL);
      const tamperedAnswer = await client.request("/api/account/token_set_password", {
        json: { passwordResetToken: tampered, newPassword: "new-password" },
      });
      expect(tamperedAnswer.status).toBe(404);
      expect(await tamperedAnswer.json()).toEqual({ errors: { form: "Please check the link and try again." } });

      const first = await client.request("/api/account/token_set_password", {
        json: { passwordResetToken: token, newPassword: "new-password" },
      });
      expect(first.status).toBe(200);
      const again = await client.request("/api/account/token_set_password", {
        json: { passwordResetToken: token, newPassword: "other-password" },
      });
      expect(again.status).toBe(404);
      expect((await signIn(createClient(app.baseURL), user.email, "new-password")).status).toBe(200);
    });

    it("of two simultaneous uses, exactly one wins", async () => {
      const user = await createBuyer();
      const { db } = app.services;
      const token = await issueAccountToken(db, user.id, "password_reset");
      const results = await Promise.all(
        Array.from({ length: 5 }, () => db.transaction((tx) => consumeAccountToken(tx, token, ["password_reset"]))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it("tells a form whose link was spent meanwhile 'Problem setting your password, please try again.'", async () => {
      const user = await createBuyer();
      const token = await issueAccountToken(app.services.db, user.id, "set_password");
      const form = { newPassword: "first-password", confirmPassword: "first-password" };
      const first = await createClient(app.baseURL).request(`/set-password/${token}`, { form });
      expect(first.headers.get("location")).toBe("/set-password/complete");
      const second = await createClient(app.baseURL).request(`/set-password/${token}`, { form });
      expect(second.status).toBe(404);
      const html = await second.text();
      expect(html).toContain("Problem setting your password, please try again.");
      expect(html).toContain("Please check the link and try again.");
      expect(html).not.toContain('type="password"');
    });

    it("reports mismatched passwords and a missing timezone together on account setup", async () => {
      const user = await createBuyer();
      const token = await issueAccountToken(app.services.db, user.id, "account_setup");
      const response = await createClient(app.baseURL).request(`/account-setup/${token}`, {
        form: { newPassword: "setup-password", confirmPassword: "other-password" },
      });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain("Passwords do not match.");
      expect(html).toContain("Please select a timezone");
      expect(html).not.toContain("setup-password");
      expect(await findUsableToken(app.services.db, token, ["account_setup"])).toBeDefined();
    });

    it("verifies links over the API", async () => {
      const user = await createBuyer();
      const token = await issueAccountToken(app.services.db, user.id, "account_setup");
      const client = createClient(app.baseURL);
      const good = await client.request("/api/account/verify_password_reset_token", {
        json: { passwordResetToken: token },
      });
      expect(await good.json()).toEqual({ valid: true, purpose: "account_setup" });
      const bad = await client.request("/api/account/verify_password_reset_token", {
        json: { passwordResetToken: "x" },
      });
      expect(bad.status).toBe(404);
      const missing = await client.request("/api/account/verify_password_reset_token", { json: {} });
      expect(missing.status).toBe(400);
    });

    it("sets up an account with password and timezone over the API", async () => {
      const user = await createBuyer();
      const token = await issueAccountToken(app.services.db, user.id, "account_setup");
      const client = createClient(app.baseURL);
      const unknownZone = await client.request("/api/account/setup_account", {
        json: { passwordResetToken: token, newPassword: "setup-password", timezone: "Mars/Olympus_Mons" },
      });
      expect(unknownZone.status).toBe(400);
      expect(await unknownZone.json()).toEqual({ errors: { timezone: "Please select a timezone" } });
      const short = await client.request("/api/account/setup_account", {
        json: { passwordResetToken: token, newPassword: "12345", timezone: "America/Edmonton" },
      });
      expect(short.status).toBe(400);
      expect(((await short.json()) as { errors: Record<string, string> }).errors.newPassword).toMatch(/at least 6/);
      const done = await client.request("/api/account/setup_account", {
        json: { passwordResetToken: token, newPassword: "setup-password", timezone: "America/Edmonton" },
      });
      expect(done.status).toBe(200);
      const [row] = await app.services.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.timezone).toBe("America/Edmonton");
    });
  });

  describe("sessions", () => {
    it("issues a new session id at sign-in and forgets the old one", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      await signIn(client, user.email, user.password);
      const first = client.cookies.get("__session");
      expect((await client.request("/account")).status).toBe(200);
      await signIn(client, user.email, user.password);
      const second = client.cookies.get("__session");
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      const replay = createClient(app.baseURL);
      replay.cookies.set("__session", first ?? "");
      expect((await replay.request("/account")).status).toBe(302);
    });

    it("stores only a hash of the session id, with the user it belongs to", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      await signIn(client, user.email, user.password);
      const rows = await app.services.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows).toHaveLength(1);
      const cookie = decodeURIComponent(client.cookies.get("__session") ?? "");
      expect(cookie).not.toContain(rows[0]?.idHash ?? "missing");
    });

    it("sets the cookie HttpOnly and SameSite=Lax", async () => {
      const user = await createBuyer();
      const response = await signIn(createClient(app.baseURL), user.email, user.password);
      const cookie = response.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
    });

    it("ends every session of the user when the password is reset", async () => {
      const user = await createBuyer();
      const laptop = createClient(app.baseURL);
      const phone = createClient(app.baseURL);
      await signIn(laptop, user.email, user.password);
      await signIn(phone, user.email, user.password);
      const token = await issueAccountToken(app.services.db, user.id, "password_reset");
      const reset = await createClient(app.baseURL).request(`/reset-password/${token}`, {
        form: { newPassword: "brand-new-password", confirmPassword: "brand-new-password" },
      });
      expect(reset.status).toBe(302);
      expect(reset.headers.get("location")).toBe("/reset-password/complete");
      expect((await laptop.request("/account")).status).toBe(302);
      expect((await phone.request("/account")).status).toBe(302);
    });

    it("renews a session in use once a day: it ends a week after its last use, not a week after sign-in", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      await signIn(client, user.email, user.password);
      const { db } = app.services;
      const expiry = async () =>
        (await db.select().from(sessions).where(eq(sessions.userId, user.id)))[0]?.expiresAt.getTime() ?? 0;
      const week = 7 * 24 * 3_600_000;
      // Fresh: nothing to renew.
      const fresh = await client.request("/account");
      expect(fresh.headers.get("set-cookie")).toBeNull();
      // Signed in five days ago: renewed for a week from now, in the table and the cookie. (The test
      // changes the table behind the app's back, so it makes the app forget the session it keeps.)
      await db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 2 * 24 * 3_600_000) })
        .where(eq(sessions.userId, user.id));
      app.services.sessions.signedInUsers?.forget({ all: true });
      const old = await client.request("/account");
      expect(old.status).toBe(200);
      expect(old.headers.get("set-cookie")).toMatch(/^__session=.*Max-Age=604800/);
      expect(Math.abs((await expiry()) - (Date.now() + week))).toBeLessThan(60_000);
      // Signing out is not undone by a renewal.
      await db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 24 * 3_600_000) })
        .where(eq(sessions.userId, user.id));
      app.services.sessions.signedInUsers?.forget({ all: true });
      await client.request("/logout", { method: "POST", form: {} });
      expect(client.cookies.has("__session")).toBe(false);
      // An ended session is not renewed.
      expect((await db.select().from(sessions).where(eq(sessions.userId, user.id))).length).toBe(0);
    });

    it("keeps no signed-in user after the session ends, on this machine or another", async () => {
      // Two machines on one database when it is PostgreSQL (each keeps signed-in users in memory).
      const other =
        kind === "postgres"
          ? await startTestApp(kind, { DATABASE_URL: (app.services.env.DATABASE_URL as string) ?? "" })
          : undefined;
      try {
        const user = await createBuyer();
        const laptop = createClient(app.baseURL);
        await signIn(laptop, user.email, user.password);
        const elsewhere = createClient(other?.baseURL ?? app.baseURL);
        elsewhere.cookies.set("__session", laptop.cookies.get("__session") ?? "");
        expect((await laptop.request("/account")).status).toBe(200);
        expect((await elsewhere.request("/account")).status).toBe(200);
        // The password is set again from a link: every session ends, wherever it was last used.
        const token = await issueAccountToken(app.services.db, user.id, "password_reset");
        await createClient(app.baseURL).request(`/reset-password/${token}`, {
          form: { newPassword: "brand-new-password", confirmPassword: "brand-new-password" },
        });
        await expect.poll(async () => (await laptop.request("/account")).status, { timeout: 2_000 }).toBe(302);
        await expect.poll(async () => (await elsewhere.request("/account")).status, { timeout: 2_000 }).toBe(302);
      } finally {
        await other?.stop();
      }
    });

    it("signs out with a POST and clears the cookie", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      await signIn(client, user.email, user.password);
      const out = await client.request("/logout", { method: "POST", form: {} });
      expect(out.status).toBe(302);
      expect(client.cookies.has("__session")).toBe(false);
      expect((await client.request("/account")).headers.get("location")).toBe("/login?ref=/account");
    });
  });

  describe("sign-in form", () => {
    it.each([
      ["//evil.example", "/account"],
      ["https://evil.example", "/account"],
      ["/\\evil.example", "/account"],
      ["/faq?q=wcb", "/faq?q=wcb"],
    ])("after sign-in with redirectTo %s goes to %s", async (redirectTo, expected) => {
      const user = await createBuyer();
      const response = await createClient(app.baseURL).request("/login", {
        form: { email: user.email, password: user.password, redirectTo },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(expected);
    });

    it.each(["//evil.example", "https://evil.example", "/\\evil.example"])(
      "never carries ref=%s into the form, nor follows it for a signed-in visitor",
      async (ref) => {
        const user = await createBuyer();
        const client = createClient(app.baseURL);
        const page = await (await client.request(`/login?ref=${encodeURIComponent(ref)}`)).text();
        expect(page).not.toContain("evil.example");
        await signIn(client, user.email, user.password);
        const signedIn = await client.request(`/login?ref=${encodeURIComponent(ref)}`);
        expect(signedIn.status).toBe(302);
        expect(signedIn.headers.get("location")).toBe("/account");
      },
    );

    it("sends a signed-in visitor of /login?ref=/faq on to /faq", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      await signIn(client, user.email, user.password);
      const response = await client.request("/login?ref=%2Ffaq");
      expect(response.headers.get("location")).toBe("/faq");
    });

    it("answers wrong credentials with 401, the spec's message, the e-mail kept and the password not", async () => {
      const user = await createBuyer();
      const response = await createClient(app.baseURL).request("/login", {
        form: { email: user.email, password: "wrong-password" },
      });
      expect(response.status).toBe(401);
      const html = await response.text();
      expect(html).toContain("Invalid username or password.");
      expect(html).toContain(`value="${user.email}"`);
      expect(html).not.toContain("wrong-password");
    });

    it("refuses state-changing requests from another origin", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      const form = { email: user.email, password: user.password };
      const foreign = await client.request("/login", { form, headers: { origin: "https://evil.example" } });
      expect(foreign.status).toBe(403);
      const crossSite = await client.request("/login", { form, headers: { "sec-fetch-site": "cross-site" } });
      expect(crossSite.status).toBe(403);
      const apiForeign = await client.request("/api/account/login", {
        json: form,
        headers: { origin: "https://evil.example" },
      });
      expect(apiForeign.status).toBe(403);
      const own = await client.request("/login", {
        form,
        headers: { origin: app.baseURL, "sec-fetch-site": "same-origin" },
      });
      expect(own.status).toBe(302);
    });
  });

  describe("throttling", () => {
    it("slows repeated failures of an account from one address, then refuses them for a while, even with the right password", async () => {
      const user = await createBuyer();
      const address = `198.51.100.${nextUser % 250}`;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(await app.services.throttles.takeSignInAttempt(user.email, address)).toEqual({
          allowed: true,
          delayMs: 0,
        });
      }
      const slowed = await app.services.throttles.takeSignInAttempt(user.email, address);
      expect(slowed).toEqual({ allowed: true, delayMs: expect.any(Number) });
      expect((slowed as { delayMs: number }).delayMs).toBeGreaterThan(0);
      for (let attempt = 4; attempt < 10; attempt += 1) {
        await app.services.throttles.takeSignInAttempt(user.email, address);
      }
      expect(await app.services.throttles.takeSignInAttempt(user.email, address)).toEqual({
        allowed: false,
        retryAfterSeconds: expect.any(Number),
      });
    });

    it("refuses an account failed from many addresses, from any address, with the spec's message", async () => {
      const user = await createBuyer();
      for (let attempt = 0; attempt < 100; attempt += 1) {
        await app.services.throttles.takeSignInAttempt(
          user.email,
          `198.18.${Math.floor(attempt / 250)}.${attempt % 250}`,
        );
      }
      const client = createClient(app.baseURL);
      const refused = await signIn(client, user.email, user.password);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      const page = await client.request("/login", { form: { email: user.email, password: user.password } });
      expect(page.status).toBe(429);
      expect(await page.text()).toMatch(/Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\./);
    });

    it("keeps the counters in the database, shared by every app machine", async () => {
      const user = await createBuyer();
      await signIn(createClient(app.baseURL), user.email, "wrong");
      const rows = await app.services.db.execute(
        sql`select key, points from rate_limits where key like ${`%${user.email}`}`,
      );
      expect(JSON.stringify(rows)).toContain(user.email);
    });

    it("refuses sign-ins from an address with too many failures, whatever the account", async () => {
      const address = "192.0.2.200";
      for (let failure = 0; failure < 50; failure += 1) {
        await app.services.throttles.takeSignInAttempt(`someone${failure}@example.com`, address);
      }
      expect(await app.services.throttles.takeSignInAttempt("fresh@example.com", address)).toEqual({
        allowed: false,
        retryAfterSeconds: expect.any(Number),
      });
      expect(await app.services.throttles.takeSignInAttempt("fresh@example.com", "192.0.2.201")).toEqual({
        allowed: true,
        delayMs: 0,
      });
    });

    it("limits password reset requests from one address, whichever addresses are asked for", async () => {
      const client = createClient(app.baseURL);
      const answers = [];
      for (let request = 0; request < 11; request += 1) {
        const response = await client.request("/api/account/send_password_reset", {
          json: { email: `stranger${request}-${kind}@example.com` },
          headers: { "x-forwarded-for": "192.0.2.77" },
        });
        answers.push(response.status);
      }
      expect(answers).toEqual([...Array(10).fill(200), 429]);
      const page = await client.request("/forgot-password", {
        form: { email: "stranger-page@example.com" },
        headers: { "x-forwarded-for": "192.0.2.77" },
      });
      expect(page.status).toBe(429);
      expect(await page.text()).toMatch(/Too many password reset requests\. Please wait \d+ minutes? and try again\./);
    });

    it("limits password reset requests per account", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      const answers = [];
      for (let request = 0; request < 4; request += 1) {
        answers.push(
          (await client.request("/api/account/send_password_reset", { json: { email: user.email } })).status,
        );
      }
      expect(answers).toEqual([200, 200, 200, 429]);
    });
  });

  describe("account API answers", () => {
    it.each([
      ["malformed JSON", '{"email": ', 400],
      ["a JSON array", "[]", 400],
      ["wrong types", { email: 42, password: ["x"] }, 400],
      ["missing fields", {}, 400],
    ])("refuses %s with a 4xx and an errors object", async (_case, body, status) => {
      const response = await createClient(app.baseURL).request("/api/account/login", { json: body });
      expect(response.status).toBe(status);
      const answer = (await response.json()) as { errors: Record<string, string> };
      expect(Object.keys(answer.errors).length).toBeGreaterThan(0);
    });

    it("gives the spec's field messages", async () => {
      const response = await createClient(app.baseURL).request("/api/account/login", { json: { email: "nope" } });
      expect(await response.json()).toEqual({
        errors: { email: "Please enter an email address", password: "Please enter a password" },
      });
    });

    it("refuses bodies over 1 MB with 413", async () => {
      const response = await createClient(app.baseURL).request("/api/account/login", {
        json: { email: "a@example.com", password: "x".repeat(1_100_000) },
      });
      expect(response.status).toBe(413);
    });

    it("accepts form-encoded bodies too", async () => {
      const user = await createBuyer();
      const response = await createClient(app.baseURL).request("/api/account/login", {
        form: { email: user.email, password: user.password },
      });
      expect(response.status).toBe(200);
    });

    it("answers an unknown address like a real one when asked for a reset, and e-mails only real accounts", async () => {
      const user = await createBuyer();
      const client = createClient(app.baseURL);
      const unknown = await client.request("/api/account/send_password_reset", {
        json: { email: "nobody@example.com" },
      });
      const known = await client.request("/api/account/send_password_reset", { json: { email: user.email } });
      expect(unknown.status).toBe(200);
      expect(await unknown.json()).toEqual(await known.json());
      const outbox = (await (await fetch(`${app.baseURL}/dev/outbox.json`)).json()) as {
        messages: { to: string; text: string }[];
      };
      expect(outbox.messages.some((message) => message.to === "nobody@example.com")).toBe(false);
      const mail = outbox.messages.find((message) => message.to === user.email);
      expect(mail?.text).toMatch(new RegExp(`${app.baseURL}/reset-password/[A-Za-z0-9_-]{43}`));
    });
  });
});
