import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptAuctionTerms } from "~/auctions/invitations/invitations.server";
import { submitSealedBid } from "~/auctions/sealed/sealed-bids.server";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import type { Database } from "~db/database.server";
import { auctionBids, auctionInvitations, registrations, sellerRegistrations, sellerSubscriptions } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../../tests/support/auction-fixtures";
import { expectIn, expectNotIn, linkedHtml } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { type FixtureIds, type FixtureName, postStripeEvent, stripeEvent } from "./fixtures/stripe-events";
import { drainProviderEvents } from "./provider-events.server";
import { blockedMessage } from "./standing";
import { sellerMayBid } from "./standing.server";

// A seller's standing drives what it may do (issue 19): past due within the grace period it still
// bids; after the grace period (or cancelled) it can neither bid (live, automatic minimum, sealed)
// nor accept a new invitation, with the same plain message everywhere; a bid already placed stands;
// a paid invoice restores it. The standing is moved by signed webhook events, as in production.

const SECRET = `whsec_${randomBytes(16).toString("hex")}`;
const DAY_SECONDS = 86_400;
const OVERDUE_BID = blockedMessage("overdue", "bid");

describe.each(databaseKinds)("a seller's standing on %s", (kind) => {
  let app: TestApp;
  let db: Database;
  let buyer: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;

  beforeAll(async () => {
    app = await startTestApp(kind, { ...TEST_STAFF_ENV, STRIPE_WEBHOOK_SECRET: SECRET });
    db = app.services.db;
    await seedDemoCatalogue(db);
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db);
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function subscribedSeller() {
    const seller = await createSeller(db, {
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
      .set({ paymentCustomerId: ids.customer, paymentMethodId: ids.paymentMethod })
      .where(eq(sellerRegistrations.registrationId, registration?.id ?? 0));
    await db.insert(sellerSubscriptions).values({
      organizationId: seller.organizationId,
      provider: "stripe",
      subscriptionId: ids.subscription,
      status: "active",
      amountCents: SELLER_FEES_TOTAL,
    });
    return { seller, ids };
  }

  async function send(name: FixtureName, ids: FixtureIds, created: number) {
    const body = JSON.stringify(stripeEvent(name, ids, { created }));
    expect((await postStripeEvent(app.baseURL, body, { secret: SECRET })).status).toBe(200);
    await drainProviderEvents(app.services);
    // The app's own drain may have taken the event: wait until it is no longer waiting.
    for (;;) {
      const waiting = await db.query.providerEvents.findFirst({
        where: (table, { eq: is }) => is(table.state, "received"),
      });
      if (!waiting) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await drainProviderEvents(app.services);
    }
  }

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it("past due within the grace period: still bids", async () => {
    const { seller, ids } = await subscribedSeller();
    await send("invoice.payment_failed", ids, nowSeconds());
    expect(await sellerMayBid(db, seller.organizationId)).toEqual({ mayBid: true });
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller] });
    const as = await signedInClients(() => createClient(app.baseURL), [seller]);
    const bid = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "9000.00", confirm: "yes" },
    });
    expect(bid.status).toBe(302);
    const account = await (await as(seller).request("/account")).text();
    // Within the grace period the notice says the payment failed and bidding goes on, not "overdue".
    expectIn(account, "Subscription payment failed");
    expectIn(account, "You can still bid and accept invitations until");
    expectIn(account, '<a href="/account/card">/account/card</a>');
    expectNotIn(account, "Payment overdue");
    expectIn(account, "Past due");
  });

  it("after the grace period: no bid, no minimum, no sealed bid, no new invitation; placed bids stand; paid restores", async () => {
    const { seller, ids } = await subscribedSeller();
    const { seller: rival } = await subscribedSeller();
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller, rival] });
    const as = await signedInClients(() => createClient(app.baseURL), [seller, rival]);
    const placed = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "9000.00", confirm: "yes" },
    });
    expect(placed.status).toBe(302);

    // The renewal failed eight days ago (Stripe's clock): the seven days of grace are over.
    await send("invoice.payment_failed", ids, nowSeconds() - 8 * DAY_SECONDS);
    expect(await sellerMayBid(db, seller.organizationId)).toEqual({ mayBid: false, reason: "overdue" });

    const refused = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "8000.00", confirm: "yes" },
    });
    expect(refused.status).toBe(403);
    expectIn(await refused.text(), linkedHtml(OVERDUE_BID));
    const minimum = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "auto-bid", minimum: "7000.00" },
    });
    expect(minimum.status).toBe(403);
    expectIn(await minimum.text(), linkedHtml(OVERDUE_BID));
    // The bid placed before stands.
    const bids = await db.select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id));
    expect(bids.map((bid) => bid.amountCents)).toEqual([900_000]);

    // A new invitation cannot be accepted; the page says why.
    const invitedTo = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      status: "scheduled",
      startsAt: new Date(Date.now() + 3_600_000),
      endsAt: new Date(Date.now() + 7_200_000),
    });
    await db
      .insert(auctionInvitations)
      .values({ auctionId: invitedTo.id, organizationId: seller.organizationId, alias: "Seller A" });
    const accept = await as(seller).request(`/auctions/${invitedTo.id}`, { form: { intent: "accept-terms" } });
    expect(accept.status).toBe(403);
    expectIn(await accept.text(), linkedHtml(blockedMessage("overdue", "accept")));
    const [invitation] = await db
      .select()
      .from(auctionInvitations)
      .where(
        and(
          eq(auctionInvitations.auctionId, invitedTo.id),
          eq(auctionInvitations.organizationId, seller.organizationId),
        ),
      );
    expect(invitation?.termsAcceptedAt).toBeNull();

    // Sealed bids: the same rule.
    const sealed = await createAuctionRow(db, { owner: buyer, ...catalogue, kind: "sealed", sellers: [seller] });
    const sealedOutcome = await submitSealedBid(db, {
      auctionId: sealed.id,
      organizationId: seller.organizationId,
      userId: seller.userId,
      amountCents: 500_000,
      files: [],
    });
    expect(sealedOutcome).toMatchObject({ kind: "refused", status: 403, message: OVERDUE_BID });

    // Paid: bids and accepts again (under the rival's lower bid).
    const rivalBid = await as(rival).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "8500.00", confirm: "yes" },
    });
    expect(rivalBid.status).toBe(302);
    await send("invoice.paid", ids, nowSeconds());
    expect(await sellerMayBid(db, seller.organizationId)).toEqual({ mayBid: true });
    const again = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "8000.00", confirm: "yes" },
    });
    expect(again.status).toBe(302);
    expect(
      await acceptAuctionTerms(db, invitedTo.id, { userId: seller.userId, organizationId: seller.organizationId }),
    ).toMatchObject({ kind: "done" });
  });

  it("a held-back seller's minimum bids nothing meanwhile, and bids again once paid", async () => {
    const { seller, ids } = await subscribedSeller();
    const { seller: rival } = await subscribedSeller();
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller, rival] });
    const as = await signedInClients(() => createClient(app.baseURL), [seller, rival]);
    const minimum = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "auto-bid", minimum: "5000.00" },
    });
    expect(minimum.status).toBe(302);
    const amounts = async () =>
      (await db.select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id)))
        .sort((a, b) => a.id - b.id)
        .map((bid) => [bid.organizationId === seller.organizationId ? "seller" : "rival", bid.amountCents, bid.kind]);
    const opened = await amounts();
    expect(opened).toEqual([["seller", 1_000_000, "auto"]]);

    await send("invoice.payment_failed", ids, nowSeconds() - 8 * DAY_SECONDS);
    const rivalBid = await as(rival).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "9000.00", confirm: "yes" },
    });
    expect(rivalBid.status).toBe(302);
    // No automatic answer: the rival leads.
    expect(await amounts()).toEqual([...opened, ["rival", 900_000, "manual"]]);

    await send("invoice.paid", ids, nowSeconds());
    const rivalAgain = await as(rival).request(`/auctions/${auction.id}`, {
      form: { intent: "auto-bid", minimum: "8000.00" },
    });
    expect(rivalAgain.status).toBe(302);
    // The kept minimum answers again: the seller leads one decrement under the rival's minimum.
    const [last] = (await amounts()).slice(-1);
    expect(last?.[0]).toBe("seller");
  });

  it("cancelled: refused with its own message", async () => {
    const { seller, ids } = await subscribedSeller();
    await send("customer.subscription.deleted", ids, nowSeconds());
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller] });
    const as = await signedInClients(() => createClient(app.baseURL), [seller]);
    const refused = await as(seller).request(`/auctions/${auction.id}`, {
      form: { intent: "bid", amount: "9000.00", confirm: "yes" },
    });
    expect(refused.status).toBe(403);
    expectIn(await refused.text(), linkedHtml(blockedMessage("cancelled", "bid")));
  });

  it("staff see the standing in the queue and the events on the registration page", async () => {
    const { seller, ids } = await subscribedSeller();
    await send("invoice.payment_failed", ids, nowSeconds() - 8 * DAY_SECONDS);
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.organizationId, seller.organizationId));
    const as = await signedInClients(() => createClient(app.baseURL), []);
    const queue = await (await as("staff").request("/staff/registrations")).text();
    expectIn(queue, "Past due: bidding blocked");
    const page = await (await as("staff").request(`/staff/registrations/${registration?.id}`)).text();
    expectIn(page, "Subscription events");
    expectIn(page, "invoice.payment_failed");
    expectIn(page, "Renewal payment failed");
  });
});
