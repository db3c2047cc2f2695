import { eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { cardLabel } from "~/payments/card-label";
import type { Environment } from "~/platform/env.server";
import { utcDay } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import type { Transaction } from "~db/database.server";
import { registrations, sellerRegistrations, sellerSubscriptions, subscriptionEvents } from "~db/schema";
import type { SubscriptionStatus } from "~db/subscription-statuses";
import { idField, invoiceSubscriptionId, numberField, objectField, type ProviderEvent } from "./provider-event";

// What each provider event does to a seller's subscription (issue 19), inside the transaction that
// claimed the event. The subscription is found by Stripe's ids kept here (the subscription id in
// seller_subscriptions, the customer and card ids in seller_registrations) and locked. Events that
// move the status are applied only when not older than the last one applied (Stripe sends events
// out of order and retries them for days), and act on the state the event's object carries. Every
// event matched to a subscription is written to its history for staff. E-mails are returned, to be
// sent after the commit.

export type LifecycleNotice = { organizationId: number; subject: string; lines: string[] };

export type Applied = { handled: boolean; notices: LifecycleNotice[] };

type Row = typeof sellerSubscriptions.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

const subscriptionColumns = {
  organizationId: sellerSubscriptions.organizationId,
};

async function lockByOrganization(tx: Transaction, organizationId: number): Promise<Row | undefined> {
  const [row] = await tx
    .select()
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId))
    .for("update");
  return row;
}

async function lockBySubscriptionId(tx: Transaction, subscriptionId: string | undefined) {
  if (!subscriptionId) return undefined;
  const [found] = await tx
    .select(subscriptionColumns)
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.subscriptionId, subscriptionId));
  return found ? lockByOrganization(tx, found.organizationId) : undefined;
}

/** The seller's card on file, by the provider's customer id or payment method id. */
async function sellerCardBy(tx: Transaction, by: { customerId?: string; paymentMethodId?: string }) {
  const condition = by.customerId
    ? eq(sellerRegistrations.paymentCustomerId, by.customerId)
    : by.paymentMethodId
      ? eq(sellerRegistrations.paymentMethodId, by.paymentMethodId)
      : undefined;
  if (!condition) return undefined;
  const [card] = await tx
    .select({
      registrationId: sellerRegistrations.registrationId,
      organizationId: registrations.organizationId,
      paymentMethodId: sellerRegistrations.paymentMethodId,
    })
    .from(sellerRegistrations)
    .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
    .where(condition)
    .limit(1);
  return card?.organizationId ? { ...card, organizationId: card.organizationId } : undefined;
}

async function remember(tx: Transaction, row: Row, event: ProviderEvent, status: SubscriptionStatus, summary: string) {
  await tx
    .insert(subscriptionEvents)
    .values({
      organizationId: row.organizationId,
      eventId: event.id,
      type: event.type,
      occurredAt: new Date(event.created * 1000),
      status,
      summary,
    })
    .onConflictDoNothing();
}

const cardLink = (env: Environment) => `${env.APP_URL}/account/card`;

/** The status an event asks for, from the object's own state; undefined: the event moves no status. */
function targetOf(event: ProviderEvent, row: Row): { status: SubscriptionStatus; unpaid?: boolean } | undefined {
  const object = event.data.object;
  switch (event.type) {
    case "customer.subscription.updated":
    case "customer.subscription.created": {
      const status = object.status;
      if (status === "active") return { status: "active" };
      if (status === "trialing") return { status: "trialing" };
      if (status === "past_due") return { status: "past_due" };
      // Stripe gave up retrying: the grace period ends now.
      if (status === "unpaid") return { status: "past_due", unpaid: true };
      if (status === "canceled" || status === "incomplete_expired") return { status: "cancelled" };
      return undefined;
    }
    case "customer.subscription.deleted":
      return { status: "cancelled" };
    case "invoice.paid":
    case "invoice.payment_succeeded": {
      // The first invoice of a trial is for nothing: paying it does not end the trial.
      if (row.status === "trialing" && (numberField(object, "amount_paid") ?? 0) === 0) return undefined;
      return { status: "active" };
    }
    case "invoice.payment_failed":
      return { status: "past_due" };
    default:
      return undefined;
  }
}

const STATUS_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
]);

/** An event that moves (or may move) the status: subscription changes and invoice payments. */
async function applyStatusEvent(tx: Transaction, event: ProviderEvent, env: Environment): Promise<Applied> {
  const object = event.data.object;
  const isInvoice = event.type.startsWith("invoice.");
  const subscriptionId = isInvoice ? invoiceSubscriptionId(object) : idField(object, "id");
  // Only a subscription's invoices move its status: a one-off invoice (a buyer's fee) is not ours here.
  const row = await lockBySubscriptionId(tx, subscriptionId);
  if (!row) return { handled: false, notices: [] };
  const at = new Date(event.created * 1000);
  if (row.lastEventAt && at.getTime() < row.lastEventAt.getTime()) {
    await remember(tx, row, event, row.status, "Older than the last event applied: no change");
    return { handled: true, notices: [] };
  }
  const target = targetOf(event, row);
  if (!target || row.status === "cancelled" || row.status === "failed") {
    // A cancelled subscription stays cancelled (Stripe never revives one); a failed one never ran here.
    await remember(tx, row, event, row.status, target ? "Subscription no longer running: no change" : "No change");
    if (target)
      await tx
        .update(sellerSubscriptions)
        .set({ lastEventAt: at })
        .where(eq(sellerSubscriptions.organizationId, row.organizationId));
    return { handled: true, notices: [] };
  }

  const notices: LifecycleNotice[] = [];
  const patch: Partial<typeof sellerSubscriptions.$inferInsert> = { lastEventAt: at, status: target.status };
  const trialEnd = event.type.startsWith("customer.subscription.") ? numberField(object, "trial_end") : undefined;
  if (trialEnd) patch.trialEndsAt = new Date(trialEnd * 1000);
  let summary: string;
  if (target.status === "past_due") {
    const firstFailure = row.status !== "past_due";
    const pastDueSince = firstFailure ? at : (row.pastDueSince ?? at);
    // The grace period runs from Stripe's time of the first failure, not from when we heard of it.
    let graceEndsAt = firstFailure
      ? new Date(at.getTime() + env.SUBSCRIPTION_GRACE_DAYS * DAY_MS)
      : (row.graceEndsAt ?? new Date(at.getTime() + env.SUBSCRIPTION_GRACE_DAYS * DAY_MS));
    if (target.unpaid && graceEndsAt.getTime() > at.getTime()) graceEndsAt = at;
    patch.pastDueSince = pastDueSince;
    patch.graceEndsAt = graceEndsAt;
    if (target.unpaid) {
      summary = "Unpaid after every retry: bidding blocked";
      if (row.graceEndsAt === null || row.graceEndsAt.getTime() > at.getTime()) {
        notices.push({
          organizationId: row.organizationId,
          subject: "Your subscription is unpaid: bidding is blocked",
          lines: [
            "We could not charge your card for your yearly subscription after several tries.",
            `You can no longer bid or accept new invitations until the payment goes through. Update your card at ${cardLink(env)} to bid again.`,
            "Bids you have already placed stand.",
          ],
        });
      }
    } else if (event.type === "invoice.payment_failed") {
      summary = "Renewal payment failed";
      notices.push({
        organizationId: row.organizationId,
        subject: "Your subscription payment failed",
        lines: [
          "We could not charge your card for your yearly subscription.",
          `Please update your card at ${cardLink(env)} by ${utcDay(graceEndsAt)}. After that date you can no longer bid or accept new invitations until the payment goes through.`,
          "Bids you have already placed stand.",
        ],
      });
    } else {
      summary = "Past due";
    }
  } else {
    patch.pastDueSince = null;
    patch.graceEndsAt = null;
    if (target.status === "cancelled") {
      patch.cancelledAt = at;
      summary = "Subscription cancelled";
      notices.push({
        organizationId: row.organizationId,
        subject: "Your subscription has been cancelled",
        lines: [
          "Your yearly subscription has been cancelled.",
          "You can no longer bid or accept new invitations. Bids you have already placed stand.",
          `Replace your card at ${cardLink(env)} to renew it: the year is charged to the new card at once.`,
        ],
      });
    } else if (target.status === "active") {
      summary = isInvoice ? "Invoice paid" : "Active";
      if (row.status === "past_due") {
        notices.push({
          organizationId: row.organizationId,
          subject: "Your subscription payment went through",
          lines: ["Thank you: your yearly subscription is paid.", "You can bid and accept invitations again."],
        });
      }
    } else {
      summary = "Free trial";
    }
  }
  await tx.update(sellerSubscriptions).set(patch).where(eq(sellerSubscriptions.organizationId, row.organizationId));
  await remember(tx, row, event, target.status, summary);
  return { handled: true, notices };
}

async function applyTrialWillEnd(tx: Transaction, event: ProviderEvent, env: Environment) {
  const object = event.data.object;
  const row = await lockBySubscriptionId(tx, idField(object, "id"));
  if (!row) return { handled: false, notices: [] };
  const trialEnd = numberField(object, "trial_end");
  const endsAt = trialEnd ? new Date(trialEnd * 1000) : row.trialEndsAt;
  await remember(tx, row, event, row.status, "Trial ending soon: reminder sent");
  if (row.status !== "trialing" || !endsAt) return { handled: true, notices: [] };
  const card = cardLabel(row.cardBrand, row.cardLast4);
  return {
    handled: true,
    notices: [
      {
        organizationId: row.organizationId,
        subject: `Your free trial ends on ${utcDay(endsAt)}`,
        lines: [
          `Your free trial ends on ${utcDay(endsAt)}. ${card ? `Your ${card}` : "Your card"} will then be charged ${formatCents(row.amountCents)} for the yearly subscription (processing fee and GST included).`,
          `To use another card, replace it at ${cardLink(env)}.`,
        ],
      },
    ],
  };
}

/** A card expiring, removed or updated by the card network: shown on the account page, and e-mailed. */
async function applyCardEvent(tx: Transaction, event: ProviderEvent, env: Environment): Promise<Applied> {
  const object = event.data.object;
  const objectId = idField(object, "id");
  const customerId = idField(object, "customer") ?? idField(event.data.previous_attributes, "customer");
  const card = objectField(object, "card") ?? object;
  const last4 = typeof card.last4 === "string" ? card.last4 : null;
  const brand = typeof card.brand === "string" ? card.brand.toLowerCase() : null;
  const seller = customerId
    ? await sellerCardBy(tx, { customerId })
    : await sellerCardBy(tx, { paymentMethodId: objectId });
  if (!seller) return { handled: false, notices: [] };
  const row = await lockByOrganization(tx, seller.organizationId);
  if (!row) return { handled: false, notices: [] };
  // Only the card the subscription is charged to matters; another card of the customer does not.
  const onFile = seller.paymentMethodId === objectId;
  if (event.type === "payment_method.detached") {
    if (!onFile) {
      await remember(tx, row, event, row.status, "Another card removed: no change");
      return { handled: true, notices: [] };
    }
    const problem = "The card on file was removed. Please add a new card.";
    await tx
      .update(sellerSubscriptions)
      .set({ cardProblem: problem })
      .where(eq(sellerSubscriptions.organizationId, row.organizationId));
    await remember(tx, row, event, row.status, "Card removed");
    return {
      handled: true,
      notices: [
        {
          organizationId: row.organizationId,
          subject: "Your card was removed",
          lines: [
            "The card your yearly subscription is charged to was removed.",
            `Please add a new card at ${cardLink(env)} so that your subscription can renew.`,
          ],
        },
      ],
    };
  }
  if (event.type === "payment_method.automatically_updated") {
    if (onFile) {
      await tx
        .update(sellerSubscriptions)
        .set({ cardProblem: null, cardBrand: brand, cardLast4: last4 })
        .where(eq(sellerSubscriptions.organizationId, row.organizationId));
      await tx
        .update(sellerRegistrations)
        .set({ cardBrand: brand, cardLast4: last4 })
        .where(eq(sellerRegistrations.registrationId, seller.registrationId));
    }
    await remember(
      tx,
      row,
      event,
      row.status,
      onFile ? "Card updated by the card network" : "Another card updated: no change",
    );
    return { handled: true, notices: [] };
  }
  // customer.source.expiring: a card of the customer expires at the end of next month.
  const month = numberField(card, "exp_month");
  const year = numberField(card, "exp_year");
  const when = month && year ? `${String(month).padStart(2, "0")}/${year}` : "soon";
  const label = cardLabel(brand, last4) ?? "Your card";
  const problem = `${label} expires at the end of ${when}. Please replace it.`;
  await tx
    .update(sellerSubscriptions)
    .set({ cardProblem: problem })
    .where(eq(sellerSubscriptions.organizationId, row.organizationId));
  await remember(tx, row, event, row.status, `Card expiring (${when})`);
  return {
    handled: true,
    notices: [
      {
        organizationId: row.organizationId,
        subject: "Your card expires soon",
        lines: [
          `${label}, which your yearly subscription is charged to, expires at the end of ${when}.`,
          `Please replace it at ${cardLink(env)} so that your subscription can renew.`,
        ],
      },
    ],
  };
}

const CARD_EVENTS = new Set([
  "customer.source.expiring",
  "payment_method.detached",
  "payment_method.automatically_updated",
]);

/**
 * Applies one stored event. `handled: false`: an event type we do not act on, or one for no seller
 * subscription of ours (kept as ignored).
 */
export async function applyProviderEvent(tx: Transaction, event: ProviderEvent, env: Environment): Promise<Applied> {
  if (STATUS_EVENTS.has(event.type)) return applyStatusEvent(tx, event, env);
  if (event.type === "customer.subscription.trial_will_end") return applyTrialWillEnd(tx, event, env);
  if (CARD_EVENTS.has(event.type)) return applyCardEvent(tx, event, env);
  return { handled: false, notices: [] };
}

/** E-mails the seller's users (kept on /account too), in the event's transaction (durable queue). */
export async function sendLifecycleNotices(
  services: MessageServices,
  notices: LifecycleNotice[],
  executor: NoticeExecutor,
) {
  for (const notice of notices) {
    await notifyOrganizations(
      services,
      [notice.organizationId],
      { kind: "subscription", subject: notice.subject, lines: notice.lines },
      executor,
    );
  }
}
