import { asc, eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/server/app-context";
import { industries, outboxMessages, sellerRegistrations, services as servicesTable, users } from "~db/schema";
import { fakeStripeForFile, servicesWithStripe } from "../../../tests/mocks/stripe";
import { accessTokenWritten } from "../../../tests/support/registration-steps";
import { sellerBody } from "../../../tests/support/seller-registration-body";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { createSellerRegistrationSchema } from "./seller-registration-schema";
import {
  completeSellerCheckout,
  registerSeller,
  registerSellerAwaitingPayment,
} from "./seller-registration-store.server";

// The seller path with Stripe configured (Stripe faked with MSW at the network edge): a saved card,
// a decline, and the Checkout (setup mode) path for browsers without JavaScript.

const { stripe, captured } = fakeStripeForFile();

describe.each(databaseKinds)("seller registration with Stripe on %s", (kind) => {
  let database: TestDatabase;
  let services: AppServices;
  let body: (token: string) => Record<string, unknown>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    services = servicesWithStripe(database.db);
    const { db } = database;
    await db.insert(users).values({ email: "review@example.com", passwordHash: "x", role: 1 });
    const [industry] = await db.select().from(industries).orderBy(asc(industries.id)).limit(1);
    const [service] = await db.insert(servicesTable).values({ name: "Drilling", depth: 1 }).returning();
    body = (token) =>
      sellerBody({
        reg_access_token: token,
        primary_industry: industry?.id,
        serviceAreas: [],
        services: [service?.id],
      });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  /** An access token through steps 1-4, written directly (those steps have their own tests). */
  async function sellerToken() {
    return accessTokenWritten(database.db, { organizationType: 3, mobileNumber: "+17805550100" });
  }

  const parse = (token: string, changes: Record<string, unknown> = {}) =>
    createSellerRegistrationSchema().parse({ ...body(token), ...changes });

  it("saves a PaymentMethod to a Stripe customer and keeps only Stripe's ids", async () => {
    const token = await sellerToken();
    const outcome = await registerSeller(services, parse(token), "pm_card_visa");
    expect(outcome.kind).toBe("created");
    const [seller] = await database.db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, outcome.kind === "created" ? outcome.registrationId : 0));
    expect(seller).toMatchObject({
      paymentStatus: "card_saved",
      paymentProvider: "stripe",
      paymentCustomerId: "cus_123",
      paymentMethodId: "pm_123",
    });
    expect(captured[0]?.headers.get("idempotency-key")).toMatch(/^customer-[0-9a-f]{64}$/);
  });

  it("writes nothing when Stripe declines the card, and leaves the token usable", async () => {
    const token = await sellerToken();
    const before = await database.db.select().from(sellerRegistrations);
    expect(await registerSeller(services, parse(token), "tok_chargeDeclined")).toEqual({
      kind: "card-refused",
      message: "Your card was declined.",
    });
    expect(await database.db.select().from(sellerRegistrations)).toEqual(before);
    expect((await registerSeller(services, parse(token), "tok_visa")).kind).toBe("created");
  });

  it("answers 'unavailable' (not the applicant's fault) when Stripe fails", async () => {
    const token = await sellerToken();
    const outcome = await registerSeller(services, parse(token, { email: "outage@example.com" }), "tok_visa");
    expect(outcome.kind).toBe("payment-unavailable");
  });

  it("keeps a no-JavaScript registration awaiting payment until Stripe Checkout completes, then tells staff once", async () => {
    const token = await sellerToken();
    const outcome = await registerSellerAwaitingPayment(services, parse(token), {
      successUrl: "http://localhost/signup/seller-registration-complete?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "http://localhost/signup/seller-registration/x",
    });
    expect(outcome).toMatchObject({ kind: "checkout", checkoutUrl: "https://checkout.stripe.com/c/pay/cs_test_123" });
    const registrationId = outcome.kind === "checkout" ? outcome.registrationId : 0;
    const [awaiting] = await database.db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registrationId));
    expect(awaiting).toMatchObject({ paymentStatus: "awaiting_payment", checkoutSessionId: "cs_test_123" });

    expect(await completeSellerCheckout(services, "cs_test_123")).toEqual({ kind: "open", registrationId });
    expect(await completeSellerCheckout(services, "cs_unknown")).toEqual({ kind: "unknown" });

    stripe.use(
      http.get("https://api.stripe.com/v1/checkout/sessions/cs_test_123", () =>
        HttpResponse.json({
          id: "cs_test_123",
          status: "complete",
          customer: "cus_123",
          url: null,
          setup_intent: {
            id: "seti_1",
            status: "succeeded",
            payment_method: { id: "pm_789", card: { brand: "amex", last4: "0005" } },
          },
        }),
      ),
    );
    const noticesBefore = (await database.db.select().from(outboxMessages)).length;
    expect(await completeSellerCheckout(services, "cs_test_123")).toEqual({ kind: "complete", registrationId });
    expect(await completeSellerCheckout(services, "cs_test_123")).toEqual({ kind: "complete", registrationId });
    const [saved] = await database.db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registrationId));
    expect(saved).toMatchObject({ paymentStatus: "card_saved", paymentMethodId: "pm_789", cardLast4: "0005" });
    expect((await database.db.select().from(outboxMessages)).length).toBe(noticesBefore + 1);
  });
});
