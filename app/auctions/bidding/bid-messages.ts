import { formatCents } from "~/shared/money";
import type { Refusal } from "./bidding";

// What a reverse auction's bid or minimum form says when the rules (bidding.ts) refuse it.

/** Why a ranks-only auction has no minimum form, and what a minimum sent anyway is answered. */
export const NO_MINIMUMS_IN_RANKS_ONLY =
  "This auction shows sellers their rank only, so it takes no secret minimum: a bid placed for you would show you the lowest price. Place each bid yourself.";

/** What a refusal says to the seller, at the field. */
export function refusalMessage(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not-a-whole-amount":
      return "Please enter an amount in dollars and cents, like 12500.00";
    // Each names what it says it is: the reserve is the buyer's maximum, the highest allowed bid
    // (under the lowest by the decrement) is another amount once bids are placed (issue 17).
    case "above-reserve":
      return refusal.highest < refusal.reserve
        ? `Your bid cannot be more than the reserve price of ${formatCents(refusal.reserve)}, and must be ${formatCents(refusal.highest)} or less now: the current lowest price less the minimum decrement`
        : `Your bid cannot be more than the reserve price of ${formatCents(refusal.reserve)}`;
    case "not-low-enough":
      return `Your bid must be ${formatCents(refusal.highest)} or less: the current lowest price less the minimum decrement`;
    case "not-under-own-bid":
      return `Your bid must be ${formatCents(refusal.highest)} or less: your own lowest bid of ${formatCents(refusal.ownBid)} less the minimum decrement`;
    case "no-minimums-in-ranks-only":
      return NO_MINIMUMS_IN_RANKS_ONLY;
    case "minimum-above-reserve":
      return `Your minimum cannot be more than the reserve price of ${formatCents(refusal.reserve)}`;
    case "already-leading":
      return "You already have the lowest bid";
    case "minimum-above-own-bid":
      return `Your minimum cannot be more than your own lowest bid of ${formatCents(refusal.ownBid)}`;
    case "minimum-not-below-lowest":
      return `Your minimum must be less than the current lowest price of ${formatCents(refusal.lowest)}`;
  }
}
