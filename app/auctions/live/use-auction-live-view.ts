import { useEffect, useState } from "react";

// Browser side of live updates (issue 9). The auction page is server-rendered with the view its
// loader built, a refresh link and plain forms; these hooks only make it nicer once JavaScript runs:
// the view follows GET /auctions/:auctionId/events, and the time left ticks down between events.
// No library: EventSource and a timer.

/** What the hooks read of a view (every view of auction-views.server.ts has these). */
export type LiveAuctionView = {
  status: string;
  /** When the server made the view (ISO 8601). */
  serverTime: string;
  /** Time left, computed on the server when it made the view: to the end when open, to the start when scheduled, else 0. */
  timeLeftMs: number;
};

/** The newer of two views by the server's clock (equal: the second, which arrived later). */
export function newerView<V extends LiveAuctionView>(a: V, b: V): V {
  return Date.parse(a.serverTime) > Date.parse(b.serverTime) ? a : b;
}

/** The time left `elapsedMs` after receiving a view that said `timeLeftMs`; never below 0. */
export function timeLeftAfter(timeLeftMs: number, elapsedMs: number): number {
  return Math.max(0, timeLeftMs - Math.max(0, elapsedMs));
}

/**
 * The auction's view, kept current by the server's event stream.
 *
 * Give it the view the loader returned. After hydration it opens an EventSource on
 * `/auctions/<auctionId>/events` and answers each `view` event's view; whichever of that and the
 * loader's view is newer wins, so a revalidation after the user's own bid is never overwritten by an
 * older event. `live` is true while the stream is connected: a page may hide its refresh link then.
 * When EventSource is missing or fails, nothing is shown: `live` stays false, the view stays the
 * loader's and the page works as it does without JavaScript (the browser retries a dropped stream
 * every five seconds by itself; a refused one, 401/404, is not retried).
 *
 * ```tsx
 * const { view, live } = useAuctionLiveView(auction.terms.id, loaderData.view);
 * const timeLeftMs = useTimeLeft(view);
 * ```
 */
export function useAuctionLiveView<V extends LiveAuctionView>(
  auctionId: number,
  initialView: V,
): { view: V; live: boolean } {
  const [streamed, setStreamed] = useState<V | null>(null);
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    setStreamed(null);
    let source: EventSource;
    try {
      source = new EventSource(`/auctions/${encodeURIComponent(String(auctionId))}/events`);
    } catch {
      return;
    }
    const onView = (event: MessageEvent<string>) => {
      try {
        setStreamed(JSON.parse(event.data) as V);
        setLive(true);
      } catch {
        // A malformed event: keep the view we have.
      }
    };
    const onError = () => setLive(false);
    source.addEventListener("view", onView);
    source.addEventListener("error", onError);
    return () => {
      source.removeEventListener("view", onView);
      source.removeEventListener("error", onError);
      source.close();
      setLive(false);
    };
  }, [auctionId]);

  return { view: streamed ? newerView(initialView, streamed) : initialView, live };
}

/**
 * Milliseconds left (to the end while open, to the start while scheduled), counted down locally
 * from the view's `timeLeftMs`. The server decides the time left; the browser only ticks it down
 * from the moment it received the view, once a second, and starts again from each new view. Renders
 * the server's number on the server and at hydration, so both agree.
 */
export function useTimeLeft(view: LiveAuctionView, tickMs = 1_000): number {
  const [left, setLeft] = useState(view.timeLeftMs);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view (a new serverTime) restarts the count, even with the same numbers
  useEffect(() => {
    const receivedAt = performance.now();
    const remaining = () => timeLeftAfter(view.timeLeftMs, performance.now() - receivedAt);
    setLeft(view.timeLeftMs);
    if (view.timeLeftMs <= 0 || (view.status !== "open" && view.status !== "scheduled")) return;
    const timer = setInterval(() => {
      const value = remaining();
      setLeft(value);
      if (value <= 0) clearInterval(timer);
    }, tickMs);
    return () => clearInterval(timer);
  }, [view.timeLeftMs, view.status, view.serverTime, tickMs]);

  return left;
}
