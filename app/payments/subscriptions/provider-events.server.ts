import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { logger } from "~/platform/logger.server";
import { metricsOf } from "~/platform/metrics.server";
import type { Database } from "~db/database.server";
import { providerEvents } from "~db/schema";
import { applyProviderEvent, sendLifecycleNotices } from "./lifecycle.server";
import type { ProviderEvent } from "./provider-event";

// The provider's events (issue 19), stored once and processed outside the request. The webhook (or
// the test provider) stores an event in the request and answers at once; a drain in each app process
// and in the worker claims the due received rows one at a time (FOR UPDATE SKIP LOCKED, so several
// machines never take the same one) and applies each in a savepoint of the claim's transaction, the
// done-mark (processed or ignored) with it. An attempt that throws (a database hiccup, a bug) is rolled
// back to the savepoint and, still under the claim's lock, counted with its error and put off by a
// backoff (30 s doubling, capped at an hour, as the message outbox); the 10th failed attempt marks it
// failed, for staff to retry at /staff/payment-events. A crash rolls the whole claim back: the row
// stays received, untouched, and the next drain takes it. Applied and marked in one commit, an event
// is never applied twice, and a late one meets the lifecycle's "older than the last one applied
// changes nothing" rule like any other.

/** How failed attempts are spaced: `retryDelayMs(attempts)` after the attempts made so far; `maxAttempts`, then failed. */
export type EventRetrySettings = {
  retryDelayMs(attempts: number): number;
  maxAttempts: number;
};

/** 30 s, 1 min, 2 min, ... capped at an hour; 10 attempts span about 3 hours and a half. */
export const DEFAULT_EVENT_RETRY: EventRetrySettings = {
  retryDelayMs: (attempts) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000),
  maxAttempts: 10,
};

/** Stores the event once; answers false for a replay (its id is already stored), which changes nothing. */
export async function storeProviderEvent(db: Database, event: ProviderEvent): Promise<boolean> {
  const inserted = await db
    .insert(providerEvents)
    .values({
      id: event.id,
      type: event.type,
      createdAt: new Date(event.created * 1000),
      payload: event,
      // This process's clock, the one its drain compares with (the database's may differ a little).
      nextAttemptAt: new Date(),
    })
    .onConflictDoNothing({ target: providerEvents.id })
    .returning({ id: providerEvents.id });
  return inserted.length > 0;
}

/**
 * What staff read of a failed attempt: the innermost cause (the database's own words, not Drizzle's
 * "Failed query: …" with its parameters), kept short.
 */
function errorText(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return (inner instanceof Error ? inner.message : String(inner)).slice(0, 2000);
}

/** Claims, applies and marks one due received event; answers false when none is left to claim. */
async function processOne(services: MessageServices, retry: EventRetrySettings): Promise<boolean> {
  const { db } = services;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: providerEvents.id, payload: providerEvents.payload, attempts: providerEvents.attempts })
      .from(providerEvents)
      .where(and(eq(providerEvents.state, "received"), lte(providerEvents.nextAttemptAt, new Date())))
      .orderBy(asc(providerEvents.createdAt), asc(providerEvents.receivedAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return false;
    const attempts = row.attempts + 1;
    try {
      await tx.transaction(async (attempt) => {
        const applied = await applyProviderEvent(attempt, row.payload as ProviderEvent, services.env);
        // The notices (notification rows and their queued e-mails) commit with the change, or not at all.
        await sendLifecycleNotices(services, applied.notices, attempt);
        await attempt
          .update(providerEvents)
          .set({ state: applied.handled ? "processed" : "ignored", processedAt: new Date(), attempts })
          .where(eq(providerEvents.id, row.id));
      });
    } catch (error) {
      // Rolled back to the savepoint: nothing of the attempt stays but its count and its error.
      const lastError = errorText(error);
      const failed = attempts >= retry.maxAttempts;
      logger.error(
        { err: error },
        `provider event ${row.id} attempt ${attempts} failed${failed ? " (giving up)" : ""}`,
      );
      metricsOf(db)?.countProviderEventFailure(failed ? "failed" : "retry");
      await tx
        .update(providerEvents)
        .set(
          failed
            ? { state: "failed", lastError, attempts, processedAt: new Date() }
            : { lastError, attempts, nextAttemptAt: new Date(Date.now() + retry.retryDelayMs(attempts)) },
        )
        .where(eq(providerEvents.id, row.id));
    }
    return true;
  });
}

/**
 * Processes every due received event; safe to run in several processes at once. Answers how many
 * attempts it made (an event retried within the same drain counts each time).
 */
export async function drainProviderEvents(
  services: MessageServices,
  retry: EventRetrySettings = DEFAULT_EVENT_RETRY,
): Promise<number> {
  let taken = 0;
  while (await processOne(services, retry)) taken += 1;
  return taken;
}

/**
 * Staff's "Retry now" on a failed event: received again and due at once, its attempts and last error
 * kept (one more failure marks it failed again). Answers false when the event is not failed.
 */
export async function requeueFailedEvent(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(providerEvents)
    .set({ state: "received", nextAttemptAt: new Date(), processedAt: null })
    .where(and(eq(providerEvents.id, id), eq(providerEvents.state, "failed")))
    .returning({ id: providerEvents.id });
  return rows.length > 0;
}

/** Events waiting (received) or given up (failed), by state: for the metrics, read at each scrape. */
export async function providerEventCounts(db: Database): Promise<{ state: string; count: number }[]> {
  return db
    .select({ state: providerEvents.state, count: sql<number>`count(*)::int` })
    .from(providerEvents)
    .where(inArray(providerEvents.state, ["received", "failed"]))
    .groupBy(providerEvents.state);
}

type Drainer = { running?: Promise<unknown>; again: boolean; retry: EventRetrySettings };
const drainers = new WeakMap<Database, Drainer>();

/**
 * Starts a drain now, in the background (after the webhook stored an event); one at a time per
 * process, run once more if asked while running. Resolves when this process's drains are done.
 */
export function drainSoon(services: MessageServices): Promise<unknown> {
  let drainer = drainers.get(services.db);
  if (!drainer) {
    drainer = { again: false, retry: DEFAULT_EVENT_RETRY };
    drainers.set(services.db, drainer);
  }
  const state = drainer;
  if (state.running) {
    state.again = true;
    return state.running;
  }
  const run = async (): Promise<void> => {
    do {
      state.again = false;
      await drainProviderEvents(services, state.retry).catch((error) =>
        logger.error({ err: error }, "provider events could not be drained"),
      );
    } while (state.again);
  };
  state.running = run().finally(() => {
    state.running = undefined;
  });
  return state.running;
}

/**
 * The drain on a timer (every app process and the worker): picks up what a crash or a stopped
 * process left received, and the retries as they fall due. `retry` sets this process's backoff (for
 * every drain of this database, the webhook's and staff's too). Stopping waits for the drain under way.
 */
export function startProviderEventDrain(
  services: MessageServices,
  options: { intervalMs?: number; retry?: Partial<EventRetrySettings> } = {},
) {
  const drainer = drainers.get(services.db) ?? { again: false, retry: DEFAULT_EVENT_RETRY };
  drainer.retry = { ...DEFAULT_EVENT_RETRY, ...options.retry };
  drainers.set(services.db, drainer);
  const timer = setInterval(() => void drainSoon(services), options.intervalMs ?? 30_000);
  timer.unref();
  void drainSoon(services);
  return {
    async stop() {
      clearInterval(timer);
      await drainers.get(services.db)?.running;
    },
  };
}
