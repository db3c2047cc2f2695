import { eq } from "drizzle-orm";
import type { AppServices } from "~/server/app-context";
import { sellerRegistrations, sellerSubscriptions } from "~db/schema";
import type { SubscriptionStatus } from "~db/subscription-statuses";
import { stripeDashboardUrl, stripeModeOf } from "./stripe-dashboard";

// Where staff find a seller at the card provider (the customer saved at registration, the
// subscription started at approval): a link into Stripe's dashboard for Stripe's ids, the id alone
// for the built-in test card provider's.

/** One of the provider's ids: a link when it is Stripe's and Stripe is configured here. */
export type ProviderReference = {
  id: string;
  provider: "stripe" | "test";
  /** Stripe's dashboard (test or live, as this server's key); null for the test card provider or without a key. */
  dashboardUrl: string | null;
  /** The dashboard's test mode (a `sk_test_` key). */
  testMode: boolean;
};

export type SellerProviderReferences = {
  customer: ProviderReference | null;
  subscription: ProviderReference | null;
  /** The subscription's status as stored (null: none started yet). */
  subscriptionStatus: SubscriptionStatus | null;
};

/** The seller registration's customer and, once approved, its organization's subscription. */
export async function sellerProviderReferences(
  services: Pick<AppServices, "db" | "env">,
  registrationId: number,
  organizationId: number | null,
): Promise<SellerProviderReferences> {
  const { db, env } = services;
  const [[card], [subscription]] = await Promise.all([
    db
      .select({ provider: sellerRegistrations.paymentProvider, customerId: sellerRegistrations.paymentCustomerId })
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registrationId)),
    organizationId
      ? db
          .select({
            provider: sellerSubscriptions.provider,
            subscriptionId: sellerSubscriptions.subscriptionId,
            status: sellerSubscriptions.status,
          })
          .from(sellerSubscriptions)
          .where(eq(sellerSubscriptions.organizationId, organizationId))
      : [],
  ]);
  const mode = stripeModeOf(env.STRIPE_SECRET_KEY);
  const reference = (
    provider: "stripe" | "test",
    object: "customers" | "subscriptions",
    id: string | null,
  ): ProviderReference | null =>
    id
      ? {
          id,
          provider,
          dashboardUrl: provider === "stripe" && mode ? stripeDashboardUrl(mode, object, id) : null,
          testMode: mode === "test",
        }
      : null;
  return {
    customer: card ? reference(card.provider, "customers", card.customerId) : null,
    subscription: subscription ? reference(subscription.provider, "subscriptions", subscription.subscriptionId) : null,
    subscriptionStatus: subscription?.status ?? null,
  };
}
