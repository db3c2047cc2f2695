import { describe, expect, it } from "vitest";
import { stripeEvent } from "./fixtures/stripe-events";
import { eventReferences, type ProviderEvent } from "./provider-event";

// Which of the provider's ids an event names, for the seller column of /staff/payment-events: the
// same ids the lifecycle finds a subscription or a card by.

const ids = { subscription: "sub_ref", customer: "cus_ref", paymentMethod: "pm_ref" };
const references = (name: Parameters<typeof stripeEvent>[0]) =>
  eventReferences(stripeEvent(name, ids, { created: 1_900_000_000 }) as ProviderEvent);

describe("eventReferences", () => {
  it("names an invoice's subscription and customer", () => {
    expect(references("invoice.payment_failed")).toMatchObject({ subscriptionId: "sub_ref", customerId: "cus_ref" });
  });

  it("names a subscription event's subscription", () => {
    expect(references("customer.subscription.updated").subscriptionId).toBe("sub_ref");
  });

  it("names a card event's payment method", () => {
    expect(references("payment_method.automatically_updated")).toMatchObject({ paymentMethodId: "pm_ref" });
    expect(references("payment_method.detached").subscriptionId).toBeUndefined();
  });
});
