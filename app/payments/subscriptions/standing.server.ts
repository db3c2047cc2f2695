import { eq, inArray, or } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, sellerSubscriptions } from "~db/schema";
import { type Standing, standingOf } from "./standing";

// The one check behind every place a seller bids or accepts an invitation (issue 19): the live
// bid, the secret minimum, the sealed bid and the terms of a new auction. A bid already placed stands.

/** Whether the seller organization may place a bid or accept a new invitation at `now`. */
export async function sellerMayBid(
  db: Database | Transaction,
  organizationId: number,
  now = new Date(),
): Promise<Standing> {
  const [row] = await db
    .select({ status: sellerSubscriptions.status, graceEndsAt: sellerSubscriptions.graceEndsAt })
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId));
  return standingOf(row, now);
}

/**
 * The same check for several sellers in one query (a round of bids on one auction): the ones held
 * back, with the reason. With `autoBidsOf`, the sellers holding a minimum on that auction are checked
 * too (in the same query): a held-back seller's minimum bids nothing meanwhile.
 */
export async function blockedSellers(
  db: Database | Transaction,
  organizationIds: number[],
  now = new Date(),
  autoBidsOf?: number,
): Promise<Map<number, "overdue" | "cancelled">> {
  const blocked = new Map<number, "overdue" | "cancelled">();
  if (organizationIds.length === 0 && autoBidsOf === undefined) return blocked;
  const holders =
    autoBidsOf === undefined
      ? undefined
      : inArray(
          sellerSubscriptions.organizationId,
          db
            .select({ organizationId: auctionAutoBids.organizationId })
            .from(auctionAutoBids)
            .where(eq(auctionAutoBids.auctionId, autoBidsOf)),
        );
  const asking = organizationIds.length > 0 ? inArray(sellerSubscriptions.organizationId, organizationIds) : undefined;
  const rows = await db
    .select({
      organizationId: sellerSubscriptions.organizationId,
      status: sellerSubscriptions.status,
      graceEndsAt: sellerSubscriptions.graceEndsAt,
    })
    .from(sellerSubscriptions)
    .where(or(asking, holders));
  for (const row of rows) {
    const standing = standingOf(row, now);
    if (!standing.mayBid) blocked.set(row.organizationId, standing.reason);
  }
  return blocked;
}
