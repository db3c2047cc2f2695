import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { logger, withoutWordsOf } from "~/platform/logger.server";
import { metricsOf } from "~/platform/metrics.server";
import { counted } from "~/shared/words";
import type { Database } from "~db/database.server";
import { outboxMessages } from "~db/schema";
import { DeliveryError } from "../delivery-error";
import { urgencyOf } from "../message-kinds";
import type { Executor, Messaging, NewMessage } from "../messaging.server";
import { maxAttemptsOf, retryDelayMs } from "./retry-schedule";

// The durable outbox (issue 19). A message is a row written in the transaction of the change that
// causes it; `deliverMessage` sends it after the commit, at most once per row as far as the row's
// state can tell: it is claimed atomically ('queued', or 'sending' whose claim has run out, becomes
// 'sending' with a fresh claim) before the provider is asked, and a row already 'sent' or 'failed' is
// never claimed again. The one window left is a crash after the provider's 200 and before the row
// says 'sent': the claim then runs out and the message is sent a second time. Neither Postmark nor
// Twilio takes an idempotency key for a message, so nothing closer is possible.

/** Heard by every process's delivery when a transaction that queued a message commits. */
export const OUTBOX_CHANNEL = "outbox_messages";

export type QueueOptions = {
  /**
   * For a message the user waits for (an SMS code, a password reset): the request tries it itself
   * right after the commit (`deliverMessage(..., { now: true })`), so the queue leaves it alone for
   * this long unless that attempt fails or never happens (a crash).
   */
  firstAttemptInline?: boolean;
  /** The message this one resends (staff). */
  resendOf?: number;
};

/** How long the queue leaves a message the request itself tries first. */
export const INLINE_ATTEMPT_GRACE_MS = 60_000;

/**
 * Queues a message in the caller's transaction (or on the database). A channel that uses the dev
 * outbox has nothing to deliver: its row is 'sent' at once and shows at /dev/outbox. Answers the row's id.
 */
export async function queueMessage(
  executor: Executor,
  messaging: Messaging,
  message: NewMessage,
  options: QueueOptions = {},
): Promise<{ id: number; status: "queued" | "sent" }> {
  const provider = messaging.providerOf(message.channel);
  const now = new Date();
  const startAfter = options.firstAttemptInline ? new Date(now.getTime() + INLINE_ATTEMPT_GRACE_MS) : now;
  const kept = provider === "outbox";
  const [row] = await executor
    .insert(outboxMessages)
    .values({
      channel: message.channel,
      kind: message.kind,
      to: message.to,
      subject: message.channel === "email" ? message.subject : null,
      text: message.text,
      attachments: message.channel === "email" && message.attachments?.length ? message.attachments : null,
      provider,
      status: kept ? "sent" : "queued",
      sentAt: kept ? now : null,
      nextAttemptAt: startAfter,
      resendOf: options.resendOf ?? null,
      createdAt: now,
    })
    .returning({ id: outboxMessages.id });
  if (!row) throw new Error("no outbox row");
  if (!kept) {
    // Both take effect only if the caller's transaction commits.
    await messaging.hook?.enqueued(executor, row.id, startAfter);
    await executor.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${String(row.id)})`);
  }
  return { id: row.id, status: kept ? "sent" : "queued" };
}

export type DeliveryOutcome =
  /** Not ours to send: already sent or failed, being sent elsewhere, not due, or kept in the dev outbox. */
  | { kind: "not-claimed" }
  | { kind: "sent" }
  | { kind: "retry"; at: Date; error: string }
  | { kind: "failed"; error: string };

/** Rows a drain may take now: queued and due, or 'sending' under a claim that ran out (a crashed process). */
const claimable = (now: Date) =>
  or(
    and(eq(outboxMessages.status, "queued"), lte(outboxMessages.nextAttemptAt, now)),
    and(eq(outboxMessages.status, "sending"), lt(outboxMessages.claimedUntil, now)),
  );

/**
 * Sends one message if it is still to be sent. `now: true` (the request's own first attempt) takes a
 * queued row before it is due. On a transient failure the row is queued again after the backoff
 * (`onRetry` then schedules it); after `maxAttempts`, or on the provider's permanent refusal, it is 'failed'.
 */
export async function deliverMessage(
  db: Database,
  messaging: Messaging,
  id: number,
  options: { now?: boolean; onRetry?: (id: number, at: Date) => Promise<void> | void } = {},
): Promise<DeliveryOutcome> {
  const { settings, senders } = messaging;
  const claimedAt = new Date();
  const [row] = await db
    .update(outboxMessages)
    .set({
      status: "sending",
      attempts: sql`${outboxMessages.attempts} + 1`,
      claimedUntil: new Date(claimedAt.getTime() + settings.leaseMs),
    })
    .where(
      and(
        eq(outboxMessages.id, id),
        options.now ? or(eq(outboxMessages.status, "queued"), claimable(claimedAt)) : claimable(claimedAt),
      ),
    )
    .returning();
  if (!row) return { kind: "not-claimed" };
  const ours = and(
    eq(outboxMessages.id, id),
    eq(outboxMessages.status, "sending"),
    eq(outboxMessages.attempts, row.attempts),
  );

  let providerMessageId: string;
  try {
    if (row.provider === "postmark") {
      if (!senders.postmark)
        throw new DeliveryError("Postmark is not configured in this process", { permanent: false });
      providerMessageId = await senders.postmark.send(row.to, row.subject ?? "", row.text, row.attachments);
    } else if (row.provider === "twilio") {
      if (!senders.twilio) throw new DeliveryError("Twilio is not configured in this process", { permanent: false });
      providerMessageId = await senders.twilio.send(row.to, row.text);
    } else {
      providerMessageId = "";
    }
  } catch (error) {
    // Anything that is not the provider's answer (a bug) is retried too: no message is dropped.
    const deliveryError =
      error instanceof DeliveryError
        ? error
        : new DeliveryError(`Unexpected error: ${(error as Error).message}`, { permanent: false });
    if (!(error instanceof DeliveryError)) logger.error({ err: error }, `message ${id}: unexpected delivery error`);
    // How soon and how often to try again is the message kind's (a person waiting, or a notice).
    const urgency = urgencyOf(row.kind);
    if (deliveryError.permanent || row.attempts >= maxAttemptsOf(settings, urgency)) {
      await db
        .update(outboxMessages)
        .set({ status: "failed", lastError: deliveryError.message, claimedUntil: null })
        .where(ours);
      metricsOf(db)?.countDeliveryFailure(row.channel, "failed");
      // The provider's answer may quote the message it refused: its codes and links are taken out.
      logger.error(
        `message ${id} (${row.kind}) failed after ${counted(row.attempts, "attempt", "attempts")}: ` +
          withoutWordsOf(deliveryError.message, `${row.subject ?? ""} ${row.text}`),
      );
      return { kind: "failed", error: deliveryError.message };
    }
    const at = new Date(Date.now() + retryDelayMs(settings, urgency, row.attempts));
    await db
      .update(outboxMessages)
      .set({ status: "queued", nextAttemptAt: at, lastError: deliveryError.message, claimedUntil: null })
      .where(ours);
    metricsOf(db)?.countDeliveryFailure(row.channel, "retry");
    await options.onRetry?.(id, at);
    return { kind: "retry", at, error: deliveryError.message };
  }
  // A crash right here (after the provider's 200, before this update) is the one way a message goes
  // twice: the claim runs out and another drain sends it again.
  await db
    .update(outboxMessages)
    .set({ status: "sent", sentAt: new Date(), providerMessageId, lastError: null, claimedUntil: null })
    .where(ours);
  return { kind: "sent" };
}

/** The ids a drain may take now, oldest due first. */
export async function claimableIds(db: Database, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(claimable(new Date()))
    .orderBy(outboxMessages.nextAttemptAt, outboxMessages.id)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** When the next queued row falls due (or a claim runs out), if any. */
export async function nextDueAt(db: Database): Promise<Date | undefined> {
  const [row] = await db
    .select({
      at: sql<
        string | null
      >`min(case when ${outboxMessages.status} = 'queued' then ${outboxMessages.nextAttemptAt} else ${outboxMessages.claimedUntil} end)`,
    })
    .from(outboxMessages)
    .where(sql`${outboxMessages.status} in ('queued', 'sending')`);
  return row?.at ? new Date(row.at) : undefined;
}

/** Messages waiting (queued, sending) or given up (failed), by channel and state: for the metrics, read at each scrape. */
export async function outboxCounts(db: Database): Promise<{ channel: string; status: string; count: number }[]> {
  return db
    .select({ channel: outboxMessages.channel, status: outboxMessages.status, count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(inArray(outboxMessages.status, ["queued", "sending", "failed"]))
    .groupBy(outboxMessages.channel, outboxMessages.status);
}

/**
 * After the commit, the request's own first attempt at a message the user waits for (queued with
 * `firstAttemptInline`): 'sent', 'failed' (the provider refused it: tell the user), or 'retry' (the
 * queue tries again; the user is told it was sent).
 */
export function deliverNow(services: { db: Database; messaging: Messaging }, id: number): Promise<DeliveryOutcome> {
  return deliverMessage(services.db, services.messaging, id, {
    now: true,
    onRetry: (retryId, at) => services.messaging.hook?.retryAt(retryId, at),
  });
}
