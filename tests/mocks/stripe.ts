import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createMessaging } from "~/messaging/messaging.server";
import { createStripePayments } from "~/payments/stripe.server";
import { readEnvironment } from "~/platform/env.server";
import type { AppServices } from "~/server/app-context";
import type { Database } from "~db/database.server";
import type { CapturedRequest } from "./providers";

// A fake of the few Stripe endpoints the payments adapter calls, with Stripe's test tokens' behaviour
// (https://docs.stripe.com/testing): tok_chargeDeclined and pm_card_chargeDeclined are declined;
// tok_mastercard and pm_card_mastercard are a Mastercard ending 4444, other cards a Visa ending 4242.

const unknownToken = (token: string | null) => ({
  error: {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such token: '${token}'`,
    param: "source",
  },
});

const declined = {
  error: {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    param: "",
  },
};

/**
 * The URL with its query form-encoded (`expand%5B0%5D=…`), whichever way the client wrote the brackets
 * (Stripe's SDK leaves them literal): assertions compare one spelling.
 */
export function formEncodedUrl(address: string): string {
  const url = new URL(address);
  url.search = url.searchParams.toString();
  return url.href;
}

const missing = (kind: string, id: unknown) => ({
  error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'`, param: "id" },
});

/** Prices in Stripe's shape: the ones spec section 9's fee table is configured with. */
const yearly = (id: string) => ({
  id,
  object: "price",
  active: true,
  currency: "cad",
  type: "recurring",
  recurring: { interval: "year", interval_count: 1, usage_type: "licensed" },
  unit_amount: 20_000,
  tax_behavior: "exclusive",
});
export const STRIPE_PRICES: Record<string, Record<string, unknown>> = {
  price_year: yearly("price_year"),
  price_yearly: yearly("price_yearly"),
  price_fee: {
    id: "price_fee",
    object: "price",
    active: true,
    currency: "cad",
    type: "one_time",
    recurring: null,
    unit_amount: 700,
    tax_behavior: "exclusive",
  },
};
export const STRIPE_TAX_RATES: Record<string, Record<string, unknown>> = {
  txr_gst: {
    id: "txr_gst",
    object: "tax_rate",
    active: true,
    display_name: "GST",
    jurisdiction: "AB",
    country: "CA",
    percentage: 5,
    inclusive: false,
    tax_type: "gst",
  },
};

export function stripeHandlers(captured: CapturedRequest[]) {
  const capture = async (request: Request) => {
    const body = request.method === "GET" ? "" : await request.text();
    captured.push({ url: formEncodedUrl(request.url), headers: request.headers, body });
    return new URLSearchParams(body);
  };
  return [
    http.post("https://api.stripe.com/v1/customers", async ({ request }) => {
      const form = await capture(request);
      const source = form.get("source");
      if (source === "tok_chargeDeclined") return HttpResponse.json(declined, { status: 402 });
      if (source === "tok_unknown") return HttpResponse.json(unknownToken(source), { status: 400 });
      if (form.get("email") === "outage@example.com") {
        return HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 });
      }
      return HttpResponse.json({
        id: "cus_123",
        object: "customer",
        default_source: source ? { id: "card_123", object: "card", brand: "Visa", last4: "4242" } : null,
      });
    }),
    // A new card for an existing customer (replacing the card).
    http.post("https://api.stripe.com/v1/customers/:id/sources", async ({ request, params }) => {
      const form = await capture(request);
      const source = form.get("source");
      if (source === "tok_chargeDeclined") return HttpResponse.json(declined, { status: 402 });
      if (source === "tok_unknown") return HttpResponse.json(unknownToken(source), { status: 400 });
      const card =
        source === "tok_mastercard"
          ? { id: "card_mastercard", brand: "MasterCard", last4: "4444" }
          : { id: "card_456", brand: "Visa", last4: "4242" };
      return HttpResponse.json({ ...card, object: "card", customer: params.id });
    }),
    http.post("https://api.stripe.com/v1/subscriptions/:id", async ({ request, params }) => {
      const form = await capture(request);
      // sub_past_due: a renewal failed, its invoice is open (paid with the new card).
      const pastDue = params.id === "sub_past_due";
      return HttpResponse.json({
        id: params.id,
        object: "subscription",
        status: pastDue ? "past_due" : "trialing",
        latest_invoice: pastDue ? "in_overdue" : null,
        default_payment_method: form.get("default_payment_method"),
      });
    }),
    http.post("https://api.stripe.com/v1/invoices/:id/pay", async ({ request, params }) => {
      await capture(request);
      return HttpResponse.json({ id: params.id, object: "invoice", status: "paid" });
    }),
    http.post("https://api.stripe.com/v1/customers/:id", async ({ request, params }) => {
      await capture(request);
      return HttpResponse.json({ id: params.id, object: "customer" });
    }),
    http.delete("https://api.stripe.com/v1/customers/:id", async ({ request, params }) => {
      await capture(request);
      return HttpResponse.json({ id: params.id, object: "customer", deleted: true });
    }),
    http.post("https://api.stripe.com/v1/setup_intents", async ({ request }) => {
      const form = await capture(request);
      if (form.get("payment_method") === "pm_card_chargeDeclined") {
        return HttpResponse.json(
          { error: { ...declined.error, setup_intent: { id: "seti_declined", status: "requires_payment_method" } } },
          { status: 402 },
        );
      }
      const paymentMethod =
        form.get("payment_method") === "pm_card_mastercard"
          ? { id: "pm_mastercard", card: { brand: "mastercard", last4: "4444" } }
          : { id: "pm_123", card: { brand: "visa", last4: "4242" } };
      return HttpResponse.json({
        id: "seti_123",
        object: "setup_intent",
        status: "succeeded",
        customer: form.get("customer"),
        payment_method: { ...paymentMethod, object: "payment_method" },
      });
    }),
    http.post("https://api.stripe.com/v1/checkout/sessions", async ({ request }) => {
      const form = await capture(request);
      return HttpResponse.json({
        id: "cs_test_123",
        object: "checkout.session",
        url: "https://checkout.stripe.com/c/pay/cs_test_123",
        status: "open",
        customer: form.get("customer"),
        setup_intent: "seti_123",
      });
    }),
    http.post("https://api.stripe.com/v1/subscriptions", async ({ request }) => {
      const form = await capture(request);
      if (form.get("customer") === "cus_outage") {
        return HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 });
      }
      const trialDays = Number(form.get("trial_period_days") ?? 0);
      return HttpResponse.json({
        id: "sub_123",
        object: "subscription",
        status: trialDays > 0 ? "trialing" : "active",
        trial_end: trialDays > 0 ? Math.floor(Date.UTC(2030, 0, 8) / 1000) : null,
      });
    }),
    http.post("https://api.stripe.com/v1/invoiceitems", async ({ request }) => {
      await capture(request);
      return HttpResponse.json({ id: "ii_123", object: "invoiceitem" });
    }),
    // The prices and tax rate the start checks against fees.ts (not captured: read once at start).
    http.get("https://api.stripe.com/v1/prices/:id", ({ params }) => {
      const price = STRIPE_PRICES[String(params.id)];
      return price ? HttpResponse.json(price) : HttpResponse.json(missing("price", params.id), { status: 404 });
    }),
    http.get("https://api.stripe.com/v1/tax_rates/:id", ({ params }) => {
      const taxRate = STRIPE_TAX_RATES[String(params.id)];
      return taxRate ? HttpResponse.json(taxRate) : HttpResponse.json(missing("tax_rate", params.id), { status: 404 });
    }),
    http.get("https://api.stripe.com/v1/checkout/sessions/:id", async ({ request, params }) => {
      await capture(request);
      const complete = params.id === "cs_test_complete";
      return HttpResponse.json({
        id: params.id,
        object: "checkout.session",
        url: null,
        status: complete ? "complete" : params.id === "cs_test_expired" ? "expired" : "open",
        customer: "cus_123",
        setup_intent: complete
          ? {
              id: "seti_123",
              status: "succeeded",
              payment_method: { id: "pm_456", card: { brand: "mastercard", last4: "4444" } },
            }
          : "seti_123",
      });
    }),
  ];
}

/**
 * The fake Stripe for a whole test file: listening from the first test to the last (requests to
 * anything else pass through), its captured requests and extra handlers cleared after each test.
 */
export function fakeStripeForFile() {
  const captured: CapturedRequest[] = [];
  const stripe = setupServer(...stripeHandlers(captured));
  beforeAll(() => stripe.listen({ onUnhandledRequest: "bypass" }));
  afterEach(() => {
    captured.length = 0;
    stripe.resetHandlers();
  });
  afterAll(() => stripe.close());
  return { stripe, captured };
}

/** The services a registration module needs, on a test database, with Stripe (test keys) as the card provider. */
export function servicesWithStripe(db: Database): AppServices {
  const env = readEnvironment({
    PGLITE_DIR: "memory://",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
  });
  return {
    env,
    db,
    messaging: createMessaging(env, db),
    payments: createStripePayments({ secretKey: "sk_test_abc", publishableKey: "pk_test_abc" }),
  } as unknown as AppServices;
}
