import { sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { logger } from "~/platform/logger.server";
import type { DatabaseHandle } from "~db/database.server";
import type { Executor, Messaging } from "../messaging.server";
import { claimableIds, deliverMessage, nextDueAt, OUTBOX_CHANNEL } from "./outbox.server";

// Each process that serves works the outbox (issue 19), so messages go out whether or not a separate
// worker runs. On PostgreSQL through pg-boss: a job per message, created in the transaction that
// queues it; a retry is a job that starts after the backoff; a sweep every minute (and one at start)
// takes whatever a lost job left queued. On the embedded database (no pg-boss) the process drains due
// rows itself, woken when a transaction that queued a message commits and when the next retry is due.

export const DELIVERY_QUEUE = "outbox-delivery";
export const SWEEP_QUEUE = "outbox-sweep";
const SWEEP_CRON = "* * * * *";
const BATCH = 20;
/** Jobs a pg-boss worker fetches at once: few, so a stopping process has little in hand to finish. */
const DELIVERY_BATCH = 5;
/** How long after a retry's time its worker is woken: pg-boss compares `startAfter` with the database's clock. */
const RETRY_WAKE_MARGIN_MS = 50;
/** Retries due within this long get a timer that wakes the worker; later ones wait for a poll. */
const WAKE_FOR_RETRIES_WITHIN_MS = 60_000;

export type MessageDelivery = {
  /** Looks at the queue now (after a request queued something). */
  wake(): void;
  stop(): Promise<void>;
};

/** Sends every message due now, once (a command that exits afterwards). */
export const drainQueue = (database: DatabaseHandle, messaging: Messaging) =>
  drainAll(database, messaging, (id, at) => messaging.hook?.retryAt(id, at));

/** Drains claimable rows until none is left. */
async function drainAll(database: DatabaseHandle, messaging: Messaging, onRetry?: (id: number, at: Date) => unknown) {
  for (;;) {
    const ids = await claimableIds(database.db, BATCH);
    for (const id of ids) {
      await deliverMessage(database.db, messaging, id, { onRetry: async (_, at) => void (await onRetry?.(id, at)) });
    }
    if (ids.length < BATCH) return;
  }
}

export async function startMessageDelivery(
  database: DatabaseHandle,
  messaging: Messaging,
  options: { connectionString?: string } = {},
): Promise<MessageDelivery> {
  return options.connectionString
    ? startPgBossDelivery(database, messaging, options.connectionString)
    : startDrainLoop(database, messaging);
}

/** The embedded database's delivery: one loop per process. */
async function startDrainLoop(database: DatabaseHandle, messaging: Messaging): Promise<MessageDelivery> {
  let stopped = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const unlisten = await database.listen(OUTBOX_CHANNEL, wake);
  // A retry scheduled outside the loop (a request's own first attempt failed) may fall due before the
  // loop's next look: waking it recomputes the next due time, so a quick retry is not held to pollMs.
  messaging.hook = { async enqueued() {}, retryAt: async () => wake() };
  const loop = (async () => {
    while (!stopped) {
      let delay = messaging.settings.pollMs;
      try {
        woken = false;
        await drainAll(database, messaging);
        const next = await nextDueAt(database.db);
        if (next) delay = Math.max(0, Math.min(delay, next.getTime() - Date.now()));
      } catch (error) {
        if (!stopped) logger.error({ err: error }, "message delivery failed");
      }
      if (stopped || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })();
  return {
    wake,
    async stop() {
      messaging.hook = undefined;
      stopped = true;
      wake();
      await loop;
      await unlisten();
    },
  };
}

/** pg-boss's connection seen through a Drizzle executor, so a job is inserted in the caller's transaction. */
export function pgBossExecutor(executor: Executor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        const value = values[Number(match[1]) - 1];
        const param =
          value === undefined
            ? null
            : value instanceof Date
              ? value.toISOString()
              : value !== null && typeof value === "object"
                ? JSON.stringify(value)
                : value;
        chunks.push(sql`${param}`);
        last = (match.index ?? 0) + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = (await executor.execute(sql.join(chunks))) as unknown;
      const rows = Array.isArray(result) ? [...result] : ((result as { rows?: unknown[] }).rows ?? []);
      return { rows };
    },
  };
}

/** PostgreSQL's delivery: pg-boss workers in this process, alongside those of every other process. */
async function startPgBossDelivery(
  database: DatabaseHandle,
  messaging: Messaging,
  connectionString: string,
): Promise<MessageDelivery> {
  const boss = new PgBoss({ connectionString, schema: "pgboss", max: 2, application_name: "outbox-delivery" });
  boss.on("error", (error) => logger.error({ err: error }, "message delivery queue failed"));
  await boss.start();
  // Our own backoff spaces the retries (each a new job): pg-boss's retries only cover a job whose
  // handler crashed (the database went away).
  await boss.createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, retryLimit: 3, retryDelay: 5, retryBackoff: true });
  await boss.createQueue(SWEEP_QUEUE, { name: SWEEP_QUEUE, policy: "singleton" });
  await boss.schedule(SWEEP_QUEUE, SWEEP_CRON, {}, { tz: "UTC" });

  const pollingIntervalSeconds = Math.max(0.5, messaging.settings.pollMs / 1000);
  // A retry's job waits for its time in pg-boss, whose workers look only every pollMs: this process
  // also wakes its worker when the retry falls due (a moment after, for the database's clock), so a
  // retry a second away is not held to the next poll.
  const retryTimers = new Set<NodeJS.Timeout>();
  let stopping = false;
  let deliveryWorker: string | undefined;
  const wakeWorkerAt = (at: Date) => {
    if (stopping) return;
    const timer = setTimeout(
      () => {
        retryTimers.delete(timer);
        if (deliveryWorker) boss.notifyWorker(deliveryWorker);
      },
      Math.max(0, at.getTime() - Date.now()) + RETRY_WAKE_MARGIN_MS,
    );
    timer.unref();
    retryTimers.add(timer);
  };
  const retryLater = async (id: number, at: Date) => {
    await boss.send(DELIVERY_QUEUE, { id }, { startAfter: at });
    // A poll's few seconds matter to a retry due soon (a waited-for message's 8 s), not to one an hour away.
    if (at.getTime() - Date.now() < WAKE_FOR_RETRIES_WITHIN_MS) wakeWorkerAt(at);
  };
  messaging.hook = {
    async enqueued(executor, id, startAfter) {
      await boss.send(DELIVERY_QUEUE, { id }, { startAfter, db: pgBossExecutor(executor) });
    },
    retryAt: retryLater,
  };
  // pg-boss's worker waits a whole poll after each batch it fetched, even with more jobs waiting: a
  // commit that queued 45 closing notices would send them one batch per poll (a minute here). After a
  // batch, it is woken to fetch the next at once, until a fetch finds nothing due.
  deliveryWorker = await boss.work<{ id: number }>(
    DELIVERY_QUEUE,
    { pollingIntervalSeconds, batchSize: DELIVERY_BATCH },
    async (jobs) => {
      for (const job of jobs) await deliverMessage(database.db, messaging, job.data.id, { onRetry: retryLater });
      if (jobs.length > 0 && deliveryWorker && !stopping) boss.notifyWorker(deliveryWorker);
    },
  );
  await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds }, async () => {
    await drainAll(database, messaging, retryLater);
  });
  // Whatever a crash or a lost job left behind, at start rather than at the next minute.
  await boss.send(SWEEP_QUEUE, {});
  const worker = deliveryWorker;
  const wake = () => boss.notifyWorker(worker);
  // A commit that queued a message: this process's worker fetches at once rather than at its next poll.
  const unlisten = await database.listen(OUTBOX_CHANNEL, wake);
  return {
    wake,
    async stop() {
      stopping = true;
      for (const timer of retryTimers) clearTimeout(timer);
      messaging.hook = undefined;
      await unlisten();
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
    },
  };
}
