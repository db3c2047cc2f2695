import type { AuctionView, Viewer } from "../auction-views.server";

// The live-updates hub's interface (issue 9): what the router context carries and the event streams
// subscribe to. Kept apart from the hub that implements it (auction-live.server.ts), so that
// server/app-context.ts names the hub without importing what builds it.

/** A view ready to send: made once per run, viewer and time zone, shared by every stream of that viewer in that zone. */
export type LiveView = {
  /** A digest of what the viewer sees (`viewId`): the same on every machine, and the same while nothing they see changed. */
  id: string;
  view: AuctionView;
  json: string;
  /** The server-sent event (`id:`, `event: view`, `data:`), encoded. */
  event: Uint8Array;
};

export type LiveSubscriber = {
  /** A newer view of the auction for this subscriber's viewer (the first one right after subscribing). */
  onView(view: LiveView): void;
  /** The auction is gone or the hub is closing: end the stream (the browser reconnects elsewhere). */
  onEnd(): void;
};

export type LiveStats = {
  /** Notifications received for any auction (watched or not). */
  notifications: number;
  /** Runs: rounds of building and sending an auction's views (a burst of notifications makes one or two). */
  runs: number;
  /** Views built from the database (one per distinct viewer per run). */
  viewsBuilt: number;
  /** Views handed to subscribers (a view the subscriber already has is not handed again). */
  viewsDelivered: number;
  subscribers: number;
  auctions: number;
};

export type AuctionLive = {
  /**
   * Watches an auction as this viewer (who must be allowed to see it: `viewerOf` answered them), with
   * times formatted in `timezone`. Answers the unsubscribe function.
   */
  subscribe(auctionId: number, viewer: Viewer, timezone: string, subscriber: LiveSubscriber): () => void;
  /**
   * Counters since start and `subscribers` and `auctions` now; of one auction only when given (its
   * counters since it has been watched), so one auction's numbers are never another's.
   */
  stats(auctionId?: number): LiveStats;
  /** Stops listening and ends every subscriber's stream. */
  close(): Promise<void>;
};
