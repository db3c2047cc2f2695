import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CapturedRequest } from "../../tests/mocks/providers";
import { stripeHandlers } from "../../tests/mocks/stripe";
import { CARD_NOT_SAVED, CardError, PaymentProviderError } from "./payments";
import { createStripePayments, stripeHostSettings, toPaymentError } from "./stripe.server";

const captured: CapturedRequest[] = [];
const server = setupServer(...stripeHandlers(captured));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  captured.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

// Without the SDK's retries, so that each test sees each request once (retries have their own test).
const keys = { secretKey: "sk_test_abc", publishableKey: "pk_test_abc", maxNetworkRetries: 0 };
const stripe = createStripePayments(keys);
const holder = { name: "Foothills Energy Ltd.", email: "office@foothills.example", reference: "seller-registration" };
const formOf = (index: number) => Object.fromEntries(new URLSearchParams(captured[index]?.body));

describe("Stripe payments adapter", () => {
  it("saves a card token as a new customer's card, with the secret key and an idempotency key", async () => {
    const card = await stripe.saveCard({ token: "tok_visa", holder, idempotencyKey: "k1" });
    expect(card).toEqual({ customerId: "cus_123", paymentMethodId: "card_123", brand: "Visa", last4: "4242" });
    expect(captured).toHaveLength(1);
    expect(captured[0]?.url).toBe("https://api.stripe.com/v1/customers");
    expect(captured[0]?.headers.get("authorization")).toBe("Bearer sk_test_abc");
    expect(captured[0]?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(captured[0]?.headers.get("idempotency-key")).toBe("customer-k1");
    expect(formOf(0)).toEqual({
      name: "Foothills Energy Ltd.",
      email: "office@foothills.example",
      "metadata[registration]": "seller-registration",
      source: "tok_visa",
      "expand[0]": "default_source",
    });
  });

  it("saves a PaymentMethod through a confirmed off-session SetupIntent and makes it the default", async () => {
    const card = await stripe.saveCard({ token: "pm_card_visa", holder, idempotencyKey: "k2" });
    expect(card).toEqual({ customerId: "cus_123", paymentMethodId: "pm_123", brand: "visa", last4: "4242" });
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers",
      "https://api.stripe.com/v1/setup_intents",
      "https://api.stripe.com/v1/customers/cus_123",
    ]);
    expect(formOf(1)).toMatchObject({
      customer: "cus_123",
      payment_method: "pm_card_visa",
      "allowed_payment_method_types[0]": "card",
      usage: "off_session",
      confirm: "true",
    });
    expect(formOf(2)).toEqual({ "invoice_settings[default_payment_method]": "pm_123" });
  });

  it("maps card_declined to a CardError with Stripe's message", async () => {
    const attempt = stripe.saveCard({ token: "tok_chargeDeclined", holder, idempotencyKey: "k3" });
    await expect(attempt).rejects.toThrow(CardError);
    await expect(stripe.saveCard({ token: "tok_chargeDeclined", holder, idempotencyKey: "k3" })).rejects.toMatchObject({
      message: "Your card was declined.",
      code: "card_declined",
    });
  });

  it("removes the customer again when the SetupIntent is declined", async () => {
    await expect(
      stripe.saveCard({ token: "pm_card_chargeDeclined", holder, idempotencyKey: "k4" }),
    ).rejects.toMatchObject({ name: "CardError", message: "Your card was declined." });
    expect(captured.at(-1)?.url).toBe("https://api.stripe.com/v1/customers/cus_123");
    expect(captured.at(-1)?.body).toBe("");
  });

  it("keeps the customer when the SetupIntent fails for Stripe's reasons: the retry's idempotency key gets it back", async () => {
    server.use(
      http.post("https://api.stripe.com/v1/setup_intents", async ({ request }) => {
        captured.push({ url: request.url, headers: request.headers, body: await request.text() });
        return HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 });
      }),
    );
    await expect(stripe.saveCard({ token: "pm_card_visa", holder, idempotencyKey: "k4b" })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers",
      "https://api.stripe.com/v1/setup_intents",
    ]);
    expect(captured.map((request) => request.headers.get("idempotency-key"))).toEqual(["customer-k4b", "setup-k4b"]);
  });

  it("deletes a customer that is of no use (a registration that lost its access token)", async () => {
    await stripe.discardCustomer("cus_123");
    expect(captured).toHaveLength(1);
    expect(captured[0]?.url).toBe("https://api.stripe.com/v1/customers/cus_123");
    expect(captured[0]?.body).toBe("");
  });

  it("treats an unknown token as the applicant's problem and anything else as the provider's", async () => {
    await expect(stripe.saveCard({ token: "tok_unknown", holder, idempotencyKey: "k5" })).rejects.toMatchObject({
      name: "CardError",
      message: CARD_NOT_SAVED,
    });
    await expect(stripe.saveCard({ token: "nonsense", holder, idempotencyKey: "k6" })).rejects.toThrow(CardError);
    await expect(
      stripe.saveCard({ token: "tok_visa", holder: { ...holder, email: "outage@example.com" }, idempotencyKey: "k7" }),
    ).rejects.toThrow(PaymentProviderError);
    const unreachable = createStripePayments(keys, async () => {
      throw new TypeError("fetch failed");
    });
    await expect(unreachable.saveCard({ token: "tok_visa", holder, idempotencyKey: "k8" })).rejects.toThrow(
      PaymentProviderError,
    );
  });

  it("creates a Checkout Session in setup mode for browsers without JavaScript and reads it on return", async () => {
    const checkout = await stripe.createSetupCheckout({
      holder,
      successUrl: "https://market.example/signup/seller-registration-complete?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://market.example/signup/seller-registration/abc",
      idempotencyKey: "k9",
    });
    expect(checkout).toEqual({
      sessionId: "cs_test_123",
      url: "https://checkout.stripe.com/c/pay/cs_test_123",
      customerId: "cus_123",
    });
    expect(formOf(1)).toMatchObject({
      mode: "setup",
      customer: "cus_123",
      "allowed_payment_method_types[0]": "card",
      client_reference_id: "seller-registration",
      success_url: "https://market.example/signup/seller-registration-complete?session_id={CHECKOUT_SESSION_ID}",
    });

    captured.length = 0;
    expect(await stripe.readSetupCheckout("cs_test_complete")).toEqual({
      status: "complete",
      card: { customerId: "cus_123", paymentMethodId: "pm_456", brand: "mastercard", last4: "4444" },
    });
    expect(captured[0]?.url).toBe(
      "https://api.stripe.com/v1/checkout/sessions/cs_test_complete?expand%5B0%5D=setup_intent.payment_method",
    );
    expect(await stripe.readSetupCheckout("cs_test_open")).toEqual({ status: "open" });
    expect(await stripe.readSetupCheckout("cs_test_expired")).toEqual({ status: "expired" });
  });

  it("starts the yearly subscription with the free trial, then adds the processing fee to its first invoice", async () => {
    const priced = createStripePayments({
      ...keys,
      prices: { yearlySubscription: "price_year", processingFee: "price_fee", gstTaxRate: "txr_gst" },
    });
    const started = await priced.startSubscription({
      customerId: "cus_123",
      paymentMethodId: "pm_123",
      trialDays: 7,
      idempotencyKey: "organization-9",
    });
    expect(started).toEqual({
      subscriptionId: "sub_123",
      status: "trialing",
      trialEndsAt: new Date(Date.UTC(2030, 0, 8)),
    });
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/subscriptions",
      "https://api.stripe.com/v1/invoiceitems",
    ]);
    expect(formOf(0)).toEqual({
      customer: "cus_123",
      default_payment_method: "pm_123",
      "items[0][price]": "price_year",
      trial_period_days: "7",
      "default_tax_rates[0]": "txr_gst",
      payment_behavior: "allow_incomplete",
    });
    expect(captured[0]?.headers.get("idempotency-key")).toBe("subscription-organization-9");
    expect(formOf(1)).toEqual({
      customer: "cus_123",
      subscription: "sub_123",
      "pricing[price]": "price_fee",
      "tax_rates[0]": "txr_gst",
    });
  });

  it("refuses to start a subscription without the price ids, and reports an outage as the provider's", async () => {
    const request = { customerId: "cus_123", paymentMethodId: "pm_123", trialDays: 7, idempotencyKey: "k" };
    await expect(stripe.startSubscription(request)).rejects.toBeInstanceOf(PaymentProviderError);
    expect(captured).toHaveLength(0);
    const priced = createStripePayments({
      ...keys,
      prices: { yearlySubscription: "price_year", processingFee: "price_fee" },
    });
    await expect(priced.startSubscription({ ...request, customerId: "cus_outage" })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it("replaces an existing customer's card with a token: a new source, made the default for invoices and the subscription", async () => {
    const card = await stripe.replaceCard({
      customerId: "cus_123",
      token: "tok_mastercard",
      subscriptionId: "sub_123",
      idempotencyKey: "r1",
    });
    expect(card).toEqual({
      customerId: "cus_123",
      paymentMethodId: "card_mastercard",
      brand: "MasterCard",
      last4: "4444",
    });
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers/cus_123/sources",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_123",
    ]);
    expect(formOf(0)).toEqual({ source: "tok_mastercard" });
    expect(formOf(1)).toEqual({
      default_source: "card_mastercard",
      "invoice_settings[default_payment_method]": "card_mastercard",
    });
    expect(formOf(2)).toEqual({ default_payment_method: "card_mastercard" });
    expect(captured.map((request) => request.headers.get("idempotency-key"))).toEqual([
      "source-r1",
      "default-r1",
      "subscription-default-r1",
    ]);
  });

  it("pays a past-due subscription's open invoice with the new card at once", async () => {
    await stripe.replaceCard({
      customerId: "cus_123",
      token: "tok_mastercard",
      subscriptionId: "sub_past_due",
      idempotencyKey: "r2",
    });
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers/cus_123/sources",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_past_due",
      "https://api.stripe.com/v1/invoices/in_overdue/pay",
    ]);
    expect(formOf(3)).toEqual({ payment_method: "card_mastercard" });
    expect(captured[3]?.headers.get("idempotency-key")).toBe("pay-overdue-r2");
  });

  it("replaces the card with a PaymentMethod through a confirmed off-session SetupIntent for the existing customer", async () => {
    const card = await stripe.replaceCard({ customerId: "cus_123", token: "pm_card_mastercard", idempotencyKey: "r2" });
    expect(card).toEqual({
      customerId: "cus_123",
      paymentMethodId: "pm_mastercard",
      brand: "mastercard",
      last4: "4444",
    });
    // No new customer, and without a subscription only the customer's default changes.
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/setup_intents",
      "https://api.stripe.com/v1/customers/cus_123",
    ]);
    expect(formOf(0)).toEqual({
      customer: "cus_123",
      payment_method: "pm_card_mastercard",
      "allowed_payment_method_types[0]": "card",
      usage: "off_session",
      confirm: "true",
      "expand[0]": "payment_method",
    });
    expect(formOf(1)).toEqual({ "invoice_settings[default_payment_method]": "pm_mastercard" });
  });

  it("leaves the customer, its default card and the subscription alone when the new card is declined", async () => {
    for (const token of ["tok_chargeDeclined", "pm_card_chargeDeclined"]) {
      captured.length = 0;
      await expect(
        stripe.replaceCard({ customerId: "cus_123", token, subscriptionId: "sub_123", idempotencyKey: token }),
      ).rejects.toMatchObject({ name: "CardError", message: "Your card was declined." });
      expect(captured).toHaveLength(1);
    }
    await expect(
      stripe.replaceCard({ customerId: "cus_123", token: "tok_unknown", idempotencyKey: "r3" }),
    ).rejects.toMatchObject({ name: "CardError", message: CARD_NOT_SAVED });
    await expect(
      stripe.replaceCard({ customerId: "cus_123", token: "nonsense", idempotencyKey: "r4" }),
    ).rejects.toThrow(CardError);
  });

  it("creates a setup-mode Checkout Session for an existing customer, and on return makes its card the subscription's", async () => {
    const checkout = await stripe.createCardUpdateCheckout({
      customerId: "cus_existing",
      reference: "organization-7",
      successUrl: "https://market.example/account/card/checkout?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://market.example/account/card/checkout?cancelled=1",
      idempotencyKey: "c1",
    });
    expect(checkout).toEqual({
      sessionId: "cs_test_123",
      url: "https://checkout.stripe.com/c/pay/cs_test_123",
      customerId: "cus_existing",
    });
    expect(captured.map((request) => request.url)).toEqual(["https://api.stripe.com/v1/checkout/sessions"]);
    expect(captured[0]?.headers.get("idempotency-key")).toBe("checkout-c1");
    expect(formOf(0)).toEqual({
      mode: "setup",
      customer: "cus_existing",
      "allowed_payment_method_types[0]": "card",
      client_reference_id: "organization-7",
      success_url: "https://market.example/account/card/checkout?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://market.example/account/card/checkout?cancelled=1",
      "metadata[card_update]": "organization-7",
    });

    captured.length = 0;
    expect(await stripe.readSetupCheckout("cs_test_complete", { subscriptionId: "sub_123" })).toEqual({
      status: "complete",
      card: { customerId: "cus_123", paymentMethodId: "pm_456", brand: "mastercard", last4: "4444" },
    });
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/checkout/sessions/cs_test_complete?expand%5B0%5D=setup_intent.payment_method",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_123",
    ]);
    expect(formOf(1)).toEqual({ "invoice_settings[default_payment_method]": "pm_456" });
    expect(formOf(2)).toEqual({ default_payment_method: "pm_456" });
  });

  it("retries a request Stripe failed on with the same idempotency key, so the retry cannot make a second of anything", async () => {
    let failures = 1;
    server.use(
      http.post("https://api.stripe.com/v1/setup_intents", async ({ request }) => {
        if (failures-- <= 0) return undefined;
        captured.push({ url: request.url, headers: request.headers, body: await request.text() });
        return HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 });
      }),
    );
    const retrying = createStripePayments({ ...keys, maxNetworkRetries: 1 });
    const card = await retrying.saveCard({ token: "pm_card_visa", holder, idempotencyKey: "k10" });
    expect(card).toEqual({ customerId: "cus_123", paymentMethodId: "pm_123", brand: "visa", last4: "4242" });
    expect(captured.map((request) => [new URL(request.url).pathname, request.headers.get("idempotency-key")])).toEqual([
      ["/v1/customers", "customer-k10"],
      ["/v1/setup_intents", "setup-k10"],
      ["/v1/setup_intents", "setup-k10"],
      ["/v1/customers/cus_123", "default-k10"],
    ]);
  });

  it("sends every request to STRIPE_API_URL's host, port and protocol when it is set (a fake Stripe on localhost)", async () => {
    const local: string[] = [];
    server.use(
      http.delete("http://127.0.0.1:12111/v1/customers/:id", ({ request, params }) => {
        local.push(request.url);
        return HttpResponse.json({ id: params.id, object: "customer", deleted: true });
      }),
    );
    await createStripePayments({ ...keys, apiUrl: "http://127.0.0.1:12111" }).discardCustomer("cus_local");
    expect(local).toEqual(["http://127.0.0.1:12111/v1/customers/cus_local"]);
    expect(captured).toHaveLength(0);
    expect(stripeHostSettings("https://stripe.internal.example")).toEqual({
      host: "stripe.internal.example",
      port: 443,
      protocol: "https",
    });
    expect(stripeHostSettings(undefined)).toEqual({});
  });

  it("maps the SDK's error classes to ours", () => {
    const raw = (extra: { code?: string; param?: string; statusCode?: number } = {}) => ({
      message: "detail",
      ...extra,
    });
    const { errors } = Stripe;
    expect(toPaymentError(new errors.StripeCardError(raw({ code: "expired_card" })), "x")).toMatchObject({
      name: "CardError",
      message: "detail",
      code: "expired_card",
    });
    for (const param of ["source", "payment_method"]) {
      expect(toPaymentError(new errors.StripeInvalidRequestError(raw({ param, statusCode: 400 })), "x")).toMatchObject({
        name: "CardError",
        message: CARD_NOT_SAVED,
      });
    }
    for (const error of [
      new errors.StripeInvalidRequestError(raw({ param: "customer", statusCode: 400 })),
      new errors.StripeConnectionError(raw()),
      new errors.StripeAPIError(raw({ statusCode: 500 })),
      new errors.StripeAuthenticationError(raw({ statusCode: 401 })),
      new errors.StripeRateLimitError(raw({ statusCode: 429 })),
      new Error("anything else"),
    ]) {
      expect(toPaymentError(error, "x")).toBeInstanceOf(PaymentProviderError);
    }
  });
});
