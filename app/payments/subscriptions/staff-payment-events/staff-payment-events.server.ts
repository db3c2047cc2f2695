import { desc, eq, inArray, or } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import type { Database } from "~db/database.server";
import {
  organizations,
  providerEvents,
  registrations,
  sellerRegistrations,
  sellerSubscriptions,
  subscriptionEvents,
} from "~db/schema";
import { eventReferences, type ProviderEvent } from "../provider-event";
import { drainSoon, requeueFailedEvent } from "../provider-events.server";
import type { EventState } from "./staff-payment-events-schema";

// /staff/payment-events (issue 19): every event Stripe (or the test provider) sent, newest first,
// with its processing state, attempts and last error, the seller it concerns, and "Retry now" on a
// failed one.

export const EVENTS_PER_PAGE = 50;

export type SellerLink = { organizationId: number; name: string; registrationId: number | null };

const unique = <T>(values: (T | undefined)[]) => [...new Set(values.filter((value) => value !== undefined))] as T[];

/**
 * The seller each event concerns: the subscription history says it for an applied event; otherwise
 * the event's subscription, customer or card id is looked up as the lifecycle does.
 */
async function sellersOf(db: Database, events: { id: string; payload: unknown }[]) {
  const organizationOf = new Map<string, number>();
  if (events.length === 0) return new Map<string, SellerLink>();
  const matched = await db
    .select({ eventId: subscriptionEvents.eventId, organizationId: subscriptionEvents.organizationId })
    .from(subscriptionEvents)
    .where(
      inArray(
        subscriptionEvents.eventId,
        events.map((event) => event.id),
      ),
    );
  for (const row of matched) organizationOf.set(row.eventId, row.organizationId);

  const references = new Map(
    events
      .filter((event) => !organizationOf.has(event.id))
      .map((event) => [event.id, eventReferences(event.payload as ProviderEvent)]),
  );
  const subscriptionIds = unique([...references.values()].map((ref) => ref.subscriptionId));
  const customerIds = unique([...references.values()].map((ref) => ref.customerId));
  const paymentMethodIds = unique([...references.values()].map((ref) => ref.paymentMethodId));
  const subscriptions = subscriptionIds.length
    ? await db
        .select({
          organizationId: sellerSubscriptions.organizationId,
          subscriptionId: sellerSubscriptions.subscriptionId,
        })
        .from(sellerSubscriptions)
        .where(inArray(sellerSubscriptions.subscriptionId, subscriptionIds))
    : [];
  const cards =
    customerIds.length || paymentMethodIds.length
      ? await db
          .select({
            organizationId: registrations.organizationId,
            customerId: sellerRegistrations.paymentCustomerId,
            paymentMethodId: sellerRegistrations.paymentMethodId,
          })
          .from(sellerRegistrations)
          .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
          .where(
            or(
              customerIds.length ? inArray(sellerRegistrations.paymentCustomerId, customerIds) : undefined,
              paymentMethodIds.length ? inArray(sellerRegistrations.paymentMethodId, paymentMethodIds) : undefined,
            ),
          )
      : [];
  for (const [eventId, ref] of references) {
    const found =
      subscriptions.find((row) => ref.subscriptionId && row.subscriptionId === ref.subscriptionId)?.organizationId ??
      cards.find((row) => row.organizationId && ref.customerId && row.customerId === ref.customerId)?.organizationId ??
      cards.find((row) => row.organizationId && ref.paymentMethodId && row.paymentMethodId === ref.paymentMethodId)
        ?.organizationId;
    if (found) organizationOf.set(eventId, found);
  }

  const organizationIds = unique([...organizationOf.values()]);
  const named = organizationIds.length
    ? await db
        .select({ organizationId: organizations.id, name: organizations.name, registrationId: registrations.id })
        .from(organizations)
        .leftJoin(registrations, eq(registrations.organizationId, organizations.id))
        .where(inArray(organizations.id, organizationIds))
        .orderBy(desc(registrations.id))
    : [];
  const sellers = new Map<string, SellerLink>();
  for (const [eventId, organizationId] of organizationOf) {
    const row = named.find((candidate) => candidate.organizationId === organizationId);
    if (row) sellers.set(eventId, row);
  }
  return sellers;
}

/** One page (1, 2, ...) of events, newest first. */
export async function listProviderEvents(db: Database, filter: { state?: EventState; page: number }) {
  const rows = await db
    .select({
      id: providerEvents.id,
      type: providerEvents.type,
      receivedAt: providerEvents.receivedAt,
      state: providerEvents.state,
      attempts: providerEvents.attempts,
      lastError: providerEvents.lastError,
      nextAttemptAt: providerEvents.nextAttemptAt,
      payload: providerEvents.payload,
    })
    .from(providerEvents)
    .where(filter.state ? eq(providerEvents.state, filter.state) : undefined)
    .orderBy(desc(providerEvents.receivedAt), desc(providerEvents.id))
    .limit(EVENTS_PER_PAGE + 1)
    .offset((filter.page - 1) * EVENTS_PER_PAGE);
  const shown = rows.slice(0, EVENTS_PER_PAGE);
  const sellers = await sellersOf(db, shown);
  return {
    events: shown.map(({ payload: _payload, ...row }) => ({
      ...row,
      receivedAt: row.receivedAt.toISOString(),
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      seller: sellers.get(row.id),
    })),
    hasOlder: rows.length > EVENTS_PER_PAGE,
  };
}

/** One event's state, for the note after "Retry now" (the list's filter may no longer show it). */
export async function providerEventState(db: Database, id: string) {
  const [row] = await db
    .select({
      state: providerEvents.state,
      attempts: providerEvents.attempts,
      nextAttemptAt: providerEvents.nextAttemptAt,
    })
    .from(providerEvents)
    .where(eq(providerEvents.id, id));
  return row ? { ...row, nextAttemptAt: row.nextAttemptAt.toISOString() } : undefined;
}

/**
 * Staff's "Retry now": a failed event is received again and the drain runs at once (this process's,
 * or the one under way, run once more); answers false when the event is not failed.
 */
export async function retryProviderEvent(services: MessageServices, id: string): Promise<boolean> {
  if (!(await requeueFailedEvent(services.db, id))) return false;
  await drainSoon(services);
  return true;
}
