import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, outboxMessages, users } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { hashPassword } from "../password.server";
import { RESET_POLICY, SIGN_IN_POLICY } from "./throttle.server";

// The throttles hold whatever the concurrency: every attempt is counted before the work it guards,
// so simultaneous requests cannot get more checks (or messages) than the policy allows. The client
// address comes from the proxy in front (one trusted hop), simulated here with X-Forwarded-For.

const INVALID = "Invalid username or password.";
const THROTTLED_PAGE = /Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\./;
const THROTTLED_API = "Too many failed sign-in attempts. Please try again later.";

let nextUser = 0;
let nextAddress = 0;
/** A fresh client address per call, from a documentation range. */
const newAddress = () => {
  nextAddress += 1;
  return `203.0.${Math.floor(nextAddress / 250)}.${nextAddress % 250}`;
};

describe.each(databaseKinds)("throttles under simultaneous requests on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { TRUSTED_PROXY_HOPS: "1" });
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A buyer in its own organization; without a password when none is given (enough for a reset). */
  async function createUser(password: string | null = "right-password") {
    nextUser += 1;
    const email = `throttled${nextUser}-${kind}@example.com`;
    const [organization] = await app.services.db
      .insert(organizations)
      .values({ name: `Throttled Drilling ${nextUser}`, organizationType: 2 })
      .returning();
    await app.services.db.insert(users).values({
      email,
      role: 2,
      organizationId: organization?.id,
      passwordHash: password ? await hashPassword(password) : null,
    });
    return { email, password: password ?? "" };
  }

  const apiSignIn = (email: string, password: string, address: string) =>
    createClient(app.baseURL).request("/api/account/login", {
      json: { email, password },
      headers: { "x-forwarded-for": address },
    });
  const pageSignIn = (email: string, password: string, address: string) =>
    createClient(app.baseURL).request("/login", {
      form: { email, password },
      headers: { "x-forwarded-for": address },
    });

  const statusCounts = (responses: Response[]) => {
    const counts: Record<number, number> = {};
    for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  describe("sign-in", () => {
    it("checks at most 10 of 40 simultaneous wrong passwords over the API, then refuses the right one from that address", async () => {
      const user = await createUser();
      const address = newAddress();
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, index) => apiSignIn(user.email, `wrong-password-${index}`, address)),
      );
      expect(statusCounts(responses)).toEqual({ 401: SIGN_IN_POLICY.perAccountAndAddress, 429: 30 });
      const bodies = await Promise.all(responses.map((response) => response.json()));
      expect(new Set(bodies.map((body) => JSON.stringify(body)))).toEqual(
        new Set([JSON.stringify({ errors: { form: INVALID } }), JSON.stringify({ errors: { form: THROTTLED_API } })]),
      );

      const right = await apiSignIn(user.email, user.password, address);
      expect(right.status).toBe(429);
      expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await right.json()).toEqual({ errors: { form: THROTTLED_API } });
    });

    it("checks at most 10 of 40 simultaneous wrong passwords on the sign-in page, then refuses the right one from that address", async () => {
      const user = await createUser();
      const address = newAddress();
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, index) => pageSignIn(user.email, `wrong-password-${index}`, address)),
      );
      expect(statusCounts(responses)).toEqual({ 401: SIGN_IN_POLICY.perAccountAndAddress, 429: 30 });
      for (const response of responses) {
        const html = await response.text();
        if (response.status === 401) expect(html).toContain(INVALID);
        else expect(html).toMatch(THROTTLED_PAGE);
      }

      const right = await pageSignIn(user.email, user.password, address);
      expect(right.status).toBe(429);
      expect(await right.text()).toMatch(THROTTLED_PAGE);
    });

    it("lets the account's owner in from another address after a stranger's wrong guesses", async () => {
      const user = await createUser();
      const stranger = newAddress();
      const guesses = await Promise.all(
        Array.from({ length: 15 }, (_, index) => apiSignIn(user.email, `guess-${index}`, stranger)),
      );
      expect(guesses.every((response) => response.status === 401 || response.status === 429)).toBe(true);
      expect((await apiSignIn(user.email, "one-more-guess", stranger)).status).toBe(429);

      const owner = newAddress();
      const signedIn = await apiSignIn(user.email, user.password, owner);
      expect(signedIn.status).toBe(200);
      const page = await pageSignIn(user.email, user.password, owner);
      expect(page.status).toBe(302);
      // The owner getting in does not reopen the door to the stranger.
      expect((await apiSignIn(user.email, user.password, stranger)).status).toBe(429);
    });

    it("gives a user who gets in a fresh start from that address", async () => {
      const user = await createUser();
      const address = newAddress();
      for (let attempt = 0; attempt < SIGN_IN_POLICY.perAccountAndAddress - 1; attempt += 1) {
        expect((await apiSignIn(user.email, "typo-password", address)).status).toBe(401);
      }
      expect((await apiSignIn(user.email, user.password, address)).status).toBe(200);
      for (let attempt = 0; attempt < SIGN_IN_POLICY.perAccountAndAddress; attempt += 1) {
        expect(await app.services.throttles.takeSignInAttempt(user.email, address)).toMatchObject({ allowed: true });
      }
    });

    it("lets at most 100 simultaneous attempts on one account through from many addresses, then refuses every address", async () => {
      const user = await createUser();
      const addresses = Array.from({ length: 15 }, newAddress);
      const decisions = await Promise.all(
        addresses.flatMap((address) =>
          Array.from({ length: 10 }, () => app.services.throttles.takeSignInAttempt(user.email, address)),
        ),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(SIGN_IN_POLICY.perAccount);

      const fromElsewhere = await apiSignIn(user.email, user.password, newAddress());
      expect(fromElsewhere.status).toBe(429);
    });

    it("lets at most 50 simultaneous attempts through from one address, whatever the accounts", async () => {
      const address = newAddress();
      const decisions = await Promise.all(
        Array.from({ length: 80 }, (_, index) =>
          app.services.throttles.takeSignInAttempt(`nobody${index}-${kind}@example.com`, address),
        ),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(SIGN_IN_POLICY.perAddress);
      const user = await createUser();
      expect((await apiSignIn(user.email, user.password, address)).status).toBe(429);
      expect((await apiSignIn(user.email, user.password, newAddress())).status).toBe(200);
    });

    it("answers a sign-in with the longest e-mail address the form accepts", async () => {
      const email = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(53)}.example`;
      expect(email.length).toBeLessThanOrEqual(254);
      const response = await apiSignIn(email, "any-password", newAddress());
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ errors: { form: INVALID } });
    });
  });

  describe("password reset requests", () => {
    const resetMailsTo = (email: string) =>
      app.services.db
        .select({ id: outboxMessages.id })
        .from(outboxMessages)
        .where(and(eq(outboxMessages.channel, "email"), eq(outboxMessages.to, email)));

    it("sends at most 3 of 20 simultaneous reset requests for one account", async () => {
      const user = await createUser(null);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          createClient(app.baseURL).request("/api/account/send_password_reset", {
            json: { email: user.email },
            headers: { "x-forwarded-for": newAddress() },
          }),
        ),
      );
      expect(statusCounts(responses)).toEqual({ 200: RESET_POLICY.perAccount, 429: 17 });
      expect(await resetMailsTo(user.email)).toHaveLength(RESET_POLICY.perAccount);
    });

    it("sends at most 10 of 20 simultaneous reset requests from one address", async () => {
      const people = await Promise.all(Array.from({ length: 20 }, () => createUser(null)));
      const address = newAddress();
      const responses = await Promise.all(
        people.map((person, index) =>
          createClient(app.baseURL).request(index % 2 ? "/api/account/send_password_reset" : "/forgot-password", {
            ...(index % 2 ? { json: { email: person.email } } : { form: { email: person.email } }),
            headers: { "x-forwarded-for": address },
          }),
        ),
      );
      expect(responses.filter((response) => response.status === 429)).toHaveLength(20 - RESET_POLICY.perAddress);
      const mails = await Promise.all(people.map((person) => resetMailsTo(person.email)));
      expect(mails.flat()).toHaveLength(RESET_POLICY.perAddress);
    });
  });
});
