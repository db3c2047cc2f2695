import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/server/app-context";
import { hashToken } from "~/shared/secret-tokens.server";
import type { Database } from "~db/database.server";
import {
  industries,
  registrationAccessTokens,
  registrations,
  sellerRegistrations,
  services as servicesTable,
} from "~db/schema";
import { fakeStripeForFile, servicesWithStripe } from "../../../tests/mocks/stripe";
import { accessTokenWritten } from "../../../tests/support/registration-steps";
import { sellerBody } from "../../../tests/support/seller-registration-body";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { createSellerRegistrationSchema } from "./seller-registration-schema";
import { registerSeller, registerSellerAwaitingPayment } from "./seller-registration-store.server";

// register_seller with Stripe (faked with MSW at the network edge), issue 17: every check that
// needs the database is made before Stripe is asked, so a refused request makes no customer; each
// attempt has its idempotency key, so a retry gets the same customer back; an attempt that loses
// the access token to another one deletes the customer it made.

const { stripe, captured } = fakeStripeForFile();

/** Customers as Stripe makes them: one per idempotency key (a repeat gets the first answer), a new id otherwise. */
function stripeKeepsIdempotency(beforeAnswer?: (customerNumber: number) => Promise<void>) {
  const answers = new Map<string, string>();
  let made = 0;
  stripe.use(
    http.post("https://api.stripe.com/v1/customers", async ({ request }) => {
      const body = await request.text();
      captured.push({ url: request.url, headers: request.headers, body });
      const key = request.headers.get("idempotency-key") ?? "";
      let id = answers.get(key);
      if (!id) {
        made += 1;
        id = `cus_${made}`;
        answers.set(key, id);
        await beforeAnswer?.(made);
      }
      return HttpResponse.json({ id, object: "customer", default_source: null });
    }),
  );
}

const customerCreates = () =>
  captured.filter((request) => request.url === "https://api.stripe.com/v1/customers" && request.body !== "");
const deletions = () =>
  captured.filter((request) => request.url.startsWith("https://api.stripe.com/v1/customers/") && request.body === "");

describe.each(databaseKinds)("seller registration with Stripe: no orphan customers, on %s", (kind) => {
  let database: TestDatabase;
  let services: AppServices;
  let industryId: number;
  let serviceId: number;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    services = servicesWithStripe(database.db);
    const [industry] = await database.db.select().from(industries).orderBy(asc(industries.id)).limit(1);
    const [service] = await database.db.insert(servicesTable).values({ name: "Drilling", depth: 1 }).returning();
    industryId = industry?.id ?? 0;
    serviceId = service?.id ?? 0;
  });
  afterAll(async () => {
    await database?.destroy();
  });

  let nextNumber = 0;
  /** An access token through steps 1-4, written directly (those steps have their own tests). */
  async function accessToken(organizationType: 2 | 3 = 3) {
    nextNumber += 1;
    return accessTokenWritten(database.db, {
      organizationType,
      mobileNumber: `+1780556${String(nextNumber).padStart(4, "0")}`,
    });
  }

  const parse = (token: string, changes: Record<string, unknown> = {}) =>
    createSellerRegistrationSchema().parse(
      sellerBody({
        reg_access_token: token,
        primary_industry: industryId,
        serviceAreas: [],
        services: [serviceId],
        ...changes,
      }),
    );

  /** The services with a database that fails at the write, after the card was saved (an outage). */
  function failingWrites(): AppServices {
    const db = new Proxy(database.db, {
      get(target, property) {
        if (property === "transaction") return () => Promise.reject(new Error("connection lost"));
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Database;
    return { ...services, db };
  }

  async function storedCustomer(token: string) {
    const [row] = await database.db
      .select({ customerId: sellerRegistrations.paymentCustomerId })
      .from(sellerRegistrations)
      .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
      .innerJoin(registrationAccessTokens, eq(registrationAccessTokens.id, registrations.accessTokenId))
      .where(eq(registrationAccessTokens.tokenHash, hashToken(token)));
    return row?.customerId;
  }

  it("refuses for every reason the database decides before Stripe is asked: no customer is made", async () => {
    stripeKeepsIdempotency();
    const token = await accessToken();
    const refusals = [
      [parse(token, { services: [2_000_000_000] }), "invalid-fields"],
      [parse(token, { primary_industry: 2_000_000_000 }), "invalid-fields"],
      [parse(token, { state: "ZZ" }), "invalid-fields"],
      [parse(token, { serviceAreas: [2_000_000_000] }), "invalid-fields"],
      [parse(await accessToken(2)), "refused"],
      [parse(randomBytes(32).toString("base64url")), "refused"],
    ] as const;
    for (const [data, kind] of refusals) {
      expect((await registerSeller(services, data, "pm_card_visa")).kind).toBe(kind);
      expect((await registerSeller(services, data, "tok_visa")).kind).toBe(kind);
    }
    expect(customerCreates()).toEqual([]);

    // Registered; then the same token again: the same data is the first registration, other data is refused.
    const created = await registerSeller(services, parse(token), "pm_card_visa");
    expect(created.kind).toBe("created");
    expect(customerCreates()).toHaveLength(1);
    expect(await registerSeller(services, parse(token), "pm_card_mastercard")).toEqual({
      kind: "already-submitted",
      registrationId: created.kind === "created" ? created.registrationId : 0,
    });
    expect(await registerSeller(services, parse(token, { feedback: "Other" }), "pm_card_visa")).toEqual({
      kind: "refused",
      status: 409,
      message: "Invalid access token.",
    });
    const checkout = await registerSellerAwaitingPayment(services, parse(token, { feedback: "Other" }), {
      successUrl: "http://localhost/done?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "http://localhost/cancelled",
    });
    expect(checkout).toMatchObject({ kind: "refused", status: 409 });
    expect(customerCreates()).toHaveLength(1);
    expect(captured.some((request) => request.url.endsWith("/v1/checkout/sessions"))).toBe(false);
  });

  it("sends the same Idempotency-Key on every create when an identical request is retried after a failed write, and keeps the one customer", async () => {
    stripeKeepsIdempotency();
    const token = await accessToken();
    await expect(registerSeller(failingWrites(), parse(token), "pm_card_visa")).rejects.toThrow("connection lost");
    const firstTry = captured.map((request) => [new URL(request.url).pathname, request.headers.get("idempotency-key")]);
    captured.length = 0;

    expect((await registerSeller(services, parse(token), "pm_card_visa")).kind).toBe("created");
    const retry = captured.map((request) => [new URL(request.url).pathname, request.headers.get("idempotency-key")]);
    expect(retry).toEqual(firstTry);
    // Customer, setup intent and the customer's default card: each a create with its key.
    expect(firstTry.map(([path]) => path)).toEqual(["/v1/customers", "/v1/setup_intents", "/v1/customers/cus_1"]);
    for (const [, key] of firstTry) expect(key).toMatch(/^[a-z-]+-[0-9a-f]{64}$/);
    expect(await storedCustomer(token)).toBe("cus_1");
    expect(deletions()).toEqual([]);
  });

  it("gives a changed card, or changed holder details, a new key", async () => {
    const token = await accessToken();
    const keyOf = async (card: string, changes: Record<string, unknown> = {}) => {
      captured.length = 0;
      await registerSeller(failingWrites(), parse(token, changes), card).catch(() => undefined);
      return customerCreates()[0]?.headers.get("idempotency-key");
    };
    const visa = await keyOf("tok_visa");
    expect(visa).toBeTruthy();
    expect(await keyOf("tok_visa")).toBe(visa);
    const others = [await keyOf("tok_mastercard"), await keyOf("tok_visa", { name: "Roughneck Two Ltd." })];
    expect(new Set([visa, ...others]).size).toBe(3);
  });

  it("deletes the customer an attempt made when another attempt spent the token meanwhile", async () => {
    const token = await accessToken();
    // While Stripe makes the first attempt's customer, a second attempt (another card) registers.
    stripeKeepsIdempotency(async (customerNumber) => {
      if (customerNumber === 1) {
        expect((await registerSeller(services, parse(token), "pm_card_mastercard")).kind).toBe("created");
      }
    });
    expect((await registerSeller(services, parse(token), "pm_card_visa")).kind).toBe("already-submitted");
    expect(await storedCustomer(token)).toBe("cus_2");
    expect(deletions().map((request) => request.url)).toEqual(["https://api.stripe.com/v1/customers/cus_1"]);

    // Other data loses the same way: refused, and its customer deleted.
    const other = await accessToken();
    stripe.resetHandlers();
    captured.length = 0;
    stripeKeepsIdempotency(async (customerNumber) => {
      if (customerNumber === 1) {
        expect((await registerSeller(services, parse(other), "pm_card_mastercard")).kind).toBe("created");
      }
    });
    expect(await registerSeller(services, parse(other, { feedback: "Different" }), "pm_card_visa")).toMatchObject({
      kind: "refused",
      status: 409,
    });
    expect(await storedCustomer(other)).toBe("cus_2");
    expect(deletions().map((request) => request.url)).toEqual(["https://api.stripe.com/v1/customers/cus_1"]);
  });
});
