import { eq } from "drizzle-orm";
import { SELLER_FEES_TOTAL, SELLER_TRIAL_DAYS } from "~/payments/fees";
import { CardError, PaymentProviderError } from "~/payments/payments";
import type { AppServices } from "~/platform/app-context";
import type { Database } from "~db/database.server";
import { sellerRegistrations, sellerSubscriptions } from "~db/schema";

// The seller's yearly subscription, started when staff approve (spec section 9's fees, issue 8): on
// the card saved at registration, after the free trial. It runs after the approval's transaction:
// a refused card or an outage is recorded as a failed subscription, and the approval stands.

const NO_CARD = "No card was saved with the registration.";
const OTHER_PROVIDER = "The card was saved with another card provider than the one now configured.";

export async function startSellerSubscription(
  services: AppServices,
  organizationId: number,
  registrationId: number,
): Promise<void> {
  const { db, payments } = services;
  const [seller] = await db
    .select()
    .from(sellerRegistrations)
    .where(eq(sellerRegistrations.registrationId, registrationId));
  const record = (
    values: Partial<typeof sellerSubscriptions.$inferInsert> & { status: "trialing" | "active" | "failed" },
  ) =>
    db
      .insert(sellerSubscriptions)
      .values({
        organizationId,
        provider: payments.provider,
        amountCents: SELLER_FEES_TOTAL,
        cardBrand: seller?.cardBrand ?? null,
        cardLast4: seller?.cardLast4 ?? null,
        ...values,
      })
      // Started once: a second approval attempt cannot happen, and a retry keeps the first answer.
      .onConflictDoNothing();

  if (seller?.paymentStatus !== "card_saved" || !seller.paymentCustomerId || !seller.paymentMethodId) {
    await record({ status: "failed", failure: NO_CARD });
    return;
  }
  if (seller.paymentProvider !== payments.provider) {
    await record({ status: "failed", failure: OTHER_PROVIDER });
    return;
  }
  try {
    const started = await payments.startSubscription({
      customerId: seller.paymentCustomerId,
      paymentMethodId: seller.paymentMethodId,
      trialDays: SELLER_TRIAL_DAYS,
      idempotencyKey: `organization-${organizationId}`,
    });
    await record({ status: started.status, subscriptionId: started.subscriptionId, trialEndsAt: started.trialEndsAt });
  } catch (error) {
    if (!(error instanceof CardError || error instanceof PaymentProviderError)) throw error;
    console.error(`starting the subscription of organization ${organizationId} failed:`, error.message);
    await record({ status: "failed", failure: error.message });
  }
}

/** The organization's subscription, for its account page and for staff. */
export async function sellerSubscriptionOf(db: Database, organizationId: number) {
  const [subscription] = await db
    .select()
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId));
  return subscription;
}
