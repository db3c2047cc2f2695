import { formatCents } from "~/shared/money";
import { unitPricesMissingMessage } from "../auction-words";
import { refusalMessage } from "../bidding/bid-messages";
import type { LineRefusal } from "./lot-bidding";
import { LOT_TOTAL_TOO_LARGE } from "./unit-prices";

// What a lot's bid or minimum form says when the rules refuse it (issue 31): the single price's
// words for the total, and a line's own words for its unit price (lines count from 1, as shown).

export function lineRefusalMessage(refusal: LineRefusal): string {
  switch (refusal.reason) {
    case "wrong-line-count":
      return unitPricesMissingMessage(refusal.expected);
    case "unit-price-not-whole":
      return `Line ${refusal.line + 1}: please enter a unit price in dollars and cents, like 185.00`;
    case "unit-price-above-ceiling":
      return `Line ${refusal.line + 1}: the unit price cannot be more than the ceiling of ${formatCents(refusal.ceilingCents)}`;
    case "total-above-maximum":
      return LOT_TOTAL_TOO_LARGE;
    case "minimum-needs-a-bid":
      return "Please bid on this lot first: your minimum scales the unit prices of your latest bid";
    case "minimum-out-of-reach":
      return "The lines' ceilings keep every total your unit prices scale to under this minimum: please enter a lower one";
    default:
      return refusalMessage(refusal);
  }
}
