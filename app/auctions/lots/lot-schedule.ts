import { ordinal } from "~/shared/words";
import { leadsOver } from "../bidding/bidding";
import { type StandingBid, standingBySeller } from "./lot-award";

// When a lotted auction's lots close, and what a seller sees of their standing when the auction
// shows ranks only (issue 31).

/** The most minutes between one lot's closing and the next's. */
export const MAX_LOT_CLOSE_GAP_MINUTES = 24 * 60;

/**
 * Each lot's scheduled end: the first lot at the auction's end, each next one `gapMinutes` later.
 * A lot's soft close then moves only that lot's end.
 */
export function lotScheduledEnds(firstEnd: Date, lotCount: number, gapMinutes: number): Date[] {
  return Array.from({ length: lotCount }, (_, index) => new Date(firstEnd.getTime() + index * gapMinutes * 60_000));
}

/** A seller's place among the sellers' standing bids on a lot (1: the lowest), or null without a bid. */
export function sellerRank(bids: readonly StandingBid[], seller: number): number | null {
  const best = standingBySeller(bids);
  const own = best.get(seller);
  if (!own) return null;
  let ahead = 0;
  for (const other of best.values()) if (other.seller !== seller && leadsOver(other, own)) ahead += 1;
  return ahead + 1;
}

/** What a seller reads in a ranks-only auction: their place, never another seller's price or count. */
export function rankSentence(rank: number | null): string {
  return rank === null ? "You have not bid on this lot." : `${rankWords(rank)}.`;
}

/** A seller's place in words: "You have the lowest bid", "You are 2nd". */
export const rankWords = (rank: number) => (rank === 1 ? "You have the lowest bid" : `You are ${ordinal(rank)}`);
