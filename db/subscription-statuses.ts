// A seller subscription's statuses (issue 19), shared by the schema and the pages (no database code
// here, so the browser bundle can use it).

export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "cancelled", "failed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
