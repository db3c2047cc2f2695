import { data, type RouterContextProvider } from "react-router";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { parseId } from "~/shared/ids";
import { Role } from "~/shared/roles";
import type { Actor } from "./auction-changes.server";
import { type AuctionWithLots, findAuction, isInvited, type Viewer, viewerOf } from "./auction-views.server";

// Who may reach an auction's pages. Anyone who may not see an auction gets the same 404 as for an
// auction that does not exist, so its existence is not given away.

type Context = Readonly<RouterContextProvider>;

/** A buyer or consultant with an organization: those who run auctions. */
export function requireAuctionRunner(request: Request, context: Context): CurrentUser & Actor {
  const user = requireUser(request, context);
  if ((user.role !== Role.Buyer && user.role !== Role.Consultant) || !user.organizationId)
    throw data(null, { status: 403 });
  return { ...user, userId: user.id, organizationId: user.organizationId };
}

export async function requireAuction(
  request: Request,
  context: Context,
  rawId: string | undefined,
): Promise<{ user: CurrentUser; auction: AuctionWithLots; viewer: Viewer }> {
  const user = requireUser(request, context);
  const id = parseId(rawId);
  const { db } = context.get(appServicesContext);
  // A seller's invitation is read with the auction, not after it: one round trip fewer.
  const seller = user.role === Role.Seller && user.organizationId !== null;
  const [auction, invited] = id
    ? await Promise.all([findAuction(db, id), seller ? isInvited(db, id, user.organizationId as number) : undefined])
    : [undefined, undefined];
  const viewer = auction ? await viewerOf(db, auction, user, invited) : null;
  if (!auction || !viewer) throw data(null, { status: 404 });
  return { user, auction, viewer };
}

/** Staff and the evaluator read the whole auction but do not run it: 403 rather than 404 for them. */
export const readsOnly = (viewer: Viewer) => viewer.kind === "staff" || viewer.kind === "evaluator";

/** The auction's own side (buyer or consultant organization): the only one that changes it. */
export async function requireAuctionOwner(request: Request, context: Context, rawId: string | undefined) {
  const found = await requireAuction(request, context, rawId);
  if (found.viewer.kind !== "owner") throw data(null, { status: readsOnly(found.viewer) ? 403 : 404 });
  const actor: Actor = { userId: found.user.id, organizationId: found.viewer.organizationId };
  return { ...found, actor };
}
