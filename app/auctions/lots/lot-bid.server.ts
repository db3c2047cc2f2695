import { and, asc, desc, eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionLineItems } from "~db/schema";
import { decrementOf, lotStatusAt } from "../auction-rules";
import type { AuctionWithLots } from "../auction-views.server";
import { highestAllowedBid, highestOwnBid } from "../bidding/bidding";
import { enteredBySql } from "../on-behalf/entered-by.server";
import type { LineItem } from "./line-items";
import { lotStandings, rankOn } from "./lot-standings.server";
import { type LotRow, lineItemColumns } from "./lots.server";

// What a seller reads when bidding on one lot (issue 31): its lines, where they stand (the lowest
// total, or only their rank when the auction shows ranks), their latest unit prices and minimum.
// Never another seller's lines, name or count.

export type LotLine = LineItem & { id: number; position: number };

/** The lot's lines in order. */
export async function linesOfLot(db: Pick<Database, "select">, lotId: number): Promise<LotLine[]> {
  return db
    .select({ id: auctionLineItems.id, ...lineItemColumns })
    .from(auctionLineItems)
    .where(eq(auctionLineItems.lotId, lotId))
    .orderBy(asc(auctionLineItems.position));
}

/**
 * Per database handle: the lines of lots whose bidding has opened (they never change after: the lots
 * are fixed once bidding starts), so a bid on a busy lot does not read them again.
 */
const openLotLines = new WeakMap<object, Map<number, Promise<LotLine[]>>>();
const OPEN_LOT_LINES_KEPT = 1_000;

/**
 * The lines of a lot this process has read while its auction was open or over, without reading:
 * undefined when not known here. A bid's fast path (its round checks the invitation, the terms and
 * the lot) uses it to skip reading the auction per bid.
 */
export function knownOpenLotLines(db: Pick<Database, "select">, lotId: number): Promise<LotLine[]> | undefined {
  return openLotLines.get(db)?.get(lotId);
}

/** The lines of a lot being bid on: read once per process while its auction is open or over. */
export function linesOfOpenLot(
  db: Pick<Database, "select">,
  auction: { status: string; startsAt: Date },
  lotId: number,
  now = new Date(),
): Promise<LotLine[]> {
  const fixed = auction.status !== "draft" && (auction.status !== "scheduled" || now >= auction.startsAt);
  if (!fixed) return linesOfLot(db, lotId);
  let cache = openLotLines.get(db);
  if (!cache) {
    cache = new Map();
    openLotLines.set(db, cache);
  }
  let lines = cache.get(lotId);
  if (!lines) {
    if (cache.size >= OPEN_LOT_LINES_KEPT) cache.clear();
    lines = linesOfLot(db, lotId);
    lines.catch(() => cache?.delete(lotId));
    cache.set(lotId, lines);
  }
  return lines;
}

/** A seller's lot page lists their latest bids on the lot, each with its unit prices. */
export const OWN_LOT_BIDS_SHOWN = 20;

/** The seller's standing on the lot and their latest unit prices, read for their page only. */
export async function sellerLotStanding(
  db: Database,
  auction: AuctionWithLots,
  lot: LotRow,
  sellerId: number,
  now = new Date(),
) {
  const [lines, ownBids, [minimum], standing] = await Promise.all([
    linesOfOpenLot(db, auction, lot.id, now),
    // The seller's latest bids on the lot, with their unit prices: theirs only.
    db
      .select({
        amountCents: auctionBids.amountCents,
        unitCents: auctionBids.unitCents,
        kind: auctionBids.kind,
        createdAt: auctionBids.createdAt,
        enteredBy: enteredBySql(),
        onBehalfNote: auctionBids.onBehalfNote,
      })
      .from(auctionBids)
      .where(and(eq(auctionBids.lotId, lot.id), eq(auctionBids.organizationId, sellerId)))
      .orderBy(desc(auctionBids.id))
      .limit(OWN_LOT_BIDS_SHOWN),
    db
      .select({ minimumCents: auctionAutoBids.minimumCents })
      .from(auctionAutoBids)
      .where(and(eq(auctionAutoBids.lotId, lot.id), eq(auctionAutoBids.organizationId, sellerId))),
    // Each seller's standing bid on the lot, for the rank (the count is never shown).
    auction.sellerView === "rank" ? lotStandings(db, auction.id, lot.id) : undefined,
  ]);
  const latest = ownBids[0];
  const latestUnits = latest?.unitCents ?? [];
  const ranksOnly = auction.sellerView === "rank";
  const lowestCents = ranksOnly ? null : lot.lowestCents;
  return {
    lines,
    status: lotStatusAt(auction, lot, now),
    ranksOnly,
    lowestCents,
    leading: lot.leaderOrganizationId === sellerId,
    rank: standing ? rankOn(standing, lot.id, sellerId) : null,
    hasBid: latest !== undefined,
    /** The seller's latest unit prices on the lot (a lot bid on as one amount: that amount). */
    latestUnits: latestUnits.length === lines.length ? latestUnits : latest ? [latest.amountCents] : [],
    minimumCents: minimum?.minimumCents ?? null,
    /** The seller's latest bids on the lot, newest first, each with its unit prices (one amount: that amount). */
    ownBids: ownBids.map((bid) => ({ ...bid, unitCents: bid.unitCents ?? [bid.amountCents] })),
    /** The most a new bid's total may be: the reserve, or the lowest less the decrement (ranks only: their own lowest less it). */
    highestAllowedCents: ranksOnly
      ? highestOwnBid(lot.reserveCents, latest?.amountCents, decrementOf(lot)) // each bid beats their last: it is their lowest
      : highestAllowedBid(lot.reserveCents, lot.lowestCents, decrementOf(lot)),
  };
}
