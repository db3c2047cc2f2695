import { appServicesContext } from "~/server/app-context";
import { getCurrentUser } from "~/sessions/auth.server";
import type { Route } from "./+types/auction-events";
import { auctionEventStream, eventStreamAccess, eventStreamHeaders } from "./auction-events.server";

// GET /auctions/:auctionId/events: the auction's live view as server-sent events (see auction-events.server.ts).
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, auctionLive } = context.get(appServicesContext);
  const access = await eventStreamAccess(db, getCurrentUser(context), params.auctionId);
  if (access instanceof Response) return access;
  // HEAD: the headers only; a stream nobody reads would keep its subscription.
  if (request.method === "HEAD") return new Response(null, { headers: eventStreamHeaders });
  return auctionEventStream(db, auctionLive, access, request.signal);
}
