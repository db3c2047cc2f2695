import { describe, expect, it } from "vitest";
import {
  signStripeWebhookPayload,
  verifyStripeWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
} from "./stripe-webhook-signature.server";

const SECRET = "whsec_test_secret";
// An event in Stripe's shape (https://docs.stripe.com/api/events/object).
const payload = JSON.stringify(
  {
    id: "evt_1",
    object: "event",
    api_version: "2026-10-28.endive",
    created: 1_800_000_000,
    type: "customer.subscription.trial_will_end",
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: { id: "sub_123", object: "subscription", status: "trialing" } },
  },
  null,
  2,
);

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    return (error as Error).message;
  }
  throw new Error("the payload was accepted");
};

describe("Stripe webhook signatures", () => {
  it("accepts a payload signed with the endpoint's secret and gives its event", () => {
    const header = signStripeWebhookPayload(payload, SECRET);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = verifyStripeWebhook(payload, header, SECRET);
    expect(event).toMatchObject({ id: "evt_1", type: "customer.subscription.trial_will_end" });
    // The raw bytes as received work the same.
    expect(verifyStripeWebhook(new TextEncoder().encode(payload), header, SECRET).id).toBe("evt_1");
  });

  it("refuses a body changed after signing, even by whitespace", () => {
    const header = signStripeWebhookPayload(payload, SECRET);
    refusal(() => verifyStripeWebhook(payload.replace('"trialing"', '"active"'), header, SECRET));
    refusal(() => verifyStripeWebhook(JSON.stringify(JSON.parse(payload)), header, SECRET));
  });

  it("refuses a payload signed with another secret, and one without a signature", () => {
    refusal(() => verifyStripeWebhook(payload, signStripeWebhookPayload(payload, "whsec_other"), SECRET));
    expect(refusal(() => verifyStripeWebhook(payload, null, SECRET))).toBe("No Stripe-Signature header");
    refusal(() => verifyStripeWebhook(payload, "t=1,v1=nonsense", SECRET));
  });

  it("refuses a stale signature (a replay) and accepts one within the tolerance", () => {
    const signedAt = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
    const header = signStripeWebhookPayload(payload, SECRET, { timestamp: signedAt });
    const later = (seconds: number) => ({ now: new Date(signedAt.getTime() + seconds * 1000) });
    expect(verifyStripeWebhook(payload, header, SECRET, later(WEBHOOK_TOLERANCE_SECONDS - 1)).id).toBe("evt_1");
    expect(refusal(() => verifyStripeWebhook(payload, header, SECRET, later(WEBHOOK_TOLERANCE_SECONDS + 1)))).toMatch(
      /tolerance/i,
    );
  });
});
