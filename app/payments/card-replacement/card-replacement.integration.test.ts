import { and, eq, sql } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { sellerMayBid } from "~/payments/subscriptions/standing.server";
import type { Database } from "~db/database.server";
import {
  cardUpdateCheckouts,
  organizationChanges,
  organizations,
  registrations,
  sellerRegistrations,
  sellerSubscriptions,
  users,
} from "~db/schema";
import type { CapturedRequest } from "../../../tests/mocks/providers";
import { stripeHandlers } from "../../../tests/mocks/stripe";
import { expectIn, expectNotIn, linkedHtml } from "../../../tests/support/html";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { NEXT_YEAR } from "../../../tests/support/seller-registration-body";
import { createClient } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// /account/card (issue 8): a seller's administrator replaces the card its yearly subscription is
// charged to: with the offline test provider, and with Stripe (faked with MSW at the edge) through a
// Stripe.js token or, without JavaScript, Stripe Checkout in setup mode. Who may, what is written in
// one go (registration, subscription, audit log), and that a failed subscription starts again.

const STAFF = { SEED_STAFF_EMAIL: "staff@card.example", SEED_STAFF_PASSWORD: "staff-password" };
const SELLER_PASSWORD = "seller-password";
const YY = String(NEXT_YEAR).slice(-2);
const card = (number: string) => ({
  card_number: number,
  card_exp_month: "12",
  card_exp_year: YY,
  card_cvc: "123",
  stripe_payment_token: "",
});

type Context = Awaited<ReturnType<typeof startSellerFormApp>>;
type Client = ReturnType<typeof createClient>;

/** Every row of every table as text: where a card number must never be. */
async function everythingStored(db: Database): Promise<string> {
  const tables = (await db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { name: string }[] | { rows: { name: string }[] };
  const names = (Array.isArray(tables) ? tables : tables.rows).map((table) => table.name);
  expect(names).toContain("seller_registrations");
  const dumps = await Promise.all(
    names.map(async (name) => JSON.stringify(await db.execute(sql.raw(`select t::text from "${name}" t`)))),
  );
  return dumps.join("\n");
}

/**
 * A seller registered through the form (its card saved), approved by staff, its administrator's
 * password set and signed in: as a browser without JavaScript gets there.
 */
async function approvedSeller(
  context: Context,
  staff: Client,
  salesEmail: string,
  form: Record<string, string | null>,
) {
  const { db } = context.app.services;
  const token = await context.sellerToken();
  const office = `office-${salesEmail}`;
  const submitted = await context.submit(
    token,
    context.completeForm({
      email: office,
      "salesContact.email": salesEmail,
      "salesContact.confirm_email": salesEmail,
      ...form,
    }),
  );
  expect(submitted.status).toBe(302);
  const [registration] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(eq(registrations.email, office));
  const approved = await staff.request(`/staff/registrations/${registration?.id}`, {
    form: { intent: "approve", confirm: "yes" },
  });
  expect(approved.status).toBe(302);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(SELLER_PASSWORD) })
    .where(eq(users.email, salesEmail));
  const [admin] = await db.select().from(users).where(eq(users.email, salesEmail));
  const client = createClient(context.app.baseURL);
  expect((await client.request("/login", { form: { email: salesEmail, password: SELLER_PASSWORD } })).status).toBe(302);
  return {
    client,
    adminId: admin?.id ?? 0,
    organizationId: admin?.organizationId ?? 0,
    registrationId: registration?.id ?? 0,
  };
}

async function stateOf(db: Database, organizationId: number, registrationId: number) {
  const [seller] = await db
    .select()
    .from(sellerRegistrations)
    .where(eq(sellerRegistrations.registrationId, registrationId));
  const [subscription] = await db
    .select()
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId));
  const changes = await db
    .select()
    .from(organizationChanges)
    .where(eq(organizationChanges.organizationId, organizationId));
  return { seller, subscription, changes };
}

describe.each(databaseKinds)("replacing a seller's card with the test provider on %s", (kind) => {
  let context: Context;
  let staff: Client;
  let seller: Awaited<ReturnType<typeof approvedSeller>>;
  let sellerNumber = 0;

  const newSeller = () => {
    sellerNumber += 1;
    return approvedSeller(context, staff, `admin-${sellerNumber}@card.example`, {});
  };

  beforeAll(async () => {
    context = await startSellerFormApp(kind, STAFF);
    staff = createClient(context.app.baseURL);
    await staff.request("/login", { form: { email: STAFF.SEED_STAFF_EMAIL, password: STAFF.SEED_STAFF_PASSWORD } });
    seller = await newSeller();
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  it("shows the current card and the test card fields, linked from the account page", async () => {
    const account = await (await seller.client.request("/account")).text();
    expectIn(account, "Visa ending 4242");
    expectIn(account, 'href="/account/card"');
    const page = await seller.client.request("/account/card");
    expect(page.status).toBe(200);
    const html = await page.text();
    expectIn(html, "<h1>Replace the card</h1>");
    expectIn(html, "Visa ending 4242");
    for (const name of ["card_number", "card_exp_month", "card_exp_year", "card_cvc"]) expectIn(html, `name="${name}"`);
  });

  it("replaces the card: the registration, the subscription and the audit log in one go, never the number", async () => {
    const { db } = context.app.services;
    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    const replaced = await seller.client.request("/account/card", { form: card("5555 5555 5555 4444") });
    expect(replaced.status).toBe(302);
    expect(replaced.headers.get("location")).toBe("/account?done=card-replaced");

    const after = await stateOf(db, seller.organizationId, seller.registrationId);
    expect(after.seller).toMatchObject({
      paymentStatus: "card_saved",
      paymentProvider: "test",
      paymentCustomerId: before.seller?.paymentCustomerId,
      cardBrand: "mastercard",
      cardLast4: "4444",
    });
    expect(after.seller?.paymentMethodId).toMatch(/^pm_test_/);
    expect(after.seller?.paymentMethodId).not.toBe(before.seller?.paymentMethodId);
    expect(after.subscription).toMatchObject({
      status: "trialing",
      subscriptionId: before.subscription?.subscriptionId,
      cardBrand: "mastercard",
      cardLast4: "4444",
    });
    expect(after.changes).toHaveLength(1);
    expect(after.changes[0]).toMatchObject({
      userId: seller.adminId,
      subject: "card",
      changes: [{ field: "Card", before: "Visa ending 4242", after: "Mastercard ending 4444" }],
    });

    const stored = await everythingStored(db);
    expect(stored).not.toMatch(/5555\s?5555\s?5555\s?4444/);
    expect(stored).not.toMatch(/4242\s?4242\s?4242\s?4242/);

    const account = await (await seller.client.request("/account?done=card-replaced")).text();
    expectIn(account, "Your card has been replaced.");
    expectIn(account, "Mastercard ending 4444");
    expectNotIn(await (await seller.client.request("/account")).text(), "Your card has been replaced.");
  });

  it("answers a declined card with 400 at the card fields, focus on the number, the number not sent back, nothing changed", async () => {
    const { db } = context.app.services;
    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    const declined = await seller.client.request("/account/card", { form: card("4000 0000 0000 0002") });
    expect(declined.status).toBe(400);
    const html = await declined.text();
    expectIn(html, "Your card was declined.");
    expectIn(html, 'id="card-error"');
    expect(html).toMatch(
      /<input[^>]*autofocus=""[^>]*name="card_number"|<input[^>]*name="card_number"[^>]*autofocus=""/,
    );
    // Neither in a field nor in the page's data: only in the hint that names the test cards.
    expect(html.replaceAll("4000 0000 0000 0002 is declined", "")).not.toMatch(/4000\s?0000\s?0000\s?0002/);
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);

    const empty = await seller.client.request("/account/card", {
      form: { card_number: "", card_exp_month: "", card_exp_year: "", card_cvc: "", stripe_payment_token: "" },
    });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    for (const message of [
      "Please enter the card number",
      "Please enter the expiry month (MM)",
      "Please enter the expiry year (YY)",
      "Please enter the CVC",
    ]) {
      expectIn(emptyHtml, message);
    }
    expectIn(emptyHtml, 'href="#card-replacement-card_number"');

    const badNumber = await seller.client.request("/account/card", { form: card("4242 4242 4242 4241") });
    expect(badNumber.status).toBe(400);
    expectIn(await badNumber.text(), "Your card number is incorrect.");
    // Nonsense is a client mistake too: never a 5xx.
    const nonsense = await seller.client.request("/account/card", {
      form: { ...card("4242 4242 4242 4242"), stripe_payment_token: "x".repeat(300) },
    });
    expect(nonsense.status).toBe(400);
    expect((await seller.client.request("/account/card", { form: {} })).status).toBe(400);
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);
  });

  it("lets only the seller's administrator in: other users and buyers get 403, visitors sign in first", async () => {
    const { db } = context.app.services;
    const passwordHash = await hashPassword("other-password");
    const [buyerOrganization] = await db
      .insert(organizations)
      .values({ name: `Buyer ${kind} Ltd.`, organizationType: 2 })
      .returning();
    await db.insert(users).values([
      {
        email: `member-${kind}@card.example`,
        role: 3,
        organizationId: seller.organizationId,
        passwordHash,
      },
      {
        email: `buyer-admin-${kind}@card.example`,
        role: 2,
        organizationId: buyerOrganization?.id,
        passwordHash,
        isOrganizationAdmin: true,
      },
      { email: `staff-${kind}@card.example`, role: 1, passwordHash },
    ]);
    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    for (const email of [
      `member-${kind}@card.example`,
      `buyer-admin-${kind}@card.example`,
      `staff-${kind}@card.example`,
    ]) {
      const client = createClient(context.app.baseURL);
      expect((await client.request("/login", { form: { email, password: "other-password" } })).status).toBe(302);
      expect((await client.request("/account/card")).status, email).toBe(403);
      expect((await client.request("/account/card", { form: card("5555 5555 5555 4444") })).status, email).toBe(403);
      expect((await client.request("/account/card/checkout?session_id=cs_test_123")).status, email).toBe(403);
      expectNotIn(await (await client.request("/account")).text(), 'href="/account/card"');
    }
    for (const path of ["/account/card", "/account/card/checkout?session_id=cs_test_123"]) {
      const visitor = await createClient(context.app.baseURL).request(path);
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?ref=${path.replace("?", "%3F").replace("=", "%3D")}`);
    }
    const posted = await createClient(context.app.baseURL).request("/account/card", {
      form: card("5555 5555 5555 4444"),
    });
    expect(posted.status).toBe(302);
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);
  });

  it("starts a failed subscription again on the new card", async () => {
    const { db } = context.app.services;
    const failed = await newSeller();
    await db
      .update(sellerSubscriptions)
      .set({ status: "failed", subscriptionId: null, trialEndsAt: null, failure: "Your card was declined." })
      .where(eq(sellerSubscriptions.organizationId, failed.organizationId));
    const account = await (await failed.client.request("/account")).text();
    expectIn(account, "Your subscription could not be started.");
    expectIn(account, 'href="/account/card"');
    expectIn(
      await (await failed.client.request("/account/card")).text(),
      "Once the new card is saved we start it again",
    );

    const replaced = await failed.client.request("/account/card", { form: card("5555 5555 5555 4444") });
    expect(replaced.status).toBe(302);
    const { subscription } = await stateOf(db, failed.organizationId, failed.registrationId);
    expect(subscription).toMatchObject({
      status: "trialing",
      failure: null,
      cardBrand: "mastercard",
      cardLast4: "4444",
    });
    expect(subscription?.subscriptionId).toMatch(/^sub_test_/);
    const days = ((subscription?.trialEndsAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    const shown = await (await failed.client.request("/account?done=card-replaced")).text();
    expectIn(shown, "Free trial until");
    expectNotIn(shown, "Your subscription could not be started.");
  });

  it("renews a cancelled subscription on the new card: charged at once, no second trial, bidding again", async () => {
    const { db } = context.app.services;
    const cancelled = await newSeller();
    await db
      .update(sellerSubscriptions)
      .set({ status: "cancelled", cancelledAt: new Date(), trialEndsAt: null, lastEventAt: new Date() })
      .where(eq(sellerSubscriptions.organizationId, cancelled.organizationId));
    const before = await stateOf(db, cancelled.organizationId, cancelled.registrationId);
    expect(await sellerMayBid(db, cancelled.organizationId)).toEqual({ mayBid: false, reason: "cancelled" });
    const account = await (await cancelled.client.request("/account")).text();
    expectIn(account, linkedHtml(blockedMessage("cancelled", "bid")));
    expectIn(
      await (await cancelled.client.request("/account/card")).text(),
      "Once the new card is saved we renew it on that card: $210.00 (yearly subscription and GST) is charged at once.",
    );

    const replaced = await cancelled.client.request("/account/card", { form: card("5555 5555 5555 4444") });
    expect(replaced.status).toBe(302);
    const { subscription } = await stateOf(db, cancelled.organizationId, cancelled.registrationId);
    expect(subscription).toMatchObject({
      status: "active",
      trialEndsAt: null,
      cancelledAt: null,
      lastEventAt: null,
      amountCents: 21_000,
      failure: null,
      cardLast4: "4444",
    });
    expect(subscription?.subscriptionId).not.toBe(before.subscription?.subscriptionId);
    expect(await sellerMayBid(db, cancelled.organizationId)).toEqual({ mayBid: true });
    const shown = await (await cancelled.client.request("/account?done=card-replaced")).text();
    expectIn(shown, "$210.00 at the yearly renewal (yearly subscription and GST)");
    expectNotIn(shown, "Subscription cancelled");
  });

  it("saves the card to a new customer when the one on file was saved with another provider, and starts the subscription", async () => {
    const { db } = context.app.services;
    const moved = await newSeller();
    await db
      .update(sellerRegistrations)
      .set({ paymentProvider: "stripe", paymentCustomerId: "cus_elsewhere", paymentMethodId: "pm_elsewhere" })
      .where(eq(sellerRegistrations.registrationId, moved.registrationId));
    await db
      .update(sellerSubscriptions)
      .set({
        provider: "stripe",
        status: "failed",
        subscriptionId: null,
        failure: "The card was saved with another card provider than the one now configured.",
      })
      .where(eq(sellerSubscriptions.organizationId, moved.organizationId));
    expect((await moved.client.request("/account/card", { form: card("4242 4242 4242 4242") })).status).toBe(302);
    const after = await stateOf(db, moved.organizationId, moved.registrationId);
    expect(after.seller?.paymentProvider).toBe("test");
    expect(after.seller?.paymentCustomerId).toMatch(/^cus_test_/);
    expect(after.subscription).toMatchObject({ provider: "test", status: "trialing", failure: null });
    expect(after.changes[0]?.changes).toEqual([
      { field: "Card", before: "Visa ending 4242", after: "Visa ending 4242" },
    ]);
  });
});

describe.each(databaseKinds)("replacing a seller's card with Stripe on %s", (kind) => {
  const captured: CapturedRequest[] = [];
  const stripe = setupServer(...stripeHandlers(captured));
  let context: Context;
  let staff: Client;
  let seller: Awaited<ReturnType<typeof approvedSeller>>;

  beforeAll(async () => {
    stripe.listen({ onUnhandledRequest: "bypass" });
    context = await startSellerFormApp(kind, {
      ...STAFF,
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      STRIPE_SUBSCRIPTION_PRICE_ID: "price_year",
      STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
    });
    staff = createClient(context.app.baseURL);
    await staff.request("/login", { form: { email: STAFF.SEED_STAFF_EMAIL, password: STAFF.SEED_STAFF_PASSWORD } });
    seller = await approvedSeller(context, staff, `stripe-admin-${kind}@card.example`, {
      card_number: null,
      card_exp_month: null,
      card_exp_year: null,
      card_cvc: null,
      stripe_payment_token: "tok_visa",
    });
    captured.length = 0;
  });
  afterEach(() => {
    captured.length = 0;
    stripe.resetHandlers();
  });
  afterAll(async () => {
    await context?.app.stop();
    stripe.close();
  });

  const completeSession = (sessionId: string) =>
    stripe.use(
      http.get(`https://api.stripe.com/v1/checkout/sessions/${sessionId}`, async ({ request }) => {
        captured.push({ url: request.url, headers: request.headers, body: "" });
        return HttpResponse.json({
          id: sessionId,
          object: "checkout.session",
          status: "complete",
          customer: "cus_123",
          url: null,
          setup_intent: {
            id: "seti_9",
            status: "succeeded",
            payment_method: { id: "pm_456", card: { brand: "mastercard", last4: "4444" } },
          },
        });
      }),
    );

  it("shows Stripe's card fields, or without JavaScript sends the administrator to Checkout for the existing customer", async () => {
    const { db } = context.app.services;
    const page = await (await seller.client.request("/account/card")).text();
    expectIn(page, "Visa ending 4242");
    expectNotIn(page, 'name="card_number"');
    expectIn(page, "secure payment page");

    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    const posted = await seller.client.request("/account/card", { form: { stripe_payment_token: "" } });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("https://checkout.stripe.com/c/pay/cs_test_123");
    expect(captured.map((request) => request.url)).toEqual(["https://api.stripe.com/v1/checkout/sessions"]);
    const session = Object.fromEntries(new URLSearchParams(captured[0]?.body));
    expect(session).toMatchObject({
      mode: "setup",
      customer: "cus_123",
      "allowed_payment_method_types[0]": "card",
      client_reference_id: `organization-${seller.organizationId}`,
      success_url: `${context.app.baseURL}/account/card/checkout?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${context.app.baseURL}/account/card/checkout?cancelled=1`,
    });
    const [checkout] = await db
      .select()
      .from(cardUpdateCheckouts)
      .where(eq(cardUpdateCheckouts.sessionId, "cs_test_123"));
    expect(checkout).toMatchObject({
      organizationId: seller.organizationId,
      userId: seller.adminId,
      completedAt: null,
    });
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);
  });

  it("keeps the card while the session is open or was left, and knows no other session", async () => {
    const { db } = context.app.services;
    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    const open = await seller.client.request("/account/card/checkout?session_id=cs_test_123");
    expect(open.status).toBe(200);
    expectIn(await open.text(), "Your new card has not been saved yet.");
    const cancelled = await seller.client.request("/account/card/checkout?cancelled=1");
    expect(cancelled.status).toBe(200);
    expectIn(await cancelled.text(), "You left the payment page before your new card was saved.");
    completeSession("cs_someone_else");
    const unknown = await seller.client.request("/account/card/checkout?session_id=cs_someone_else");
    expect(unknown.status).toBe(404);
    expectIn(await unknown.text(), "We could not find this card change.");
    expect((await seller.client.request("/account/card/checkout")).status).toBe(404);
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);
  });

  it("completes the replacement once on return: the customer's and the subscription's default, then the account", async () => {
    const { db } = context.app.services;
    completeSession("cs_test_123");
    const returned = await seller.client.request("/account/card/checkout?session_id=cs_test_123");
    expect(returned.status).toBe(302);
    expect(returned.headers.get("location")).toBe("/account?done=card-replaced");
    const urls = captured.map((request) => request.url.split("?")[0]);
    expect(urls).toEqual([
      "https://api.stripe.com/v1/checkout/sessions/cs_test_123",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_123",
    ]);
    expect(new URLSearchParams(captured[2]?.body).get("default_payment_method")).toBe("pm_456");

    const after = await stateOf(db, seller.organizationId, seller.registrationId);
    expect(after.seller).toMatchObject({
      paymentProvider: "stripe",
      paymentCustomerId: "cus_123",
      paymentMethodId: "pm_456",
      cardBrand: "mastercard",
      cardLast4: "4444",
    });
    expect(after.subscription).toMatchObject({ status: "trialing", cardBrand: "mastercard", cardLast4: "4444" });
    expect(after.changes.map((change) => change.changes)).toEqual([
      [{ field: "Card", before: "Visa ending 4242", after: "Mastercard ending 4444" }],
    ]);
    const [checkout] = await db
      .select()
      .from(cardUpdateCheckouts)
      .where(eq(cardUpdateCheckouts.sessionId, "cs_test_123"));
    expect(checkout?.completedAt).toBeInstanceOf(Date);

    // A reload of the return page changes nothing and asks Stripe nothing.
    captured.length = 0;
    const reloaded = await seller.client.request("/account/card/checkout?session_id=cs_test_123");
    expect(reloaded.status).toBe(302);
    expect(reloaded.headers.get("location")).toBe("/account?done=card-replaced");
    expect(captured).toHaveLength(0);
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(after);
    expectIn(await (await seller.client.request("/account?done=card-replaced")).text(), "Mastercard ending 4444");
  });

  it("renews a cancelled subscription as a new one paid at once: no trial, no processing fee again", async () => {
    const { db } = context.app.services;
    const cancelled = await approvedSeller(context, staff, `stripe-renewal-${kind}@card.example`, {
      card_number: null,
      card_exp_month: null,
      card_exp_year: null,
      card_cvc: null,
      stripe_payment_token: "tok_visa",
    });
    await db
      .update(sellerSubscriptions)
      .set({ status: "cancelled", cancelledAt: new Date() })
      .where(eq(sellerSubscriptions.organizationId, cancelled.organizationId));
    captured.length = 0;
    const replaced = await cancelled.client.request("/account/card", {
      form: { stripe_payment_token: "tok_mastercard" },
    });
    expect(replaced.status).toBe(302);
    // The card goes to the customer; the cancelled subscription is left alone; a new one is created.
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers/cus_123/sources",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions",
    ]);
    const created = new URLSearchParams(captured[2]?.body);
    expect(created.get("payment_behavior")).toBe("error_if_incomplete");
    expect(created.get("trial_period_days")).toBeNull();
    expect(created.get("default_payment_method")).toBe("card_mastercard");
    const { subscription } = await stateOf(db, cancelled.organizationId, cancelled.registrationId);
    expect(subscription).toMatchObject({ status: "active", amountCents: 21_000, cancelledAt: null, failure: null });
  });

  it("replaces the card from a Stripe.js token on the existing customer and subscription, and shows a decline", async () => {
    const { db } = context.app.services;
    const before = await stateOf(db, seller.organizationId, seller.registrationId);
    const declined = await seller.client.request("/account/card", {
      form: { stripe_payment_token: "tok_chargeDeclined" },
    });
    expect(declined.status).toBe(400);
    const html = await declined.text();
    expectIn(html, "Your card was declined.");
    expectNotIn(html, "tok_chargeDeclined");
    expect(await stateOf(db, seller.organizationId, seller.registrationId)).toEqual(before);

    captured.length = 0;
    const replaced = await seller.client.request("/account/card", { form: { stripe_payment_token: "tok_visa" } });
    expect(replaced.status).toBe(302);
    expect(replaced.headers.get("location")).toBe("/account?done=card-replaced");
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers/cus_123/sources",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_123",
    ]);
    const after = await stateOf(db, seller.organizationId, seller.registrationId);
    expect(after.seller).toMatchObject({ paymentMethodId: "card_456", cardBrand: "Visa", cardLast4: "4242" });
    expect(after.changes.at(-1)?.changes).toEqual([
      { field: "Card", before: "Mastercard ending 4444", after: "Visa ending 4242" },
    ]);
    // The same token again (a double submit) attaches nothing new and writes no second audit line.
    expect((await seller.client.request("/account/card", { form: { stripe_payment_token: "tok_visa" } })).status).toBe(
      302,
    );
    const again = await stateOf(db, seller.organizationId, seller.registrationId);
    expect(again.changes).toHaveLength(after.changes.length);
    const audit = await db
      .select()
      .from(organizationChanges)
      .where(
        and(eq(organizationChanges.organizationId, seller.organizationId), eq(organizationChanges.subject, "card")),
      );
    expect(audit).toHaveLength(2);
  });
});
