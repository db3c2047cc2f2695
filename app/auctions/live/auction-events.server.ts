import { logger } from "~/platform/logger.server";
import type { CurrentUser } from "~/sessions/current-user";
import { parseId } from "~/shared/ids";
import type { Database } from "~db/database.server";
import { type AuctionWithLots, findAuction, type Viewer, viewerOf, viewFor } from "../auction-views.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { liveView } from "./auction-live.server";
import type { AuctionLive } from "./auction-live-hub";

// GET /auctions/:auctionId/events (issue 9): the auction's view for this user as server-sent events.
// The current view at once, then a new one after every change (from the live hub), a comment every
// 20 s so proxies keep the connection, and `retry: 5000` so the browser reconnects (to any machine)
// five seconds after losing it. A slow reader never piles views up: only the newest unsent one waits.
// Every connection starts with the current view, so a reconnection's Last-Event-ID needs no lookup:
// an event id is a digest of what the viewer sees (auction-live.server.ts), never a count of bids.

export const HEARTBEAT_MS = 20_000;
export const RETRY_MS = 5_000;

export const eventStreamHeaders = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  // nginx-style proxies: send each event on at once instead of buffering the response.
  "X-Accel-Buffering": "no",
};

function refusal(status: 401 | 404, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The auction, who follows it, and the zone their times are shown in. */
type Access = { auction: AuctionWithLots; viewer: Viewer; timezone: string };

/** Who may follow the auction: 401 for visitors, 404 for a bad id or anyone `viewerOf` turns away. */
export async function eventStreamAccess(
  db: Database,
  user: CurrentUser | null,
  auctionIdParam: string | undefined,
): Promise<Access | Response> {
  if (!user) return refusal(401, "Please sign in to follow this auction.");
  const notFound = () => refusal(404, "This auction does not exist or you may not see it.");
  const auctionId = parseId(auctionIdParam);
  if (!auctionId) return notFound();
  const auction = await findAuction(db, auctionId);
  if (!auction) return notFound();
  const viewer = await viewerOf(db, auction, user);
  return viewer ? { auction, viewer, timezone: timezoneOf(user) } : notFound();
}

export type EventStreamOptions = { heartbeatMs?: number };

/**
 * The event stream answer. With the hub, the stream stays open until the client leaves (the
 * request's signal) or the hub closes; without it (a tool that built services by hand) it sends the
 * current view and ends, and the browser's reconnection every five seconds makes it a poll.
 */
export function auctionEventStream(
  db: Database,
  live: AuctionLive | undefined,
  access: Access,
  signal: AbortSignal,
  options: EventStreamOptions = {},
): Response {
  const encoder = new TextEncoder();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  let text = `retry: ${RETRY_MS}\n\n`;
  let latestView: Uint8Array | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe?.();
    unsubscribe = undefined;
    if (heartbeat) clearInterval(heartbeat);
    signal.removeEventListener("abort", end);
    poke();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start() {
        if (signal.aborted) return end();
        signal.addEventListener("abort", end, { once: true });
        if (live) {
          // The hub builds this subscriber's first view after it subscribed: no change falls between.
          unsubscribe = live.subscribe(access.auction.id, access.viewer, access.timezone, {
            onView(view) {
              latestView = view.event;
              poke();
            },
            onEnd: end,
          });
          heartbeat = setInterval(() => {
            text += ": heartbeat\n\n";
            poke();
          }, heartbeatMs);
        } else {
          const { auction, viewer, timezone } = access;
          viewFor(db, auction, viewer).then(
            (view) => {
              latestView = liveView(view, timezone).event;
              end();
            },
            (error) => {
              logger.error({ err: error }, `the view of auction ${auction.id} failed`);
              end();
            },
          );
        }
      },
      // Called when the connection can take more: sends what waits (the newest view only), or waits for it.
      async pull(controller) {
        while (!ended && !text && !latestView) await new Promise<void>((resolve) => (wake = resolve));
        if (text || latestView) {
          // Comments and the retry line are rare and tiny; a view's bytes are shared by every stream of its viewer.
          if (text) controller.enqueue(encoder.encode(text));
          if (latestView) controller.enqueue(latestView);
          text = "";
          latestView = undefined;
        } else {
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader.
          }
        }
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: eventStreamHeaders });
}
