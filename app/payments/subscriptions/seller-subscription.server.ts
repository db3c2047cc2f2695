import { and, eq } from "drizzle-orm";
import { SELLER_FEES_TOTAL, SELLER_RENEWAL_CENTS, SELLER_TRIAL_DAYS } from "~/payments/fees";
import { CardError, PaymentProviderError } from "~/payments/payments";
import { logger } from "~/platform/logger.server";
import type { AppServices } from "~/server/app-context";
import type { Database } from "~db/database.server";
import { registrations, sellerRegistrations, sellerSubscriptions } from "~db/schema";
import type { SubscriptionStatus } from "~db/subscription-statuses";

// The seller's yearly subscription, started when staff approve (spec section 9's fees, issue 8): on
// the card saved at registration, after the free trial. It runs after the approval's transaction:
// a refused card or an outage is recorded as a failed subscription, and the approval stands. A
// failed subscription is tried again when the seller replaces the card (app/payments/card-replacement/),
// and a cancelled one is renewed then: the year charged at once, no second trial (issue 19).

const NO_CARD = "No card was saved with the registration.";
const OTHER_PROVIDER = "The card was saved with another card provider than the one now configured.";

type SellerCard = Pick<
  typeof sellerRegistrations.$inferSelect,
  "paymentStatus" | "paymentProvider" | "paymentCustomerId" | "paymentMethodId" | "cardBrand" | "cardLast4"
>;

const cardColumns = {
  paymentStatus: sellerRegistrations.paymentStatus,
  paymentProvider: sellerRegistrations.paymentProvider,
  paymentCustomerId: sellerRegistrations.paymentCustomerId,
  paymentMethodId: sellerRegistrations.paymentMethodId,
  cardBrand: sellerRegistrations.cardBrand,
  cardLast4: sellerRegistrations.cardLast4,
};

/**
 * Starts the subscription on the seller's card and records the answer. `replaceFailed` is for a
 * retry: a failed row is overwritten; otherwise (approval) an existing row is kept as it is.
 * `renewal`: a cancelled row is renewed; a refusal leaves it cancelled, with the reason.
 */
async function startAndRecord(
  services: AppServices,
  organizationId: number,
  seller: SellerCard | undefined,
  options: { idempotencyKey: string; replaceFailed: boolean; renewal?: boolean },
): Promise<SubscriptionStatus> {
  if (options.renewal) return renewAndRecord(services, organizationId, seller, options.idempotencyKey);
  const { db, payments } = services;
  const record = async (
    values: Pick<typeof sellerSubscriptions.$inferInsert, "subscriptionId" | "trialEndsAt" | "failure"> & {
      status: "trialing" | "active" | "failed";
    },
  ) => {
    const row = {
      provider: payments.provider,
      amountCents: SELLER_FEES_TOTAL,
      cardBrand: seller?.cardBrand ?? null,
      cardLast4: seller?.cardLast4 ?? null,
      subscriptionId: null,
      trialEndsAt: null,
      failure: null,
      ...values,
    };
    const insert = db.insert(sellerSubscriptions).values({ organizationId, ...row });
    await (options.replaceFailed
      ? insert.onConflictDoUpdate({
          target: sellerSubscriptions.organizationId,
          set: row,
          // Only a failed subscription is started again: a running one is never replaced.
          setWhere: eq(sellerSubscriptions.status, "failed"),
        })
      : // Started once: a second approval attempt cannot happen, and a retry keeps the first answer.
        insert.onConflictDoNothing());
    return values.status;
  };

  if (seller?.paymentStatus !== "card_saved" || !seller.paymentCustomerId || !seller.paymentMethodId) {
    return record({ status: "failed", failure: NO_CARD });
  }
  if (seller.paymentProvider !== payments.provider) return record({ status: "failed", failure: OTHER_PROVIDER });
  try {
    const started = await payments.startSubscription({
      customerId: seller.paymentCustomerId,
      paymentMethodId: seller.paymentMethodId,
      trialDays: SELLER_TRIAL_DAYS,
      idempotencyKey: options.idempotencyKey,
    });
    return record({ status: started.status, subscriptionId: started.subscriptionId, trialEndsAt: started.trialEndsAt });
  } catch (error) {
    if (!(error instanceof CardError || error instanceof PaymentProviderError)) throw error;
    logger.error({ err: error }, `starting the subscription of organization ${organizationId} failed`);
    return record({ status: "failed", failure: error.message });
  }
}

/**
 * A cancelled subscription renewed on the seller's new card: a new subscription at the provider,
 * charged at once. The row starts afresh (the old subscription's events no longer match it). A
 * refusal leaves the row cancelled with the provider's reason, so the seller stays held back.
 */
async function renewAndRecord(
  services: AppServices,
  organizationId: number,
  seller: SellerCard | undefined,
  idempotencyKey: string,
): Promise<SubscriptionStatus> {
  const { db, payments } = services;
  const stillCancelled = async (failure: string) => {
    await db
      .update(sellerSubscriptions)
      .set({ failure })
      .where(and(eq(sellerSubscriptions.organizationId, organizationId), eq(sellerSubscriptions.status, "cancelled")));
    return "cancelled" as const;
  };
  if (seller?.paymentStatus !== "card_saved" || !seller.paymentCustomerId || !seller.paymentMethodId) {
    return stillCancelled(NO_CARD);
  }
  if (seller.paymentProvider !== payments.provider) return stillCancelled(OTHER_PROVIDER);
  try {
    const started = await payments.startSubscription({
      customerId: seller.paymentCustomerId,
      paymentMethodId: seller.paymentMethodId,
      trialDays: 0,
      renewal: true,
      idempotencyKey,
    });
    const [renewed] = await db
      .update(sellerSubscriptions)
      .set({
        provider: payments.provider,
        subscriptionId: started.subscriptionId,
        status: started.status,
        trialEndsAt: null,
        pastDueSince: null,
        graceEndsAt: null,
        cancelledAt: null,
        lastEventAt: null,
        cardProblem: null,
        failure: null,
        amountCents: SELLER_RENEWAL_CENTS,
        cardBrand: seller.cardBrand,
        cardLast4: seller.cardLast4,
      })
      .where(and(eq(sellerSubscriptions.organizationId, organizationId), eq(sellerSubscriptions.status, "cancelled")))
      .returning({ status: sellerSubscriptions.status });
    return renewed?.status ?? "cancelled";
  } catch (error) {
    if (!(error instanceof CardError || error instanceof PaymentProviderError)) throw error;
    logger.error({ err: error }, `renewing the subscription of organization ${organizationId} failed`);
    return stillCancelled(error.message);
  }
}

/** At approval: the subscription on the card saved with the registration. */
export async function startSellerSubscription(
  services: AppServices,
  organizationId: number,
  registrationId: number,
): Promise<void> {
  const [seller] = await services.db
    .select(cardColumns)
    .from(sellerRegistrations)
    .where(eq(sellerRegistrations.registrationId, registrationId));
  await startAndRecord(services, organizationId, seller, {
    idempotencyKey: `organization-${organizationId}`,
    replaceFailed: false,
  });
}

/**
 * A failed (or missing) subscription started again on the organization's current card, after the
 * card was replaced, and a cancelled one renewed; a running subscription is left alone. The
 * idempotency key names the card, so a retry on a new card is a new request to the provider and a
 * double submit is the same one.
 */
export async function retrySellerSubscription(
  services: AppServices,
  organizationId: number,
): Promise<SubscriptionStatus> {
  const current = await sellerSubscriptionOf(services.db, organizationId);
  if (current && current.status !== "failed" && current.status !== "cancelled") return current.status;
  const [seller] = await services.db
    .select(cardColumns)
    .from(sellerRegistrations)
    .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
    .where(eq(registrations.organizationId, organizationId));
  const renewal = current?.status === "cancelled";
  return startAndRecord(services, organizationId, seller, {
    idempotencyKey: `organization-${organizationId}-${renewal ? "renewal" : "card"}-${seller?.paymentMethodId ?? "none"}`,
    replaceFailed: true,
    renewal,
  });
}

/** The organization's subscription, for its account page and for staff. */
export async function sellerSubscriptionOf(db: Database, organizationId: number) {
  const [subscription] = await db
    .select()
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId));
  return subscription;
}
