import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { SUBSCRIPTION_STATUSES } from "../subscription-statuses";
import { organizations, users } from "./accounts";

// Seller subscriptions and the card provider (issues 8 and 19).

/**
 * A seller's yearly subscription, started when staff approve (issue 8). A failure to start it is
 * kept here too: the approval stands, and the account and staff see the problem.
 */
export const sellerSubscriptions = pgTable(
  "seller_subscriptions",
  {
    organizationId: integer("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    subscriptionId: text("subscription_id"),
    /**
     * The seller's standing (issue 19): trialing, active, past_due (a renewal failed; the grace period
     * runs), cancelled, or failed (could not start at approval). Moved by the provider's events.
     */
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    /** When a renewal first failed (Stripe's time); null unless past due. */
    pastDueSince: timestamp("past_due_since", { withTimezone: true }),
    /** Until when a past-due seller may still bid; fixed when it went past due (SUBSCRIPTION_GRACE_DAYS). */
    graceEndsAt: timestamp("grace_ends_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** The `created` time of the newest provider event applied: an older one changes nothing. */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    /** A problem with the card on file (expiring, removed), shown until the card is replaced. */
    cardProblem: text("card_problem"),
    /** What the first charge after the trial comes to, tax included. */
    amountCents: integer("amount_cents").notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    failure: text("failure"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "seller_subscriptions_status_check",
      sql`${table.status} in ('trialing', 'active', 'past_due', 'cancelled', 'failed')`,
    ),
    check("seller_subscriptions_provider_check", sql`${table.provider} in ('stripe', 'test')`),
    index("seller_subscriptions_subscription_idx").on(table.subscriptionId),
  ],
);

/**
 * Every event the card provider sent us (issue 19), once: keyed by the provider's event id, so a
 * replay changes nothing. Stored by the webhook in the request, processed outside it by a drain
 * (state received → processed, ignored, or failed after its last retry, with the error). The test provider's own events
 * (evt_test_…) go through the same table and the same code.
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    /** The event's `created` (Stripe's clock). */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    payload: jsonb("payload").notNull(),
    state: text("state", { enum: ["received", "processed", "ignored", "failed"] })
      .notNull()
      .default("received"),
    /** The error of the last attempt that threw (kept after a later success, for staff). */
    lastError: text("last_error"),
    attempts: integer("attempts").notNull().default(0),
    /** A received event is not taken before this (the backoff after a failed attempt). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    check("provider_events_state_check", sql`${table.state} in ('received', 'processed', 'ignored', 'failed')`),
    index("provider_events_pending_idx").on(table.state, table.nextAttemptAt),
    index("provider_events_received_idx").on(table.receivedAt),
  ],
);

/** A seller subscription's history for staff: each provider event matched to it and the status it left. */
export const subscriptionEvents = pgTable(
  "subscription_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    /** The event's own time (Stripe's `created`). */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** What it did, in words ("Renewal payment failed", "Older than the last event: no change"). */
    summary: text("summary").notNull(),
    appliedAt: timestamp("applied_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("subscription_events_event_idx").on(table.organizationId, table.eventId),
    index("subscription_events_organization_idx").on(table.organizationId, table.id),
  ],
);

/**
 * A seller replacing its card on Stripe Checkout (setup mode) without JavaScript: the session, until
 * the seller is back and the new card is in use.
 */
export const cardUpdateCheckouts = pgTable("card_update_checkouts", {
  sessionId: text("session_id").primaryKey(),
  organizationId: integer("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  completedAt: timestamp("completed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
