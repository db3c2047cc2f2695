import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { auctionBids, organizations } from "~db/schema";

/** Each bidder's lowest bid (on one lot, when named), best first: what the buyer awards from. */
export async function bestBidPerSeller(db: Pick<Database, "select">, auctionId: number, lotId?: number) {
  const rows = await db
    .select({
      bidId: auctionBids.id,
      organizationId: auctionBids.organizationId,
      name: organizations.name,
      amountCents: auctionBids.amountCents,
      rank: auctionBids.rank,
    })
    .from(auctionBids)
    .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
    .where(and(eq(auctionBids.auctionId, auctionId), lotId === undefined ? undefined : eq(auctionBids.lotId, lotId)))
    .orderBy(asc(auctionBids.amountCents), asc(auctionBids.rank), asc(auctionBids.id));
  const best = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if (!best.has(row.organizationId)) best.set(row.organizationId, row);
  return [...best.values()];
}
