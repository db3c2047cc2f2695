import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { providerEvents } from "~db/schema";
import { applyProviderEvent, type LifecycleServices, sendLifecycleNotices } from "./lifecycle.server";
import type { ProviderEvent } from "./provider-event";

// The provider's events (issue 19), stored once and processed outside the request. The webhook (or
// the test provider) stores an event in the request and answers at once; a drain in each app process
// and in the worker claims the received rows one at a time (FOR UPDATE SKIP LOCKED, so several
// machines never take the same one), applies each in the claim's transaction and marks it processed,
// ignored or failed with the error. A crash rolls the claim back: the row stays received and the
// next drain takes it.

/** Stores the event once; answers false for a replay (its id is already stored), which changes nothing. */
export async function storeProviderEvent(db: Database, event: ProviderEvent): Promise<boolean> {
  const inserted = await db
    .insert(providerEvents)
    .values({
      id: event.id,
      type: event.type,
      createdAt: new Date(event.created * 1000),
      payload: event,
    })
    .onConflictDoNothing({ target: providerEvents.id })
    .returning({ id: providerEvents.id });
  return inserted.length > 0;
}

/** Claims, applies and marks one received event; answers false when none is left to claim. */
async function processOne(services: LifecycleServices): Promise<boolean> {
  const { db } = services;
  let claimedId: string | undefined;
  try {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: providerEvents.id, payload: providerEvents.payload })
        .from(providerEvents)
        .where(eq(providerEvents.state, "received"))
        .orderBy(asc(providerEvents.createdAt), asc(providerEvents.receivedAt))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return undefined;
      claimedId = row.id;
      const applied = await applyProviderEvent(tx, row.payload as ProviderEvent, services.env);
      await tx
        .update(providerEvents)
        .set({
          state: applied.handled ? "processed" : "ignored",
          processedAt: new Date(),
          attempts: sql`${providerEvents.attempts} + 1`,
        })
        .where(eq(providerEvents.id, row.id));
      // The notices (notification rows and their queued e-mails) commit with the change, or not at all.
      await sendLifecycleNotices(services, applied.notices, tx);
      return applied;
    });
    if (!outcome) return false;
    return true;
  } catch (error) {
    if (!claimedId) throw error;
    // The event itself could not be applied (a bug, a shape we do not know): kept with the error for
    // staff, and not taken again, so one bad event cannot stop the others.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`provider event ${claimedId} failed:`, message);
    await db
      .update(providerEvents)
      .set({ state: "failed", error: message, processedAt: new Date(), attempts: sql`${providerEvents.attempts} + 1` })
      .where(and(eq(providerEvents.id, claimedId), eq(providerEvents.state, "received")));
    return true;
  }
}

/** Processes every received event; safe to run in several processes at once. Answers how many it took. */
export async function drainProviderEvents(services: LifecycleServices): Promise<number> {
  let taken = 0;
  while (await processOne(services)) taken += 1;
  return taken;
}

type Drainer = { running?: Promise<unknown>; again: boolean };
const drainers = new WeakMap<Database, Drainer>();

/**
 * Starts a drain now, in the background (after the webhook stored an event); one at a time per
 * process, run once more if asked while running. Resolves when this process's drains are done.
 */
export function drainSoon(services: LifecycleServices): Promise<unknown> {
  let drainer = drainers.get(services.db);
  if (!drainer) {
    drainer = { again: false };
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
      await drainProviderEvents(services).catch((error) => console.error("provider events:", error));
    } while (state.again);
  };
  state.running = run().finally(() => {
    state.running = undefined;
  });
  return state.running;
}

/**
 * The drain on a timer (every app process and the worker): picks up what a crash or a stopped
 * process left received. Stopping waits for the drain under way.
 */
export function startProviderEventDrain(services: LifecycleServices, intervalMs = 30_000) {
  const timer = setInterval(() => void drainSoon(services), intervalMs);
  timer.unref();
  void drainSoon(services);
  return {
    async stop() {
      clearInterval(timer);
      await drainers.get(services.db)?.running;
    },
  };
}
