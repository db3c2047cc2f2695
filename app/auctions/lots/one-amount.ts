import { QUANTITY_SCALE } from "./line-pricing";

// When lots and lines show (issue 31): a lot of one line of quantity 1 without a ceiling is bid on as
// one amount (its bids keep no unit prices), and an auction of one such lot, unnamed, is shown as one
// price, as every auction was before lots.

/** A lot bid on as one amount: no line but one of quantity 1 without a ceiling (none: the default line). */
export function bidAsOneAmount(lines: readonly { quantity: number; ceilingCents: number | null }[]): boolean {
  const [only] = lines;
  return lines.length <= 1 && (only === undefined || (only.quantity === QUANTITY_SCALE && only.ceilingCents === null));
}

/** An auction whose pages show its lots: several, a named one, or one bid on line by line. */
export function shownAsLots(lots: readonly { title: string; oneAmount: boolean }[]): boolean {
  return lots.length !== 1 || lots.some((lot) => lot.title !== "" || !lot.oneAmount);
}
