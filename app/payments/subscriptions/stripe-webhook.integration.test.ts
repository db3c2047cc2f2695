import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import type { Database } from "~db/database.server";
import {
  notifications,
  providerEvents,
  registrations,
  sellerRegistrations,
  sellerSubscriptions,
  subscriptionEvents,
  users,
} from "~db/schema";
import { catalogueForAuctions, createSeller, type Party } from "../../../tests/support/auction-fixtures";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { type FixtureIds, type FixtureName, postStripeEvent, stripeEvent } from "./fixtures/stripe-events";
import { drainProviderEvents } from "./provider-events.server";

// POST /webhooks/stripe (issue 19) over HTTP, with events in Stripe's own shapes signed as Stripe
// signs them: each event type moves the seller's standing (or its card) as it should, a replay is
// applied once, an older event after a newer one changes nothing, and a bad signature is a 400.

const SECRET = `whsec_${randomBytes(16).toString("hex")}`;
const DAY = 86_400;

describe.each(databaseKinds)("Stripe's webhook on %s", (kind) => {
  let app: TestApp;
  let db: Database;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let clock = 1_800_000_000;
  /** Each event a second after the one before, as Stripe's clock runs. */
  const tick = (seconds = 1) => {
    clock += seconds;
    return clock;
  };

  beforeAll(async () => {
    app = await startTestApp(kind, { STRIPE_WEBHOOK_SECRET: SECRET, SUBSCRIPTION_GRACE_DAYS: "7" });
    db = app.services.db;
    catalogue = await catalogueForAuctions(db);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A seller with a running subscription, the Stripe ids its rows hold, and its user's e-mail. */
  async function sellerWithSubscription(status: "trialing" | "active" = "active") {
    const seller: Party = await createSeller(db, {
      serviceIds: [catalogue.serviceId],
      serviceAreaIds: [catalogue.serviceAreaId],
    });
    const suffix = randomBytes(6).toString("hex");
    const ids: FixtureIds = { subscription: `sub_${suffix}`, customer: `cus_${suffix}`, paymentMethod: `pm_${suffix}` };
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.organizationId, seller.organizationId));
    await db
      .update(sellerRegistrations)
      .set({
        paymentCustomerId: ids.customer,
        paymentMethodId: ids.paymentMethod,
        cardBrand: "visa",
        cardLast4: "4242",
      })
      .where(eq(sellerRegistrations.registrationId, registration?.id ?? 0));
    await db.insert(sellerSubscriptions).values({
      organizationId: seller.organizationId,
      provider: "stripe",
      subscriptionId: ids.subscription,
      status,
      trialEndsAt: new Date((clock + 7 * DAY) * 1000),
      amountCents: SELLER_FEES_TOTAL,
      cardBrand: "visa",
      cardLast4: "4242",
    });
    return { seller, ids };
  }

  /** Every stored event processed (the app's own drain may be taking some at the same moment). */
  async function settled() {
    for (;;) {
      await drainProviderEvents(app.services);
      const waiting = await db.select().from(providerEvents).where(eq(providerEvents.state, "received"));
      if (waiting.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function send(name: FixtureName, ids: FixtureIds, options: Parameters<typeof stripeEvent>[2]) {
    const event = stripeEvent(name, ids, options);
    const body = JSON.stringify(event);
    const answer = await postStripeEvent(app.baseURL, body, { secret: SECRET });
    expect(answer.status).toBe(200);
    await settled();
    return { event, body, answer };
  }

  const subscriptionOf = async (organizationId: number) => {
    const [row] = await db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.organizationId, organizationId));
    if (!row) throw new Error("no subscription");
    return row;
  };
  const historyOf = (organizationId: number) =>
    db.select().from(subscriptionEvents).where(eq(subscriptionEvents.organizationId, organizationId));
  const noticesOf = async (seller: Party) => {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, seller.email));
    return db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, user?.id ?? 0));
  };
  const emailsTo = async (seller: Party) =>
    (await app.services.messaging.listOutbox()).filter((message) => message.to === seller.email);

  it("refuses a missing, wrong or stale signature with 400 and stores nothing", async () => {
    const { ids } = await sellerWithSubscription();
    const event = stripeEvent("invoice.payment_failed", ids, { created: tick() });
    const body = JSON.stringify(event);
    const missing = await postStripeEvent(app.baseURL, body, { signature: null });
    expect(missing.status).toBe(400);
    const wrongSecret = await postStripeEvent(app.baseURL, body, { secret: "whsec_not_ours" });
    expect(wrongSecret.status).toBe(400);
    const garbage = await postStripeEvent(app.baseURL, body, { signature: "t=1,v1=deadbeef" });
    expect(garbage.status).toBe(400);
    const tampered = await postStripeEvent(app.baseURL, body.replace("invoice.payment_failed", "invoice.paid"), {
      signature: (await import("./webhook-signature.server")).signStripePayload(body, SECRET),
    });
    expect(tampered.status).toBe(400);
    const notJson = await postStripeEvent(app.baseURL, "not json", { secret: SECRET });
    expect(notJson.status).toBe(400);
    expect(await db.select().from(providerEvents).where(eq(providerEvents.id, event.id))).toEqual([]);
  });

  it("answers a GET with 405, never a 5xx", async () => {
    expect((await fetch(`${app.baseURL}/webhooks/stripe`)).status).toBe(405);
  });

  it("trial ending soon: a reminder e-mail, once however often Stripe sends the event", async () => {
    const { seller, ids } = await sellerWithSubscription("trialing");
    const { body } = await send("customer.subscription.trial_will_end", ids, { created: tick() });
    const replay = await postStripeEvent(app.baseURL, body, { secret: SECRET });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, replay: true });
    await settled();
    const emails = await emailsTo(seller);
    expect(emails.map((email) => email.subject)).toEqual([
      expect.stringMatching(/^Your free trial ends on \d{4}-\d\d-\d\d$/),
    ]);
    expect(emails[0]?.text).toContain(`${app.baseURL}/account/card`);
    expect((await subscriptionOf(seller.organizationId)).status).toBe("trialing");
    expect(await historyOf(seller.organizationId)).toHaveLength(1);
  });

  it("a failed renewal makes the seller past due with the grace period and the card link; paid, active again", async () => {
    const { seller, ids } = await sellerWithSubscription();
    const failedAt = tick();
    const failed = await send("invoice.payment_failed", ids, { created: failedAt });
    let row = await subscriptionOf(seller.organizationId);
    expect(row.status).toBe("past_due");
    expect(row.pastDueSince?.getTime()).toBe(failedAt * 1000);
    expect(row.graceEndsAt?.getTime()).toBe((failedAt + 7 * DAY) * 1000);
    // The replay: stored once, applied once, e-mailed once.
    expect((await postStripeEvent(app.baseURL, failed.body, { secret: SECRET })).status).toBe(200);
    await settled();
    const emails = await emailsTo(seller);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toBe("Your subscription payment failed");
    expect(emails[0]?.text).toContain(`${app.baseURL}/account/card`);
    expect(await noticesOf(seller)).toHaveLength(1);

    await send("customer.subscription.updated", ids, { created: tick(), status: "past_due" });
    // A second failed retry keeps the grace period from the first failure.
    await send("invoice.payment_failed", ids, { created: tick(DAY) });
    row = await subscriptionOf(seller.organizationId);
    expect(row.graceEndsAt?.getTime()).toBe((failedAt + 7 * DAY) * 1000);

    await send("invoice.paid", ids, { created: tick() });
    row = await subscriptionOf(seller.organizationId);
    expect(row.status).toBe("active");
    expect(row.graceEndsAt).toBeNull();
    expect((await emailsTo(seller)).map((email) => email.subject)).toContain("Your subscription payment went through");
    const history = await historyOf(seller.organizationId);
    expect(history.map((entry) => [entry.type, entry.status])).toEqual([
      ["invoice.payment_failed", "past_due"],
      ["customer.subscription.updated", "past_due"],
      ["invoice.payment_failed", "past_due"],
      ["invoice.paid", "active"],
    ]);
  });

  it("an older event after a newer one changes nothing", async () => {
    const { seller, ids } = await sellerWithSubscription();
    const newer = tick(60);
    const older = newer - 30;
    await send("customer.subscription.updated", ids, { created: newer, status: "past_due" });
    await send("customer.subscription.updated", ids, { created: older, status: "active" });
    const row = await subscriptionOf(seller.organizationId);
    expect(row.status).toBe("past_due");
    expect(row.lastEventAt?.getTime()).toBe(newer * 1000);
    const history = await historyOf(seller.organizationId);
    expect(history.at(-1)?.summary).toBe("Older than the last event applied: no change");
  });

  it("unpaid after Stripe's retries: the grace period ends at once", async () => {
    const { seller, ids } = await sellerWithSubscription();
    await send("invoice.payment_failed", ids, { created: tick() });
    const unpaidAt = tick();
    await send("customer.subscription.updated", ids, { created: unpaidAt, status: "unpaid" });
    const row = await subscriptionOf(seller.organizationId);
    expect(row.status).toBe("past_due");
    expect(row.graceEndsAt?.getTime()).toBe(unpaidAt * 1000);
    expect((await emailsTo(seller)).map((email) => email.subject)).toContain(
      "Your subscription is unpaid: bidding is blocked",
    );
  });

  it("cancelled by customer.subscription.updated (canceled) or .deleted, and stays cancelled", async () => {
    const first = await sellerWithSubscription();
    await send("customer.subscription.updated", first.ids, { created: tick(), status: "canceled" });
    expect((await subscriptionOf(first.seller.organizationId)).status).toBe("cancelled");

    const { seller, ids } = await sellerWithSubscription();
    await send("customer.subscription.deleted", ids, { created: tick() });
    expect((await subscriptionOf(seller.organizationId)).status).toBe("cancelled");
    await send("invoice.paid", ids, { created: tick() });
    const row = await subscriptionOf(seller.organizationId);
    expect(row.status).toBe("cancelled");
    expect((await emailsTo(seller)).map((email) => email.subject)).toEqual(["Your subscription has been cancelled"]);
  });

  it("the trial's own invoice (nothing paid) does not end the trial", async () => {
    const { seller, ids } = await sellerWithSubscription("trialing");
    await send("invoice.paid", ids, { created: tick(), amountPaid: 0 });
    expect((await subscriptionOf(seller.organizationId)).status).toBe("trialing");
  });

  it("card trouble: expiring and removed cards are flagged and e-mailed; a card updated by the network clears it", async () => {
    const { seller, ids } = await sellerWithSubscription();
    const expiring = await send("customer.source.expiring", ids, { created: tick() });
    expect((await subscriptionOf(seller.organizationId)).cardProblem).toBe(
      "Visa ending 4242 expires at the end of 12/2026. Please replace it.",
    );
    expect((await postStripeEvent(app.baseURL, expiring.body, { secret: SECRET })).status).toBe(200);
    await settled();
    await send("payment_method.detached", ids, { created: tick() });
    expect((await subscriptionOf(seller.organizationId)).cardProblem).toBe(
      "The card on file was removed. Please add a new card.",
    );
    expect((await emailsTo(seller)).map((email) => email.subject).sort()).toEqual([
      "Your card expires soon",
      "Your card was removed",
    ]);
    await send("payment_method.automatically_updated", ids, { created: tick() });
    const row = await subscriptionOf(seller.organizationId);
    expect(row.cardProblem).toBeNull();
    expect([row.cardBrand, row.cardLast4]).toEqual(["mastercard", "4444"]);
    // A card of the customer that is not the one on file: noted, nothing flagged.
    await send("payment_method.detached", { ...ids, paymentMethod: "pm_another" }, { created: tick() });
    expect((await subscriptionOf(seller.organizationId)).cardProblem).toBeNull();
  });

  it("stores an unknown event type and ignores it; an event for no subscription of ours too", async () => {
    const { ids } = await sellerWithSubscription();
    const unknown = await send("customer.created", ids, { created: tick() });
    const foreign = await send(
      "invoice.paid",
      { subscription: "sub_not_ours", customer: "cus_not_ours", paymentMethod: "pm_not_ours" },
      { created: tick() },
    );
    const rows = await db.select().from(providerEvents).where(eq(providerEvents.id, unknown.event.id));
    expect(rows.map((row) => row.state)).toEqual(["ignored"]);
    const foreignRows = await db.select().from(providerEvents).where(eq(providerEvents.id, foreign.event.id));
    expect(foreignRows.map((row) => row.state)).toEqual(["ignored"]);
  });
});

describe.each(databaseKinds)("Stripe's webhook without STRIPE_WEBHOOK_SECRET on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers 404 (no webhook here) and stores nothing", async () => {
    const answer = await postStripeEvent(app.baseURL, "{}", { signature: "t=1,v1=00" });
    expect(answer.status).toBe(404);
    expect(await app.services.db.select().from(providerEvents)).toEqual([]);
  });
});
