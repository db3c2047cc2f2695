import { desc, eq } from "drizzle-orm";
import { ConfigurationError, devDoorsOpen, type Environment } from "~/platform/env.server";
import type { Database } from "~db/database.server";
import { type OutboxAttachment, type OutboxProvider, outboxMessages } from "~db/schema";
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "./delivery/retry-schedule";
import { DeliveryError } from "./delivery-error";
import { createPostmarkSender } from "./postmark.server";
import { createTwilioSender } from "./twilio.server";

// Every e-mail and SMS goes through the durable outbox (`outbox_messages`, issue 19): `queueMessage`
// writes it in the caller's transaction, and the delivery (app/messaging/delivery/) sends it after the
// commit, with retries. Nothing sends inline and nothing is dropped.

export type Channel = "sms" | "email";

export { DeliveryError };

/** A message to queue. `kind` says what it is ("password-reset", "decision", ...), for staff. */
export type NewMessage =
  | { channel: "sms"; to: string; text: string; kind: string }
  | {
      channel: "email";
      to: string;
      subject: string;
      text: string;
      kind: string;
      /** Sent as Postmark `Attachments` (the dev outbox keeps them, unshown). */
      attachments?: OutboxAttachment[];
    };

/** Anything that runs queries: the database or a Drizzle transaction. */
export type Executor = Pick<Database, "select" | "insert" | "update" | "execute">;

export type OutboxMessage = {
  id: number;
  channel: Channel;
  to: string;
  subject: string | null;
  text: string;
  createdAt: string;
};

export type Senders = {
  postmark?: ReturnType<typeof createPostmarkSender>;
  twilio?: ReturnType<typeof createTwilioSender>;
};

/**
 * How retries are spaced (`RetrySchedule`: by the message's kind, app/messaging/message-kinds.ts), how
 * long a claim lasts, and how often the queue is looked at.
 */
export type DeliverySettings = RetrySchedule & {
  /** How long a claim ('sending') lasts before another process may take the row again (longer than a send's timeout). */
  leaseMs: number;
  /** How often the queue is looked at when nothing wakes it (a retry this process schedules wakes it when due). */
  pollMs: number;
};

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  ...DEFAULT_RETRY_SCHEDULE,
  leaseMs: 60_000,
  pollMs: 5_000,
};

/**
 * What queueing does inside the caller's transaction besides the row, set by this process's delivery
 * (app/messaging/delivery/): on PostgreSQL a pg-boss job in the same transaction. A retry scheduled
 * outside the delivery's own sends goes through it too (a pg-boss job; on PGlite a wake of the drain loop).
 */
export type QueueHook = {
  enqueued(executor: Executor, id: number, startAfter: Date): Promise<void>;
  /** Schedules another attempt (after a transient failure outside the queue's own workers). */
  retryAt(id: number, at: Date): Promise<void>;
};

/**
 * What anything that writes notices and queues e-mail needs: the database, messaging and the
 * environment (the worker process has no more than this; the app's services are a superset).
 */
export type MessageServices = { db: Database; messaging: Messaging; env: Environment };

export type Messaging = {
  /** Channels that keep messages in the dev outbox because the provider is not configured. */
  outboxChannels: Channel[];
  /** The provider a message of this channel is queued for. */
  providerOf(channel: Channel): OutboxProvider;
  senders: Senders;
  settings: DeliverySettings;
  /** Set by the process's delivery while it runs. */
  hook?: QueueHook;
  listOutbox(limit?: number): Promise<OutboxMessage[]>;
};

/** Whether /dev/outbox and /dev/outbox.json answer: the development doors are open and a channel uses the outbox. */
export const outboxOpen = ({ env, messaging }: { env: Environment; messaging: Messaging }) =>
  devDoorsOpen(env) && messaging.outboxChannels.length > 0;

/**
 * Chooses each channel's provider: the real one when configured, else the dev outbox, but only where
 * the development doors are open (`devDoorsOpen`): anywhere else a missing provider stops the start.
 */
export function createMessaging(
  env: Environment,
  db: Database,
  options: { fetchImpl?: typeof fetch; settings?: Partial<DeliverySettings> } = {},
): Messaging {
  const { fetchImpl } = options;
  const twilio =
    env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
      ? createTwilioSender(
          {
            accountSid: env.TWILIO_ACCOUNT_SID,
            authToken: env.TWILIO_AUTH_TOKEN,
            from: env.TWILIO_FROM,
            apiUrl: env.TWILIO_API_URL,
          },
          fetchImpl,
        )
      : undefined;
  const postmark =
    env.POSTMARK_SERVER_TOKEN && env.MAIL_FROM
      ? createPostmarkSender(
          { serverToken: env.POSTMARK_SERVER_TOKEN, from: env.MAIL_FROM, apiUrl: env.POSTMARK_API_URL },
          fetchImpl,
        )
      : undefined;

  const outboxChannels: Channel[] = [];
  if (!twilio) outboxChannels.push("sms");
  if (!postmark) outboxChannels.push("email");
  // The environment's validation refuses this already; kept here so no other path can open the outbox.
  if (outboxChannels.length > 0 && !devDoorsOpen(env)) {
    throw new ConfigurationError(
      `Invalid configuration: ${outboxChannels.map((channel) => (channel === "sms" ? "Twilio" : "Postmark")).join(" and ")} ` +
        "must be configured here (the dev outbox is for development, or DEV_OUTBOX=on)",
    );
  }

  return {
    outboxChannels,
    providerOf(channel) {
      if (channel === "sms") return twilio ? "twilio" : "outbox";
      return postmark ? "postmark" : "outbox";
    },
    senders: { postmark, twilio },
    settings: { ...DEFAULT_DELIVERY_SETTINGS, ...options.settings },
    async listOutbox(limit = 200) {
      const rows = await db
        .select({
          id: outboxMessages.id,
          channel: outboxMessages.channel,
          to: outboxMessages.to,
          subject: outboxMessages.subject,
          text: outboxMessages.text,
          createdAt: outboxMessages.createdAt,
        })
        .from(outboxMessages)
        .where(eq(outboxMessages.provider, "outbox"))
        .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
        .limit(limit);
      return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    },
  };
}
