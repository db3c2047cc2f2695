import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

// Every e-mail and SMS (issue 19): a durable outbox, written in the transaction of the change that
// causes the message and delivered afterwards (app/messaging/delivery/). Rows of a channel that has no
// provider configured are the dev outbox: 'sent' at once, nothing to deliver.
export const OUTBOX_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export const OUTBOX_PROVIDERS = ["postmark", "twilio", "outbox"] as const;
export type OutboxProvider = (typeof OUTBOX_PROVIDERS)[number];
/** An e-mail attachment as Postmark takes it. */
export type OutboxAttachment = { name: string; contentType: string; contentBase64: string };

export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: serial("id").primaryKey(),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    /** What the message is ("password-reset", "decision", "outbid notification", ...), for staff. */
    kind: text("kind").notNull().default("message"),
    to: text("to").notNull(),
    subject: text("subject"),
    text: text("text").notNull(),
    attachments: jsonb("attachments").$type<OutboxAttachment[]>(),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("sent"),
    /** Chosen when queued: the provider configured then. */
    provider: text("provider", { enum: OUTBOX_PROVIDERS }).notNull().default("outbox"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While 'sending': the claim's end; a claim past it belongs to a crashed process and is taken again. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    /** The provider's last answer (or why it could not be reached). */
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The message this row is a copy of (staff resent it). */
    resendOf: integer("resend_of").references((): AnyPgColumn => outboxMessages.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("outbox_messages_channel_check", sql`${table.channel} in ('sms', 'email')`),
    check("outbox_messages_status_check", sql`${table.status} in ('queued', 'sending', 'sent', 'failed')`),
    check("outbox_messages_provider_check", sql`${table.provider} in ('postmark', 'twilio', 'outbox')`),
    // The drain query: due rows still to deliver.
    index("outbox_messages_due_idx").on(table.nextAttemptAt).where(sql`${table.status} in ('queued', 'sending')`),
    // The dev outbox and the staff page: newest first, by provider and by status.
    index("outbox_messages_provider_created_idx").on(table.provider, table.createdAt),
    index("outbox_messages_status_id_idx").on(table.status, table.id),
  ],
);
