import { describe, expect, it } from "vitest";
import { stripeDashboardUrl, stripeModeOf } from "./stripe-dashboard";

describe("links to Stripe's dashboard", () => {
  it("puts a test-mode key's objects under /test/", () => {
    expect(stripeDashboardUrl("test", "customers", "cus_123")).toBe(
      "https://dashboard.stripe.com/test/customers/cus_123",
    );
    expect(stripeDashboardUrl("live", "subscriptions", "sub_9")).toBe(
      "https://dashboard.stripe.com/subscriptions/sub_9",
    );
  });

  it("tells the mode by the secret key's prefix", () => {
    expect(stripeModeOf("sk_test_abc")).toBe("test");
    expect(stripeModeOf("rk_test_abc")).toBe("test");
    expect(stripeModeOf("sk_live_abc")).toBe("live");
    expect(stripeModeOf(undefined)).toBeUndefined();
  });
});
