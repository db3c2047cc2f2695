import { count, eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import {
  accountTokens,
  organizations,
  outboxMessages,
  registrationDecisions,
  registrations,
  sellerRegistrations,
  sellerSubscriptions,
  users,
} from "~db/schema";
import type { CapturedRequest } from "../../tests/mocks/providers";
import { stripeHandlers } from "../../tests/mocks/stripe";
import { expectIn } from "../../tests/support/html";
import { startSellerFormApp } from "../../tests/support/seller-form-app";
import { createClient } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";

// Staff review (issue 8, first part) as a browser without JavaScript uses it: the queue, a
// registration's page, approve and reject with their confirmation step, one decision only, the
// account made in the same transaction, and who may see any of it.

/**
 * The "Card provider" section of a registration's page: each term with its description's text and
 * the links in it.
 */
function cardProviderTerms(html: string) {
  const section = /<section aria-labelledby="card-provider">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
  const text = (fragment: string) =>
    fragment
      .replace(/<[^>]+>/g, "")
      .replaceAll("&#x27;", "'")
      .replaceAll("&amp;", "&");
  const terms = new Map<string, { text: string; links: string[] }>();
  for (const [, term = "", description = ""] of section.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)) {
    const links = [...description.matchAll(/href="([^"]*)"/g)].map((match) => match[1] ?? "");
    terms.set(text(term), { text: text(description), links });
  }
  return { text: text(section), terms };
}

describe.each(databaseKinds)("staff review on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let staff: ReturnType<typeof createClient>;
  let submitted = 0;

  beforeAll(async () => {
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
    staff = createClient(context.app.baseURL);
    const signedIn = await staff.request("/login", {
      form: { email: "staff@example.com", password: "staff-password" },
    });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  /** A seller registration submitted through the form; answers its id. */
  async function submittedSeller(salesEmail: string) {
    submitted += 1;
    const token = await context.sellerToken();
    const form = context.completeForm({
      name: `Review Test ${submitted} Ltd.`,
      email: `office-${submitted}@review.example`,
      "salesContact.email": salesEmail,
      "salesContact.confirm_email": salesEmail,
    });
    const response = await context.submit(token, form);
    expect(response.status).toBe(302);
    const [row] = await context.app.services.db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, `office-${submitted}@review.example`));
    return row?.id ?? 0;
  }

  const decide = (id: number, form: Record<string, string>) => staff.request(`/staff/registrations/${id}`, { form });

  it("lists registrations newest first, filtered by type and status, with counts", async () => {
    const id = await submittedSeller("queue@review.example");
    const all = await staff.request("/staff/registrations");
    expect(all.status).toBe(200);
    const html = await all.text();
    expectIn(html, `href="/staff/registrations/${id}"`);
    expectIn(html, "Awaiting review: ");
    const buyersOnly = await (await staff.request("/staff/registrations?type=2")).text();
    expect(buyersOnly.includes(`href="/staff/registrations/${id}"`)).toBe(false);
    const sellersAwaiting = await (await staff.request("/staff/registrations?type=3&status=submitted")).text();
    expectIn(sellersAwaiting, `href="/staff/registrations/${id}"`);
    // Nonsense filters are ignored, not an error.
    expect((await staff.request("/staff/registrations?type=9&status=%3Cx%3E")).status).toBe(200);
  });

  it("shows everything the applicant sent, with insurance expiring soon flagged in words", async () => {
    const id = await submittedSeller("detail@review.example");
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const { db } = context.app.services;
    const { sellerRegistrations } = await import("~db/schema");
    await db
      .update(sellerRegistrations)
      .set({ inCommercialGeneralExpiry: soon })
      .where(eq(sellerRegistrations.registrationId, id));
    const page = await staff.request(`/staff/registrations/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [
      "Review Test",
      "detail@review.example",
      "Big Rig Co",
      "WCB AB",
      "1234567",
      "Expires within 30 days",
      "saved (test)",
    ]) {
      expectIn(html, text);
    }
    expect((await staff.request("/staff/registrations/999999")).status).toBe(404);
    expect((await staff.request("/staff/registrations/nope")).status).toBe(404);
  });

  it("approves after a confirmation, creating the organization, the user and a 7-day setup link in one go", async () => {
    const id = await submittedSeller("approve@review.example");
    const { db } = context.app.services;

    const asked = await decide(id, { intent: "approve" });
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "Approve this registration?");
    expect((await db.select().from(users).where(eq(users.email, "approve@review.example"))).length).toBe(0);

    const approved = await decide(id, { intent: "approve", confirm: "yes" });
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toBe(`/staff/registrations/${id}?done=approved`);
    const [user] = await db.select().from(users).where(eq(users.email, "approve@review.example"));
    expect(user?.role).toBe(3);
    expect(user?.passwordHash).toBeNull();
    const [organization] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.id, user?.organizationId ?? 0));
    expect(organization?.organizationType).toBe(3);
    const [registration] = await db.select().from(registrations).where(eq(registrations.id, id));
    expect(registration?.status).toBe("approved");
    expect(registration?.organizationId).toBe(organization?.id);
    const [token] = await db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.userId, user?.id ?? 0));
    expect(token?.purpose).toBe("account_setup");
    const days = ((token?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const [mail] = await db.select().from(outboxMessages).where(eq(outboxMessages.to, "approve@review.example"));
    expect(mail?.text).toMatch(new RegExp(`${context.app.baseURL}/account-setup/[A-Za-z0-9_-]{43}`));

    const shown = await (await staff.request(`/staff/registrations/${id}?done=approved`)).text();
    expectIn(shown, "Registration approved");
    expectIn(shown, "Approved by staff@example.com");

    // Staff can send the setup link again until it has been used.
    const resent = await decide(id, { intent: "resend" });
    expect(resent.status).toBe(200);
    expectIn(await resent.text(), "A new account-setup link has been e-mailed to approve@review.example.");
    const mails = await db.select().from(outboxMessages).where(eq(outboxMessages.to, "approve@review.example"));
    expect(mails).toHaveLength(2);
    await db.update(users).set({ passwordHash: "set" }).where(eq(users.email, "approve@review.example"));
    const setUp = await decide(id, { intent: "resend" });
    expect(setUp.status).toBe(409);
    expectIn(await setUp.text(), "already set up");

    // Deciding again changes nothing.
    const again = await decide(id, { intent: "reject", reason: "Too late", confirm: "yes" });
    expect(again.status).toBe(409);
    expectIn(await again.text(), "already been decided");
    const decisions = await db
      .select({ n: count() })
      .from(registrationDecisions)
      .where(eq(registrationDecisions.registrationId, id));
    expect(decisions[0]?.n).toBe(1);
  });

  it("starts the seller's yearly subscription on the saved card with the free trial", async () => {
    const id = await submittedSeller("subscribe@review.example");
    expect((await decide(id, { intent: "approve", confirm: "yes" })).status).toBe(302);
    const { db } = context.app.services;
    const [user] = await db.select().from(users).where(eq(users.email, "subscribe@review.example"));
    const [subscription] = await db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.organizationId, user?.organizationId ?? 0));
    expect(subscription).toMatchObject({
      provider: "test",
      status: "trialing",
      amountCents: 21_735,
      cardBrand: "visa",
      cardLast4: "4242",
      failure: null,
    });
    const days = ((subscription?.trialEndsAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const page = await (await staff.request(`/staff/registrations/${id}`)).text();
    expectIn(page, "Free trial until");
    expectIn(page, "$217.35");
  });

  it("shows staff the seller's ids at the test card provider as text, saying whose they are", async () => {
    const id = await submittedSeller("provider-ids@review.example");
    const { db } = context.app.services;
    const [card] = await db
      .select({ customerId: sellerRegistrations.paymentCustomerId })
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, id));
    expect(card?.customerId).toMatch(/^cus_/);
    const before = cardProviderTerms(await (await staff.request(`/staff/registrations/${id}`)).text());
    expectIn(before.text, "These ids are the built-in test card provider's");
    expect(Object.fromEntries(before.terms)).toEqual({
      Customer: { text: `${card?.customerId} (the test card provider's, not Stripe's)`, links: [] },
      Subscription: { text: "None", links: [] },
      "Subscription status": { text: "None", links: [] },
    });

    expect((await decide(id, { intent: "approve", confirm: "yes" })).status).toBe(302);
    const [subscription] = await db
      .select({ subscriptionId: sellerSubscriptions.subscriptionId })
      .from(sellerSubscriptions)
      .innerJoin(registrations, eq(registrations.organizationId, sellerSubscriptions.organizationId))
      .where(eq(registrations.id, id));
    expect(subscription?.subscriptionId).toMatch(/^sub_/);
    const after = cardProviderTerms(await (await staff.request(`/staff/registrations/${id}`)).text());
    expect(after.terms.get("Subscription")).toEqual({
      text: `${subscription?.subscriptionId} (the test card provider's, not Stripe's)`,
      links: [],
    });
    expect(after.terms.get("Subscription status")?.text).toBe("Free trial");
    expect(after.text).not.toContain("dashboard.stripe.com");

    // Anyone but staff is refused the page, and with it the ids.
    for (const role of [2, 3, 4]) {
      const email = `provider-ids-${role}-${kind}@review.example`;
      await db.insert(users).values({ email, role, passwordHash: await hashPassword("role-password") });
      const client = createClient(context.app.baseURL);
      await client.request("/login", { form: { email, password: "role-password" } });
      const refused = await client.request(`/staff/registrations/${id}`);
      expect(refused.status).toBe(403);
      const body = await refused.text();
      expect(body).not.toContain(card?.customerId ?? "cus_");
      expect(body).not.toContain(subscription?.subscriptionId ?? "sub_");
    }
    const visitor = await createClient(context.app.baseURL).request(`/staff/registrations/${id}`);
    expect(visitor.status).toBe(302);
  });

  it("lets exactly one of two simultaneous decisions win", async () => {
    const id = await submittedSeller("race@review.example");
    const answers = await Promise.all([
      decide(id, { intent: "approve", confirm: "yes" }),
      decide(id, { intent: "reject", reason: "Duplicate", confirm: "yes" }),
      decide(id, { intent: "approve", confirm: "yes" }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 302)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(2);
    const { db } = context.app.services;
    const decisions = await db.select().from(registrationDecisions).where(eq(registrationDecisions.registrationId, id));
    expect(decisions).toHaveLength(1);
    const accounts = await db.select().from(users).where(eq(users.email, "race@review.example"));
    expect(accounts).toHaveLength(decisions[0]?.decision === "approved" ? 1 : 0);
  });

  it("rejects only with a reason, which is e-mailed, and creates no account", async () => {
    const id = await submittedSeller("reject@review.example");
    const early = await decide(id, { intent: "resend" });
    expect(early.status).toBe(409);
    expectIn(await early.text(), "Only an approved registration");
    const noReason = await decide(id, { intent: "reject", reason: "  " });
    expect(noReason.status).toBe(400);
    expectIn(await noReason.text(), "Please give the reason for rejecting this registration");
    const asked = await decide(id, { intent: "reject", reason: "Insurance certificate missing" });
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "Reject this registration?");
    const rejected = await decide(id, { intent: "reject", reason: "Insurance certificate missing", confirm: "yes" });
    expect(rejected.status).toBe(302);
    const { db } = context.app.services;
    expect(await db.select().from(users).where(eq(users.email, "reject@review.example"))).toHaveLength(0);
    const [mail] = await db.select().from(outboxMessages).where(eq(outboxMessages.to, "reject@review.example"));
    expect(mail?.text).toContain("Reason: Insurance certificate missing");
    expectIn(await (await staff.request(`/staff/registrations/${id}`)).text(), "Insurance certificate missing");
  });

  it("refuses to approve when the contact's email already has an account, changing nothing", async () => {
    const id = await submittedSeller("staff@example.com");
    const refused = await decide(id, { intent: "approve", confirm: "yes" });
    expect(refused.status).toBe(409);
    expectIn(await refused.text(), "already exists");
    const [registration] = await context.app.services.db.select().from(registrations).where(eq(registrations.id, id));
    expect(registration?.status).toBe("submitted");
  });

  it("answers nonsense decisions with 400 and never a 5xx", async () => {
    const id = await submittedSeller("nonsense@review.example");
    const nonsense: Record<string, string>[] = [
      {},
      { intent: "delete" },
      { intent: "approve", confirm: "maybe" },
      { intent: "reject" },
    ];
    for (const form of nonsense) {
      expect((await decide(id, form)).status).toBe(400);
    }
    expect((await decide(999999, { intent: "approve", confirm: "yes" })).status).toBe(404);
  });

  it("is for staff only: visitors go to sign in, buyers, sellers and consultants get 403", async () => {
    const id = await submittedSeller("matrix@review.example");
    for (const path of ["/staff/registrations", `/staff/registrations/${id}`]) {
      const visitor = await createClient(context.app.baseURL).request(path);
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/login?ref=${path}`);
    }
    const { db } = context.app.services;
    for (const role of [2, 3, 4]) {
      const email = `role-${role}-${kind}@review.example`;
      await db.insert(users).values({ email, role, passwordHash: await hashPassword("role-password") });
      const client = createClient(context.app.baseURL);
      await client.request("/login", { form: { email, password: "role-password" } });
      expect((await client.request("/staff/registrations")).status).toBe(403);
      expect((await client.request(`/staff/registrations/${id}`)).status).toBe(403);
      const post = await client.request(`/staff/registrations/${id}`, { form: { intent: "approve", confirm: "yes" } });
      expect(post.status).toBe(403);
    }
    const [registration] = await db.select().from(registrations).where(eq(registrations.id, id));
    expect(registration?.status).toBe("submitted");
  });
});

describe.each(databaseKinds)("approving a seller with Stripe configured on %s", (kind) => {
  const captured: CapturedRequest[] = [];
  const stripe = setupServer(...stripeHandlers(captured));
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let staff: ReturnType<typeof createClient>;
  beforeAll(async () => {
    stripe.listen({ onUnhandledRequest: "bypass" });
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      STRIPE_SUBSCRIPTION_PRICE_ID: "price_year",
      STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
      STRIPE_GST_TAX_RATE_ID: "txr_gst",
    });
    staff = createClient(context.app.baseURL);
    await staff.request("/login", { form: { email: "staff@example.com", password: "staff-password" } });
  });
  afterAll(async () => {
    await context?.app.stop();
    stripe.close();
  });

  /** A seller registration with its card saved at Stripe, submitted; answers its id. */
  async function submittedSeller(salesEmail: string) {
    const token = await context.sellerToken();
    const form = context.completeForm({
      email: `office-${salesEmail}`,
      "salesContact.email": salesEmail,
      "salesContact.confirm_email": salesEmail,
      card_number: null,
      card_exp_month: null,
      card_exp_year: null,
      card_cvc: null,
      stripe_payment_token: "tok_visa",
    });
    expect((await context.submit(token, form)).status).toBe(302);
    const { db } = context.app.services;
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, `office-${salesEmail}`));
    return registration?.id ?? 0;
  }

  async function approvedSeller(salesEmail: string) {
    const registrationId = await submittedSeller(salesEmail);
    const { db } = context.app.services;
    const approved = await staff.request(`/staff/registrations/${registrationId}`, {
      form: { intent: "approve", confirm: "yes" },
    });
    expect(approved.status).toBe(302);
    const [user] = await db.select().from(users).where(eq(users.email, salesEmail));
    const [subscription] = await db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.organizationId, user?.organizationId ?? 0));
    return { user, subscription, registrationId };
  }

  it("creates the Stripe subscription with the trial and the configured prices", async () => {
    const { subscription } = await approvedSeller("stripe-approve@review.example");
    expect(subscription).toMatchObject({ provider: "stripe", status: "trialing", subscriptionId: "sub_123" });
    const created = captured.find((request) => request.url.endsWith("/v1/subscriptions"));
    const form = new URLSearchParams(created?.body);
    expect(form.get("trial_period_days")).toBe("7");
    expect(form.get("items[0][price]")).toBe("price_year");
    expect(form.get("customer")).toBe("cus_123");
    expect(captured.some((request) => request.url.endsWith("/v1/invoiceitems"))).toBe(true);
  });

  it("links staff to the seller's customer and subscription in Stripe's dashboard, in test mode", async () => {
    const { registrationId } = await approvedSeller("stripe-links@review.example");
    const page = cardProviderTerms(await (await staff.request(`/staff/registrations/${registrationId}`)).text());
    expect(Object.fromEntries(page.terms)).toEqual({
      Customer: {
        text: "cus_123 in Stripe's dashboard (test mode)",
        links: ["https://dashboard.stripe.com/test/customers/cus_123"],
      },
      Subscription: {
        text: "sub_123 in Stripe's dashboard (test mode)",
        links: ["https://dashboard.stripe.com/test/subscriptions/sub_123"],
      },
      "Subscription status": { text: "Free trial", links: [] },
    });
    expect(page.text).not.toContain("test card provider");
  });

  it("shows a seller not yet approved with its Stripe customer and no subscription", async () => {
    const registrationId = await submittedSeller("stripe-waiting@review.example");
    const page = cardProviderTerms(await (await staff.request(`/staff/registrations/${registrationId}`)).text());
    expect(page.terms.get("Customer")?.links).toEqual(["https://dashboard.stripe.com/test/customers/cus_123"]);
    expect(page.terms.get("Subscription")).toEqual({ text: "None", links: [] });
    expect(page.terms.get("Subscription status")).toEqual({ text: "None", links: [] });
  });

  it("keeps the approval when the subscription cannot start, and shows the problem", async () => {
    stripe.use(
      http.post("https://api.stripe.com/v1/subscriptions", () =>
        HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 }),
      ),
    );
    const { user, subscription } = await approvedSeller("stripe-outage@review.example");
    stripe.resetHandlers();
    expect(user?.role).toBe(3);
    expect(subscription?.status).toBe("failed");
    expect(subscription?.failure).toContain("Something went wrong");
  });
});
