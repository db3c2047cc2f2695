// Links from staff pages to a seller's objects in Stripe's dashboard, so a question about a charge
// can be answered there. A test-mode key's objects live under /test/ in the dashboard.

export type StripeMode = "test" | "live";

/** The mode of a Stripe secret (or restricted) key, by its prefix; undefined without one. */
export function stripeModeOf(secretKey: string | undefined): StripeMode | undefined {
  if (!secretKey) return undefined;
  return /^[rs]k_test_/.test(secretKey) ? "test" : "live";
}

export type StripeObject = "customers" | "subscriptions";

/** `https://dashboard.stripe.com[/test]/customers/cus_…` or `…/subscriptions/sub_…`. */
export function stripeDashboardUrl(mode: StripeMode, object: StripeObject, id: string): string {
  return `https://dashboard.stripe.com${mode === "test" ? "/test" : ""}/${object}/${encodeURIComponent(id)}`;
}
