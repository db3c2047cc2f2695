import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { auctionBids } from "~db/schema";
import type { StandingBid } from "./lot-award";
import { sellerRank } from "./lot-schedule";

// Each seller's standing bid per lot (issue 31), for the rank a ranks-only auction shows its sellers:
// their lowest total and, for ties, the rank of that very bid (the first to commit an equal total
// leads). One row per seller and lot, however many bids.

/** Each lot's standing bids, by lot id; `lotId` narrows to one lot. */
export async function lotStandings(
  db: Database,
  auctionId: number,
  lotId?: number,
): Promise<Map<number, StandingBid[]>> {
  const rows = await db
    .select({
      lotId: auctionBids.lotId,
      seller: auctionBids.organizationId,
      amount: sql<number>`min(${auctionBids.amountCents})`.mapWith(Number),
      rank: sql<number>`(array_agg(${auctionBids.rank} order by ${auctionBids.amountCents}, ${auctionBids.rank}))[1]`.mapWith(
        Number,
      ),
    })
    .from(auctionBids)
    .where(
      and(eq(auctionBids.auctionId, auctionId), lotId === undefined ? undefined : eq(auctionBids.lotId, lotId)) as SQL,
    )
    .groupBy(auctionBids.lotId, auctionBids.organizationId);
  const byLot = new Map<number, StandingBid[]>();
  for (const { lotId: lot, ...bid } of rows) {
    const list = byLot.get(lot);
    if (list) list.push(bid);
    else byLot.set(lot, [bid]);
  }
  return byLot;
}

/** A seller's rank on a lot from its standing bids (1: the lowest), or null without a bid. */
export const rankOn = (standings: Map<number, StandingBid[]>, lotId: number, seller: number) =>
  sellerRank(standings.get(lotId) ?? [], seller);
