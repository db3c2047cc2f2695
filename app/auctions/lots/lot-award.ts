import { leadsOver } from "../bidding/bidding";
import { type LineTerms, lineTotalCents } from "./line-pricing";

// What each way of awarding a lotted auction costs (issue 31), for the award page's side-by-side
// view: every lot to its lowest bid (the lots may go to different sellers), or every lot to one
// seller (only a seller with a standing bid on every lot that has bids can take them all). Pure
// integer cents.

/** A seller's standing bid on a lot: their lowest total there, and its rank (ties go to the earlier). */
export type StandingBid = { seller: number; amount: number; rank: number };

export type LotBids = { lot: number; reserve: number; bids: readonly StandingBid[] };

export type LotChoice = { lot: number; seller: number; amount: number };

export type AwardComparison = {
  /** Each lot to its lowest (or first-ranked) bid; lots nobody bid on are left out (and listed in `unbid`). */
  lotByLot: { total: number; choices: LotChoice[] };
  /** Each seller who bid on every lot that has bids, cheapest first: the total if those lots all go to them. */
  oneSeller: { seller: number; total: number; overLotByLot: number }[];
  /** Lots without a bid: they cannot be awarded. */
  unbid: number[];
};

/** Each seller's lowest bid on the lot (their standing bid), ties by rank. */
export function standingBySeller(bids: readonly StandingBid[]): Map<number, StandingBid> {
  const best = new Map<number, StandingBid>();
  for (const bid of bids) {
    const current = best.get(bid.seller);
    if (!current || leadsOver(bid, current)) best.set(bid.seller, bid);
  }
  return best;
}

/**
 * `first`: which of a lot's bids lot by lot takes: its lowest, or (where the evaluation ranks price and
 * technical score together) the one ranked first, `rank` being its place in the lot's ranking.
 */
export function compareAwards(lots: readonly LotBids[], first: "lowest" | "ranking" = "lowest"): AwardComparison {
  const choices: LotChoice[] = [];
  const unbid: number[] = [];
  const perLot = lots.map((lot) => standingBySeller(lot.bids));
  for (const [index, lot] of lots.entries()) {
    let lowest: StandingBid | undefined;
    for (const bid of perLot[index]?.values() ?? []) {
      if (!lowest || (first === "ranking" ? bid.rank < lowest.rank : leadsOver(bid, lowest))) lowest = bid;
    }
    if (lowest) choices.push({ lot: lot.lot, seller: lowest.seller, amount: lowest.amount });
    else unbid.push(lot.lot);
  }
  const lotByLotTotal = choices.reduce((sum, choice) => sum + choice.amount, 0);
  const sellers = new Set(perLot.flatMap((standing) => [...standing.keys()]));
  // Every lot that can be awarded: a lot nobody bid on goes to nobody either way.
  const bidOn = perLot.filter((standing) => standing.size > 0);
  const oneSeller = [...sellers]
    .filter((seller) => bidOn.every((standing) => standing.has(seller)))
    .map((seller) => {
      const total = bidOn.reduce((sum, standing) => sum + (standing.get(seller)?.amount ?? 0), 0);
      return { seller, total, overLotByLot: total - lotByLotTotal };
    })
    .sort((a, b) => a.total - b.total || a.seller - b.seller);
  return { lotByLot: { total: lotByLotTotal, choices }, oneSeller, unbid };
}

/**
 * A line's savings against its ceiling: what the estimated quantity costs at the ceiling less what it
 * costs at the awarded unit price. Null for a line without a ceiling (nothing to measure against).
 */
export function lineSavingsCents(line: LineTerms, unitCents: number): number | null {
  if (line.ceilingCents === null) return null;
  return lineTotalCents(line.quantity, line.ceilingCents) - lineTotalCents(line.quantity, unitCents);
}
