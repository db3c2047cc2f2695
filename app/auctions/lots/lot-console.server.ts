import { and, asc, count, desc, eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { auctionBids, organizations } from "~db/schema";
import { lotStatusAt } from "../auction-rules";
import { type AuctionWithLots, BIDS_SHOWN, ownerBidColumns } from "../auction-views.server";
import { fullPriceChart } from "../price-chart/price-chart.server";
import { quantityText } from "./line-pricing";
import { linesOfLot } from "./lot-bid.server";
import type { LotRow } from "./lots.server";

// One lot's bids as the auction's side reads them (issue 31): the lot's price over time, its latest
// bids, and each seller's standing bid line by line (lowest first), so a buyer compares rate sheets
// side by side, not only totals.

export async function lotConsole(db: Database, auction: AuctionWithLots, lot: LotRow, now = new Date()) {
  const [bids, [counted], standing, lines, priceChart] = await Promise.all([
    db
      .select(ownerBidColumns)
      .from(auctionBids)
      .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
      .where(eq(auctionBids.lotId, lot.id))
      .orderBy(desc(auctionBids.id))
      .limit(BIDS_SHOWN),
    db.select({ total: count() }).from(auctionBids).where(eq(auctionBids.lotId, lot.id)),
    // Each seller's best bid on the lot: the lowest, the first of equals.
    db
      .selectDistinctOn([auctionBids.organizationId], {
        organizationId: auctionBids.organizationId,
        organizationName: organizations.name,
        amountCents: auctionBids.amountCents,
        unitCents: auctionBids.unitCents,
        rank: auctionBids.rank,
      })
      .from(auctionBids)
      .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
      .where(and(eq(auctionBids.auctionId, auction.id), eq(auctionBids.lotId, lot.id)))
      .orderBy(auctionBids.organizationId, asc(auctionBids.amountCents), asc(auctionBids.rank)),
    linesOfLot(db, lot.id),
    fullPriceChart(db, auction, lot),
  ]);
  const leader = standing.find((row) => row.organizationId === lot.leaderOrganizationId);
  return {
    status: lotStatusAt(auction, lot, now),
    lowest: leader && lot.lowestCents !== null ? { amountCents: lot.lowestCents, name: leader.organizationName } : null,
    bidCount: counted?.total ?? 0,
    bids: bids.map((bid) => ({ ...bid, createdAt: bid.createdAt.toISOString() })),
    lines: lines.map((line) => ({ ...line, quantityText: quantityText(line.quantity) })),
    standing: standing
      .sort((a, b) => a.amountCents - b.amountCents || a.rank - b.rank)
      .map(({ organizationId, organizationName, amountCents, unitCents }) => ({
        id: organizationId,
        organizationName,
        amountCents,
        unitCents: unitCents ?? [amountCents],
      })),
    priceChart,
  };
}
