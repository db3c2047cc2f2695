import { eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  keyPersonWorkExperiences,
  registrationContacts,
  registrations,
  registrationWcbs,
  sellerRegistrations,
} from "~db/schema";
import type { CapturedRequest } from "../../../tests/mocks/providers";
import { stripeHandlers } from "../../../tests/mocks/stripe";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { NEXT_YEAR } from "../../../tests/support/seller-registration-body";
import { databaseKinds } from "../../../tests/support/test-database";

// Step 5 for sellers in the browser's shape, without JavaScript: form posts to the seller page,
// intent buttons included, with the offline test card provider and with Stripe (faked at the edge).

const INCOMPLETE = "Please ensure all required fields are filled in.";
const NO_SERVICE = "Please select at least one service category.";

describe.each(databaseKinds)("the seller registration form on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  beforeAll(async () => {
    context = await startSellerFormApp(kind);
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  it("shows the ten sections, the notes, the fee table and the test card fields", async () => {
    const token = await context.sellerToken();
    const response = await fetch(`${context.app.baseURL}/signup/seller-registration/${token}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const heading of [
      "1.0 General",
      "2.0 Safety Program Information",
      "3.0 Safety / Certifications",
      "4.0 Insurance &amp; WCB",
      "5.0 Primary Industry",
      "6.0 Service Areas",
      "7.0 Service Categories",
      "8.0 Key Personnel",
      "9.0 Feedback",
      "10.0 Payment",
    ]) {
      expectIn(html, heading);
    }
    expect(html.match(/preference may be given to sellers with complete information/g)).toHaveLength(3);
    expectIn(html, "additional insured");
    for (const amount of ["$0.00", "$200.00", "$7.00", "$10.35", "$217.35"]) expectIn(html, amount);
    expectIn(html, "Visa, Mastercard and American Express");
    expectIn(html, "No charge is taken today.");
    expectIn(html, "+ Add WCB");
    expectIn(html, "+ Add Operations Contact");
    expectIn(html, `<option value="${new Date().getUTCFullYear()}">`);
    expectIn(html, '<option value="1950">1950</option>');
    expectNotIn(html, '<option value="1949">');
  });

  it("adds and removes blocks without JavaScript, keeping what was typed and writing nothing", async () => {
    const token = await context.sellerToken();
    const before = await context.registrationCount();
    const added = await context.submit(
      token,
      context.completeForm({
        __intent__: JSON.stringify({ type: "insert", payload: { name: "salesContact.certifications" } }),
        "salesContact.certifications[0].certification_name": "WHMIS",
      }),
    );
    expect(added.status).toBe(200);
    const html = await added.text();
    expectIn(html, "Certifications 2");
    expectIn(html, 'value="Roughneck Services Ltd."');
    expectIn(html, "Big Rig Co");
    // The card number is never sent back.
    expectNotIn(html, `value="4242 4242 4242 4242"`);
    expectNotIn(html, "Error!");

    const shown = await context.submit(
      token,
      context.completeForm({
        __intent__: JSON.stringify({
          type: "update",
          payload: { name: "operations_contact_added", value: "yes" },
        }),
      }),
    );
    expect(shown.status).toBe(200);
    expectIn(await shown.text(), "Remove Operations Contact");

    const removed = await context.submit(
      token,
      context.completeForm({ __intent__: JSON.stringify({ type: "remove", payload: { name: "wcbs", index: 0 } }) }),
    );
    expect(removed.status).toBe(200);
    const afterRemove = await removed.text();
    expectNotIn(afterRemove, 'value="1234567"');
    expect(await context.registrationCount()).toBe(before);
  });

  it("answers an empty form with 400, every message and nothing written", async () => {
    const token = await context.sellerToken();
    const before = await context.registrationCount();
    const response = await context.submit(token, new URLSearchParams({ stripe_payment_token: "" }));
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      "Error!",
      INCOMPLETE,
      NO_SERVICE,
      "Please enter the organization name",
      "Please select the commercial general liability coverage",
      "Please enter the commercial general liability expiry date",
      "Please enter an experience summary",
      "Please enter the card number",
      "Please enter the expiry month (MM)",
      "Please enter the expiry year (YY)",
      "Please enter the CVC",
    ]) {
      expectIn(html, message);
    }
    expect(await context.registrationCount()).toBe(before);
  });

  it("applies the seller rules at the server", async () => {
    const token = await context.sellerToken();
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const response = await context.submit(
      token,
      context.completeForm({
        services: null,
        "salesContact.confirm_email": "someone@else.example",
        sc_isnet_world: "yes",
        in_pollution: "$5,000,000 minimum",
        in_commercial_general_expiry: yesterday,
        "wcbs[1].state": "BC",
      }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      NO_SERVICE,
      "Emails don&#x27;t match.",
      "Please enter the ISNetworld expiry date",
      "Please enter the pollution liability expiry date",
      "Please choose a date from today onward",
      "Please enter the WCB number",
      "Please enter the WCB expiry date",
    ]) {
      expectIn(html, message);
    }
  });

  it("names the service rule alone when it is the only problem", async () => {
    const token = await context.sellerToken();
    const response = await context.submit(token, context.completeForm({ services: null }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expectIn(html, NO_SERVICE);
    expectNotIn(html, INCOMPLETE);
  });

  it("shows a declined card in the payment area with focus on the card number, writing nothing", async () => {
    const token = await context.sellerToken();
    const before = await context.registrationCount();
    const declined = await context.submit(token, context.completeForm({ card_number: "4000 0000 0000 0002" }));
    expect(declined.status).toBe(400);
    const html = await declined.text();
    expectIn(html, "Your card was declined.");
    expect(html).toMatch(
      /<input[^>]*autofocus=""[^>]*name="card_number"|<input[^>]*name="card_number"[^>]*autofocus=""/,
    );
    expectNotIn(html, `value="4000 0000 0000 0002"`);
    expect(await context.registrationCount()).toBe(before);

    // The token is still good: the right card completes the registration.
    const accepted = await context.submit(token, context.completeForm());
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/signup/seller-registration-complete");
  });

  it("writes the registration in one go: card saved, only complete WCB entries and items, no un-added contact", async () => {
    const token = await context.sellerToken();
    const form = context.completeForm({ email: "one-go@roughneck.example" });
    const response = await context.submit(token, form);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/signup/seller-registration-complete");
    const { db } = context.app.services;
    const [registration] = await db
      .select()
      .from(registrations)
      .where(eq(registrations.email, "one-go@roughneck.example"))
      .orderBy(registrations.id);
    expect(registration).toBeDefined();
    const registrationId = registration?.id ?? 0;
    const [seller] = await db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registrationId));
    expect(seller?.paymentStatus).toBe("card_saved");
    expect(seller?.cardLast4).toBe("4242");
    expect(seller?.scComplyWorksExpiry).toBe(`${NEXT_YEAR}-01-31`);
    expect(seller?.scSecorExpiry).toBeNull();
    expect(seller?.inAircraft).toBe("No");
    expect(seller?.inAircraftExpiry).toBeNull();
    const wcbs = await db.select().from(registrationWcbs).where(eq(registrationWcbs.registrationId, registrationId));
    expect(wcbs.map((wcb) => wcb.number)).toEqual(["1234567"]);
    const contacts = await db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, registrationId));
    expect(contacts.map((contact) => contact.role)).toEqual(["sales"]);
    const work = await db
      .select()
      .from(keyPersonWorkExperiences)
      .where(eq(keyPersonWorkExperiences.contactId, contacts[0]?.id ?? 0));
    expect(work.map((item) => item.companyName)).toEqual(["Big Rig Co"]);

    // Sent again (a double click): the same completion, nothing more written.
    const again = await context.submit(token, form);
    expect([302, 404]).toContain(again.status);
    const count = await db.select().from(registrations).where(eq(registrations.email, "one-go@roughneck.example"));
    expect(count).toHaveLength(1);
  });
});

describe("the seller registration form with Stripe configured", () => {
  const captured: CapturedRequest[] = [];
  const stripe = setupServer(...stripeHandlers(captured));
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  beforeAll(async () => {
    stripe.listen({ onUnhandledRequest: "bypass" });
    context = await startSellerFormApp("pglite", {
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
    });
  });
  afterAll(async () => {
    await context?.app.stop();
    stripe.close();
  });

  it("has no card fields of its own: Stripe.js's fields, or Stripe Checkout without JavaScript", async () => {
    const token = await context.sellerToken();
    const html = await (await fetch(`${context.app.baseURL}/signup/seller-registration/${token}`)).text();
    expectNotIn(html, 'name="card_number"');
    expectIn(html, "Stripe&#x27;s secure payment page");
  });

  it("sends a browser without JavaScript to Stripe Checkout, keeping the registration as awaiting payment", async () => {
    const token = await context.sellerToken();
    const form = context.completeForm({ card_number: null, card_exp_month: null, card_exp_year: null, card_cvc: null });
    const response = await context.submit(token, form);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [seller] = await context.app.services.db
      .select({ paymentStatus: sellerRegistrations.paymentStatus })
      .from(sellerRegistrations)
      .orderBy(sellerRegistrations.registrationId);
    expect(seller?.paymentStatus).toBe("awaiting_payment");
    const checkout = captured.find((request) => request.url.endsWith("/v1/checkout/sessions"));
    expect(checkout?.body).toContain("mode=setup");
  });

  it("completes the registration when the applicant comes back from Checkout with the card saved", async () => {
    const returnPage = (query: string) =>
      fetch(`${context.app.baseURL}/signup/seller-registration-checkout${query}`, { redirect: "manual" });
    const open = await returnPage("?session_id=cs_test_123");
    expect(open.status).toBe(200);
    expectIn(await open.text(), "Your card has not been saved yet.");
    expectIn(await (await returnPage("?cancelled=1")).text(), "You left the payment page");
    expectIn(await (await returnPage("?session_id=cs_nobody")).text(), "We could not find this payment.");

    stripe.use(
      http.get("https://api.stripe.com/v1/checkout/sessions/:id", () =>
        HttpResponse.json({
          id: "cs_test_123",
          object: "checkout.session",
          status: "complete",
          customer: "cus_123",
          setup_intent: {
            id: "seti_123",
            status: "succeeded",
            payment_method: { id: "pm_456", card: { brand: "visa", last4: "4242" } },
          },
        }),
      ),
    );
    const complete = await returnPage("?session_id=cs_test_123");
    expect(complete.status).toBe(302);
    expect(complete.headers.get("location")).toBe("/signup/seller-registration-complete");
    const [seller] = await context.app.services.db
      .select({ paymentStatus: sellerRegistrations.paymentStatus })
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.checkoutSessionId, "cs_test_123"));
    expect(seller?.paymentStatus).toBe("card_saved");
    stripe.resetHandlers();
  });

  it("saves the card from a Stripe.js token and completes", async () => {
    const token = await context.sellerToken();
    const form = context.completeForm({
      card_number: null,
      card_exp_month: null,
      card_exp_year: null,
      card_cvc: null,
      stripe_payment_token: "tok_visa",
    });
    const response = await context.submit(token, form);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/signup/seller-registration-complete");
  });

  it("sends its Content-Security-Policy with Stripe's sources", async () => {
    const response = await fetch(`${context.app.baseURL}/signup`);
    expect(response.headers.get("content-security-policy")).toContain("https://js.stripe.com");
  });
});
