import { createHash, randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { ProviderRefusal } from "~/payments/ask-provider.server";
import {
  askToSaveCard,
  askToStartCheckout,
  type CardCustomer,
  cardHolder,
  savedCardColumns,
} from "~/payments/card-capture/card-capture.server";
import { cardLabel } from "~/payments/card-label";
import type { Payments, SavedCard } from "~/payments/payments";
import { retrySellerSubscription, sellerSubscriptionOf } from "~/payments/subscriptions/seller-subscription.server";
import { payOpenTestInvoice } from "~/payments/subscriptions/test-lifecycle.server";
import type { AppServices } from "~/server/app-context";
import type { Database } from "~db/database.server";
import {
  cardUpdateCheckouts,
  organizationChanges,
  registrations,
  sellerRegistrations,
  sellerSubscriptions,
} from "~db/schema";

// A seller's administrator replaces the card the yearly subscription is charged to (issue 8). The new
// card goes to the organization's customer at the provider (a new customer when the card on file was
// saved with another provider), then one transaction writes it to the registration's payment columns
// and the subscription, with a line in the organization's audit log. A failed subscription is then
// started again on the new card, and a cancelled one renewed on it (issue 19). Only ids, brand and last four digits are kept: never the number.

/** Who replaces the card: a signed-in administrator of a seller organization. */
export type CardReplacer = { id: number; organizationId: number };

export type CardReplacementOutcome = { kind: "replaced" } | { kind: "not-found" } | ProviderRefusal;

/** The organization's card as its registration holds it (ids, brand and last four only). */
export async function organizationCardOf(db: Database, organizationId: number) {
  const [row] = await db
    .select({
      registrationId: sellerRegistrations.registrationId,
      name: registrations.name,
      email: registrations.email,
      paymentProvider: sellerRegistrations.paymentProvider,
      paymentCustomerId: sellerRegistrations.paymentCustomerId,
      paymentMethodId: sellerRegistrations.paymentMethodId,
      cardBrand: sellerRegistrations.cardBrand,
      cardLast4: sellerRegistrations.cardLast4,
    })
    .from(sellerRegistrations)
    .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
    .where(eq(registrations.organizationId, organizationId));
  return row;
}

type OrganizationCard = NonNullable<Awaited<ReturnType<typeof organizationCardOf>>>;

/** The customer at the provider now configured, if the card on file was saved with it. */
const customerOf = (card: OrganizationCard, payments: Payments) =>
  card.paymentProvider === payments.provider ? card.paymentCustomerId : null;

/**
 * The organization's customer at the provider now configured, or a new one (none at this provider
 * yet) for the organization as its registration names it.
 */
function customerFor(card: OrganizationCard, payments: Payments, organizationId: number, subscriptionId?: string) {
  const reference = `organization-${organizationId}`;
  const customerId = customerOf(card, payments);
  return (
    customerId ? { customerId, subscriptionId, reference } : { holder: cardHolder(card, reference) }
  ) satisfies CardCustomer;
}

/**
 * The provider's subscription charged to the card, when one is running at the provider now
 * configured (a cancelled one is not: it is renewed as a new subscription once the card is saved).
 */
async function chargedSubscriptionOf(services: AppServices, organizationId: number) {
  const subscription = await sellerSubscriptionOf(services.db, organizationId);
  if (
    !subscription ||
    subscription.status === "failed" ||
    subscription.status === "cancelled" ||
    subscription.provider !== services.payments.provider
  ) {
    return undefined;
  }
  return subscription.subscriptionId ?? undefined;
}

/**
 * The same card on file and the same token give the same key: a double submit attaches the card
 * once, and the second finds it already in place.
 */
const idempotencyKeyFor = (organizationId: number, card: OrganizationCard, token: string) =>
  `card-${organizationId}-${createHash("sha256")
    .update(`${card.paymentMethodId ?? ""}:${token}`)
    .digest("hex")}`;

/**
 * The new card in place, in one transaction: the registration's payment columns, the subscription's
 * card and the audit line. With a Checkout session, the session is marked completed in the same
 * transaction, so a reload of the return page applies nothing twice. Answers whether it applied.
 */
async function applyNewCard(
  services: AppServices,
  replacer: CardReplacer,
  card: SavedCard,
  checkoutSessionId?: string,
): Promise<boolean> {
  const { db, payments } = services;
  const { organizationId } = replacer;
  const applied = await db.transaction(async (tx) => {
    if (checkoutSessionId) {
      const [claimed] = await tx
        .update(cardUpdateCheckouts)
        .set({ completedAt: new Date() })
        .where(
          and(
            eq(cardUpdateCheckouts.sessionId, checkoutSessionId),
            eq(cardUpdateCheckouts.organizationId, organizationId),
            isNull(cardUpdateCheckouts.completedAt),
          ),
        )
        .returning({ sessionId: cardUpdateCheckouts.sessionId });
      if (!claimed) return false;
    }
    const [current] = await tx
      .select({
        registrationId: sellerRegistrations.registrationId,
        paymentCustomerId: sellerRegistrations.paymentCustomerId,
        paymentMethodId: sellerRegistrations.paymentMethodId,
        cardBrand: sellerRegistrations.cardBrand,
        cardLast4: sellerRegistrations.cardLast4,
      })
      .from(sellerRegistrations)
      .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
      .where(eq(registrations.organizationId, organizationId))
      .for("update");
    if (!current) throw new Error(`organization ${organizationId} has no seller registration`);
    // A double submit: the first one already put this card in place.
    if (current.paymentCustomerId === card.customerId && current.paymentMethodId === card.paymentMethodId) return false;
    await tx
      .update(sellerRegistrations)
      .set(savedCardColumns(card, payments.provider))
      .where(eq(sellerRegistrations.registrationId, current.registrationId));
    await tx
      .update(sellerSubscriptions)
      .set({ cardBrand: card.brand, cardLast4: card.last4, cardProblem: null })
      .where(eq(sellerSubscriptions.organizationId, organizationId));
    await tx.insert(organizationChanges).values({
      organizationId,
      userId: replacer.id,
      subject: "card",
      changes: [
        {
          field: "Card",
          before: cardLabel(current.cardBrand, current.cardLast4) ?? "No card",
          after: cardLabel(card.brand, card.last4) ?? "A new card",
        },
      ],
    });
    return true;
  });
  // A subscription that could not start (no card, a refused one) starts on the new card now.
  if (applied) {
    await retrySellerSubscription(services, organizationId);
    // Past due on the test provider: the open invoice is paid with the new card (its events follow).
    // With Stripe, replaceCard pays the open invoice with the new card and invoice.paid comes by webhook.
    await payOpenTestInvoice(services, organizationId);
  }
  return applied;
}

/** With a token (the test provider's, or Stripe.js's): the card is replaced at once. */
export async function replaceOrganizationCard(
  services: AppServices,
  replacer: CardReplacer,
  token: string,
): Promise<CardReplacementOutcome> {
  const { db, payments } = services;
  const card = await organizationCardOf(db, replacer.organizationId);
  if (!card) return { kind: "not-found" };
  const subscriptionId = await chargedSubscriptionOf(services, replacer.organizationId);
  const asked = await askToSaveCard(payments, "replacing a seller's card", {
    token,
    customer: customerFor(card, payments, replacer.organizationId, subscriptionId),
    idempotencyKey: idempotencyKeyFor(replacer.organizationId, card, token),
  });
  if (asked.kind !== "answer") return asked;
  await applyNewCard(services, replacer, asked.answer);
  return { kind: "replaced" };
}

/**
 * Stripe configured, JavaScript off: a Checkout session in setup mode for the organization's
 * customer, remembered in card_update_checkouts; completeCardCheckout finishes on return.
 * successUrl must contain {CHECKOUT_SESSION_ID} (Stripe fills it in).
 */
export async function startCardCheckout(
  services: AppServices,
  replacer: CardReplacer,
  urls: { successUrl: string; cancelUrl: string },
): Promise<{ kind: "checkout"; url: string } | { kind: "not-found" } | ProviderRefusal> {
  const { db, payments } = services;
  if (payments.provider !== "stripe") throw new Error("Stripe Checkout needs Stripe to be configured");
  const card = await organizationCardOf(db, replacer.organizationId);
  if (!card) return { kind: "not-found" };
  const started = await askToStartCheckout(payments, "starting Stripe Checkout for a new card", {
    customer: customerFor(card, payments, replacer.organizationId),
    urls,
    // Each press of the button is a session of its own; an abandoned one simply expires at Stripe.
    idempotencyKey: randomUUID(),
  });
  if (started.kind !== "answer") return started;
  await db
    .insert(cardUpdateCheckouts)
    .values({ sessionId: started.answer.sessionId, organizationId: replacer.organizationId, userId: replacer.id })
    .onConflictDoNothing();
  return { kind: "checkout", url: started.answer.url };
}

export type CardCheckoutReturn = { kind: "replaced" } | { kind: "open" | "expired" } | { kind: "unknown" };

/**
 * Back from Stripe Checkout: once the session is complete its card is put in place, once; a reload
 * (or a second tab) finds the session completed and changes nothing. Sessions of other
 * organizations are unknown here.
 */
export async function completeCardCheckout(
  services: AppServices,
  replacer: CardReplacer,
  sessionId: string,
): Promise<CardCheckoutReturn> {
  const { db, payments } = services;
  if (payments.provider !== "stripe") return { kind: "unknown" };
  const [checkout] = await db
    .select()
    .from(cardUpdateCheckouts)
    .where(
      and(
        eq(cardUpdateCheckouts.sessionId, sessionId),
        eq(cardUpdateCheckouts.organizationId, replacer.organizationId),
      ),
    );
  if (!checkout) return { kind: "unknown" };
  if (checkout.completedAt) return { kind: "replaced" };
  const subscriptionId = await chargedSubscriptionOf(services, replacer.organizationId);
  const result = await payments.readSetupCheckout(sessionId, { subscriptionId });
  if (result.status !== "complete") return { kind: result.status };
  await applyNewCard(services, replacer, result.card, sessionId);
  return { kind: "replaced" };
}
