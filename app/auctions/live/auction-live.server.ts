import { createHash } from "node:crypto";
import { logger } from "~/platform/logger.server";
import { metricsOf } from "~/platform/metrics.server";
import { zonedTexts } from "~/platform/zoned-time";
import type { DatabaseHandle } from "~db/database.server";
import { AUCTION_CHANNEL } from "../auction-changes.server";
import { type AuctionView, findAuction, type Viewer, viewsFor } from "../auction-views.server";
import type { AuctionLive, LiveSubscriber, LiveView } from "./auction-live-hub";

// Live updates (issue 9): one hub per app process. Every change to an auction ends its transaction
// with `pg_notify('auction_events', '<auctionId>')` (auction-changes.server.ts); PostgreSQL delivers it to every
// app machine that LISTENs, on commit. The hub LISTENs on one dedicated connection, and for each
// auction someone watches it rebuilds the views and hands them to the watchers (the event streams of
// auction-events.server.ts).
//
// Bursts are coalesced: the views of an auction are built by one run at a time; notifications that
// arrive while a run builds only mark the auction changed, and the next run builds once for all of
// them. Within a run each distinct view is built once, however many watch it: the side that runs the
// auction and staff share one (every bid, with names), each invited seller organization has its own
// (the lowest price, whether they lead, their own bids and minimum; nothing of the others).
//
// A seller must not learn from the stream how busy the others are (issue 17): an event's id is a
// digest of what that viewer sees, not a counter of the auction, and a stream is sent a view only
// when what its viewer sees changed. Another seller's minimum, a bid elsewhere or a bare notification
// send nothing; the time an event arrives is that of a change the viewer can see anyway.

const encoder = new TextEncoder();

/**
 * The view as a server-sent event, with its times formatted in the reader's zone (`times`, as the
 * page's loader gives them: the browser never formats a zoned time). `data:` is one line, as JSON
 * escapes line breaks.
 */
export function liveView(view: AuctionView, timezone: string): LiveView {
  const json = JSON.stringify({ ...view, times: zonedTexts(view, timezone) });
  const id = viewId(view);
  return { id, view, json, event: encoder.encode(`id: ${id}\nevent: view\ndata: ${json}\n\n`) };
}

/**
 * The event id of a view: a digest of its content without the moment it was made (`serverTime`,
 * and `timeLeftMs`, which follows from it and the end the view shows). Made only of what the viewer
 * reads in the view itself, so it tells a seller nothing more (no bid sequence, no update time).
 */
export function viewId(view: AuctionView): string {
  const content = JSON.stringify({ ...view, serverTime: undefined, timeLeftMs: undefined });
  return createHash("sha256").update(content).digest("base64url").slice(0, 22);
}

export type AuctionLiveOptions = {
  /** How long to wait after an idle auction's first notification before building, to gather a burst (default 0: next turn of the event loop). */
  burstMs?: number;
  /** Wait before retrying a run that failed (the database went away), default 1 s. */
  retryMs?: number;
};

type Subscription = {
  viewer: Viewer;
  timezone: string;
  key: string;
  subscriber: LiveSubscriber;
  /** The id of the last view sent: a view with the same id is not sent again. Unset until the first. */
  sentId: string | undefined;
};

type Watched = {
  auctionId: number;
  subscriptions: Set<Subscription>;
  /** A notification came since the last run began: every subscriber needs a new view. */
  changed: boolean;
  /** New subscribers still waiting for their first view. */
  fresh: Set<Subscription>;
  timer: ReturnType<typeof setTimeout> | undefined;
  running: Promise<void> | undefined;
  /** This auction's counters while it is watched (the hub's own count every auction). */
  counts: Counts;
};

type Counts = { notifications: number; runs: number; viewsBuilt: number; viewsDelivered: number };

/**
 * Subscribers who get the same view: each seller organization its own; the running side and staff
 * the full one (built once for both: they differ only in naming their reader).
 */
function viewerKey(viewer: Viewer): string {
  return viewer.kind === "seller" ? `seller:${viewer.organizationId}` : viewer.kind;
}

/** Subscribers who get the same bytes: the same view, its times in the same zone. */
const groupKey = (viewer: Viewer, timezone: string) => `${viewerKey(viewer)}@${timezone}`;

const zeroCounts = (): Counts => ({ notifications: 0, runs: 0, viewsBuilt: 0, viewsDelivered: 0 });

/** Starts the hub on the database's notification channel; resolves once it listens. */
export async function createAuctionLive(
  database: Pick<DatabaseHandle, "db" | "listen">,
  options: AuctionLiveOptions = {},
): Promise<AuctionLive> {
  const { db } = database;
  const burstMs = options.burstMs ?? 0;
  const retryMs = options.retryMs ?? 1_000;
  const watched = new Map<number, Watched>();
  const stats = zeroCounts();
  /** Counts for the hub and for the auction at once. */
  const count = (entry: Watched | undefined, counter: keyof Counts, by = 1) => {
    stats[counter] += by;
    if (entry) entry.counts[counter] += by;
  };
  let closed = false;

  function schedule(entry: Watched, delay = burstMs) {
    if (closed || entry.running || entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      entry.running = run(entry).finally(() => {
        entry.running = undefined;
        if (entry.subscriptions.size === 0) forget(entry);
        else if (entry.changed || entry.fresh.size > 0) schedule(entry, 0);
      });
    }, delay);
  }

  function forget(entry: Watched) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    if (watched.get(entry.auctionId) === entry && !entry.running) watched.delete(entry.auctionId);
  }

  /** Builds until nothing is left to send; a notification arriving meanwhile makes one more round. */
  async function run(entry: Watched) {
    while (!closed && (entry.changed || entry.fresh.size > 0)) {
      const targets = entry.changed ? [...entry.subscriptions] : [...entry.fresh];
      const wasChanged = entry.changed;
      entry.changed = false;
      entry.fresh = new Set();
      try {
        await deliver(entry, targets);
      } catch (error) {
        if (closed) return;
        logger.error({ err: error }, `live views of auction ${entry.auctionId} failed; retrying`);
        if (wasChanged) entry.changed = true;
        for (const target of targets) if (entry.subscriptions.has(target)) entry.fresh.add(target);
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  }

  async function deliver(entry: Watched, targets: Subscription[]) {
    count(entry, "runs");
    const now = new Date();
    const auction = await findAuction(db, entry.auctionId);
    if (!auction) {
      for (const subscription of [...entry.subscriptions]) subscription.subscriber.onEnd();
      entry.subscriptions.clear();
      return;
    }
    // Views by viewer; bytes by viewer and time zone.
    const viewers = new Map<string, Viewer>();
    const groups = new Map<string, Subscription[]>();
    for (const target of targets) {
      viewers.set(target.key, target.viewer);
      const key = groupKey(target.viewer, target.timezone);
      const group = groups.get(key);
      if (group) group.push(target);
      else groups.set(key, [target]);
    }
    const viewerKeys = [...viewers.keys()];
    const built = await viewsFor(db, auction, [...viewers.values()], now);
    const views = new Map(viewerKeys.map((key, index) => [key, built[index] as AuctionView]));
    // From the database: each seller's view, and the full one once for the running side and staff.
    count(entry, "viewsBuilt", viewerKeys.filter((key) => viewers.get(key)?.kind === "seller").length);
    if (viewerKeys.some((key) => viewers.get(key)?.kind !== "seller")) count(entry, "viewsBuilt");
    let delivered = false;
    for (const group of groups.values()) {
      const first = group[0] as Subscription;
      const live = liveView(views.get(first.key) as AuctionView, first.timezone);
      for (const subscription of group) {
        if (closed || !entry.subscriptions.has(subscription)) continue;
        if (subscription.sentId === live.id) continue;
        subscription.sentId = live.id;
        count(entry, "viewsDelivered");
        delivered = true;
        try {
          subscription.subscriber.onView(live);
        } catch (error) {
          logger.error({ err: error }, "a live view subscriber failed");
        }
      }
    }
    // The bids this process committed on the auction reached its watchers' streams now.
    if (delivered) metricsOf(db)?.bidEventsDelivered(entry.auctionId);
  }

  function changed(auctionId: number) {
    const entry = watched.get(auctionId);
    if (!entry) return;
    entry.changed = true;
    schedule(entry);
  }

  const unlisten = await database.listen(
    AUCTION_CHANNEL,
    (payload) => {
      const auctionId = Number(payload);
      count(Number.isSafeInteger(auctionId) ? watched.get(auctionId) : undefined, "notifications");
      if (Number.isSafeInteger(auctionId)) changed(auctionId);
    },
    // Runs again after the dedicated connection was lost and came back: anything may have changed.
    () => {
      for (const auctionId of watched.keys()) changed(auctionId);
    },
  );

  return {
    subscribe(auctionId, viewer, timezone, subscriber) {
      if (closed) {
        queueMicrotask(() => subscriber.onEnd());
        return () => {};
      }
      let entry = watched.get(auctionId);
      if (!entry) {
        entry = {
          auctionId,
          subscriptions: new Set(),
          changed: false,
          fresh: new Set(),
          timer: undefined,
          running: undefined,
          counts: zeroCounts(),
        };
        watched.set(auctionId, entry);
      }
      const subscription: Subscription = {
        viewer,
        timezone,
        key: viewerKey(viewer),
        subscriber,
        sentId: undefined,
      };
      entry.subscriptions.add(subscription);
      entry.fresh.add(subscription);
      schedule(entry);
      const current = entry;
      return () => {
        current.subscriptions.delete(subscription);
        current.fresh.delete(subscription);
        if (current.subscriptions.size === 0) forget(current);
      };
    },
    stats(auctionId) {
      const entries = auctionId === undefined ? [...watched.values()] : [watched.get(auctionId)].filter(Boolean);
      let subscribers = 0;
      for (const entry of entries) subscribers += entry?.subscriptions.size ?? 0;
      const counts = auctionId === undefined ? stats : (watched.get(auctionId)?.counts ?? zeroCounts());
      return { ...counts, subscribers, auctions: entries.length };
    },
    async close() {
      if (closed) return;
      closed = true;
      await unlisten().catch(() => {});
      const running: Promise<void>[] = [];
      for (const entry of watched.values()) {
        if (entry.timer) clearTimeout(entry.timer);
        if (entry.running) running.push(entry.running);
        for (const subscription of entry.subscriptions) subscription.subscriber.onEnd();
        entry.subscriptions.clear();
      }
      watched.clear();
      await Promise.allSettled(running);
    },
  };
}
