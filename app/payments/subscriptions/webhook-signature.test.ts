import { describe, expect, it } from "vitest";
import { signStripePayload, verifyStripeEvent } from "./webhook-signature.server";

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
const raw = (text: string) => Buffer.from(text, "utf8");
const secondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) - seconds;

describe("Stripe webhook signatures", () => {
  it("accepts a payload signed with the endpoint's secret and gives its event", () => {
    const header = signStripePayload(payload, SECRET);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyStripeEvent(raw(payload), header, SECRET)).toMatchObject({
      id: "evt_1",
      type: "customer.subscription.trial_will_end",
    });
  });

  it("refuses a body changed after signing, even by whitespace", () => {
    const header = signStripePayload(payload, SECRET);
    expect(verifyStripeEvent(raw(payload.replace('"trialing"', '"active"')), header, SECRET)).toBeNull();
    expect(verifyStripeEvent(raw(JSON.stringify(JSON.parse(payload))), header, SECRET)).toBeNull();
  });

  it("refuses a payload signed with another secret, and a header that is no signature", () => {
    expect(verifyStripeEvent(raw(payload), signStripePayload(payload, "whsec_other"), SECRET)).toBeNull();
    expect(verifyStripeEvent(raw(payload), "", SECRET)).toBeNull();
    expect(verifyStripeEvent(raw(payload), "t=1,v1=nonsense", SECRET)).toBeNull();
  });

  it("refuses a stale signature (a replay) and accepts one within Stripe's 5-minute tolerance", () => {
    expect(verifyStripeEvent(raw(payload), signStripePayload(payload, SECRET, secondsAgo(240)), SECRET)?.id).toBe(
      "evt_1",
    );
    expect(verifyStripeEvent(raw(payload), signStripePayload(payload, SECRET, secondsAgo(360)), SECRET)).toBeNull();
  });
});
