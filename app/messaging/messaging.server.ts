import { desc } from "drizzle-orm";
import { ConfigurationError, devDoorsOpen, type Environment } from "~/platform/env.server";
import type { Database } from "~db/database.server";
import { outboxMessages } from "~db/schema";
import { DeliveryError } from "./delivery-error";
import { createPostmarkSender } from "./postmark.server";
import { createTwilioSender } from "./twilio.server";

export type Channel = "sms" | "email";
export type SmsMessage = { to: string; text: string };
export type EmailMessage = { to: string; subject: string; text: string };

export { DeliveryError };

/**
 * A notice whose loss must not undo what happened (a decision, a reminder already recorded): a
 * provider's refusal is logged with `what`; anything else is a bug and is thrown.
 */
export async function sendNotice(messaging: Messaging, message: EmailMessage, what: string): Promise<void> {
  try {
    await messaging.sendEmail(message);
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    console.error(`${what} failed:`, error.message);
  }
}

export type Messaging = {
  sendSms(message: SmsMessage): Promise<void>;
  sendEmail(message: EmailMessage): Promise<void>;
  /** Channels that keep messages in the dev outbox because the provider is not configured. */
  outboxChannels: Channel[];
  listOutbox(limit?: number): Promise<OutboxMessage[]>;
};

/** Whether /dev/outbox and /dev/outbox.json answer: the development doors are open and a channel uses the outbox. */
export const outboxOpen = ({ env, messaging }: { env: Environment; messaging: Messaging }) =>
  devDoorsOpen(env) && messaging.outboxChannels.length > 0;

export type OutboxMessage = {
  id: number;
  channel: Channel;
  to: string;
  subject: string | null;
  text: string;
  createdAt: string;
};

/**
 * Chooses each channel's provider: the real one when configured, else the dev outbox, but only where
 * the development doors are open (`devDoorsOpen`): anywhere else a missing provider stops the start.
 */
export function createMessaging(env: Environment, db: Database, fetchImpl?: typeof fetch): Messaging {
  const twilio =
    env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
      ? createTwilioSender(
          { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.TWILIO_FROM },
          fetchImpl,
        )
      : undefined;
  const postmark =
    env.POSTMARK_SERVER_TOKEN && env.MAIL_FROM
      ? createPostmarkSender({ serverToken: env.POSTMARK_SERVER_TOKEN, from: env.MAIL_FROM }, fetchImpl)
      : undefined;

  const keep = async (channel: Channel, to: string, subject: string | null, text: string) => {
    await db.insert(outboxMessages).values({ channel, to, subject, text });
  };

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
    async sendSms({ to, text }) {
      if (twilio) await twilio.send(to, text);
      else await keep("sms", to, null, text);
    },
    async sendEmail({ to, subject, text }) {
      if (postmark) await postmark.send(to, subject, text);
      else await keep("email", to, subject, text);
    },
    async listOutbox(limit = 200) {
      const rows = await db
        .select()
        .from(outboxMessages)
        .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
        .limit(limit);
      return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    },
  };
}
