import { HttpResponse, http } from "msw";
import type { CapturedRequest } from "./providers";

// A fake of the few Stripe endpoints the payments adapter calls, with Stripe's test tokens' behaviour
// (https://docs.stripe.com/testing): tok_chargeDeclined and pm_card_chargeDeclined are declined.

const declined = {
  error: {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    param: "",
  },
};

export function stripeHandlers(captured: CapturedRequest[]) {
  const capture = async (request: Request) => {
    const body = request.method === "GET" ? "" : await request.text();
    captured.push({ url: request.url, headers: request.headers, body });
    return new URLSearchParams(body);
  };
  return [
    http.post("https://api.stripe.com/v1/customers", async ({ request }) => {
      const form = await capture(request);
      const source = form.get("source");
      if (source === "tok_chargeDeclined") return HttpResponse.json(declined, { status: 402 });
      if (source === "tok_unknown") {
        return HttpResponse.json(
          {
            error: {
              type: "invalid_request_error",
              code: "resource_missing",
              message: "No such token: 'tok_unknown'",
              param: "source",
            },
          },
          { status: 400 },
        );
      }
      if (form.get("email") === "outage@example.com") {
        return HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 });
      }
      return HttpResponse.json({
        id: "cus_123",
        object: "customer",
        default_source: source ? { id: "card_123", object: "card", brand: "Visa", last4: "4242" } : null,
      });
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
      return HttpResponse.json({
        id: "seti_123",
        object: "setup_intent",
        status: "succeeded",
        customer: form.get("customer"),
        payment_method: { id: "pm_123", object: "payment_method", card: { brand: "visa", last4: "4242" } },
      });
    }),
    http.post("https://api.stripe.com/v1/checkout/sessions", async ({ request }) => {
      await capture(request);
      return HttpResponse.json({
        id: "cs_test_123",
        object: "checkout.session",
        url: "https://checkout.stripe.com/c/pay/cs_test_123",
        status: "open",
        customer: "cus_123",
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
