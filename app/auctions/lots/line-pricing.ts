import { parseGroupedDecimal } from "~/shared/decimals";
import { MAX_AUCTION_CENTS } from "../lifecycle/auction-schema";

// Prices of a lot's line items (issue 31), as pure integer arithmetic: a rate sheet's lines each have
// an estimated quantity (up to three decimals, kept in thousandths) and a unit price in cents; a
// line's total is quantity x unit price rounded to the cent (half up), and a lot's total is the sum
// of its line totals, so the lines always add up to the total exactly.
//
// When an auto-bid bids for a seller on a lot it names a new total; the seller's latest unit prices
// are scaled to reach it by the rule of `scaleToAtMost` (docs/decisions/027-lots-and-line-items.md).
// Whole-cent unit prices cannot reach every total (a line of 3 units moves in steps of 3 cents), so
// the rule reaches the target exactly when the lines allow it and otherwise the closest total under
// it; `scaleToAtLeast` is its mirror, for the lowest total a seller's minimum allows.

/** Quantities are kept in thousandths of a unit: 2.5 hours is 2500. */
export const QUANTITY_SCALE = 1000;
/** The largest estimated quantity of a line: 1,000,000 units. */
export const MAX_QUANTITY_THOUSANDTHS = 1_000_000 * QUANTITY_SCALE;
/** The largest unit price or lot total: an auction's largest reserve ($1,000,000,000.00). */
export const MAX_CENTS = MAX_AUCTION_CENTS;

export type LineTerms = {
  /** The estimated quantity, in thousandths of a unit (at least 1). */
  quantity: number;
  /** The most a seller may ask per unit, in cents; null when the buyer set none. */
  ceilingCents: number | null;
};

/** "12", "2.5", "1,250.125" → thousandths of a unit; null when it is not a quantity above zero. */
export function parseQuantity(text: string): number | null {
  const thousandths = parseGroupedDecimal(text.trim(), 3);
  return thousandths !== null && thousandths >= 1 && thousandths <= MAX_QUANTITY_THOUSANDTHS ? thousandths : null;
}

/** Thousandths of a unit as typed back: 2500 → "2.5", 1250125 → "1250.125", 3000 → "3". */
export function quantityText(thousandths: number): string {
  const whole = Math.floor(thousandths / QUANTITY_SCALE);
  const rest = thousandths % QUANTITY_SCALE;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(3, "0").replace(/0+$/, "")}`;
}

/** A line's total: quantity x unit price, rounded to the cent (half a cent up). */
export function lineTotalCents(quantity: number, unitCents: number): number {
  const product = quantity * unitCents;
  if (product + QUANTITY_SCALE <= Number.MAX_SAFE_INTEGER) return Math.floor((product + 500) / QUANTITY_SCALE);
  return Number((BigInt(quantity) * BigInt(unitCents) + 500n) / 1000n);
}

/** A lot's total: the sum of its line totals. */
export function lotTotalCents(lines: readonly LineTerms[], unitCents: readonly number[]): number {
  let total = 0;
  for (const [index, line] of lines.entries()) total += lineTotalCents(line.quantity, unitCents[index] ?? 0);
  return total;
}

/** The highest unit price whose line total is at most `cents` (none: -1). */
function highestUnitWithin(quantity: number, cents: number): number {
  if (cents < 0) return -1;
  // floor((q·u + 500) / 1000) ≤ M  ⇔  q·u ≤ 1000·M + 499
  return Number((BigInt(cents) * 1000n + 499n) / BigInt(quantity));
}

/** The lowest unit price whose line total is at least `cents`. */
function lowestUnitReaching(quantity: number, cents: number): number {
  if (cents <= 0) return 0;
  // floor((q·u + 500) / 1000) ≥ M  ⇔  q·u ≥ 1000·M − 500
  const needed = BigInt(cents) * 1000n - 500n;
  const q = BigInt(quantity);
  return Number((needed + q - 1n) / q);
}

export type ScaledPrices = { unitCents: number[]; totalCents: number };

/**
 * Each line's price scaled by target / base total, rounded down (or up) to the cent and held to its
 * ceiling, with how far rounding moved it (the fraction dropped, or added, as a numerator over the
 * base total) to order the lines by.
 */
function proportional(
  lines: readonly LineTerms[],
  base: readonly number[],
  target: number,
  direction: "down" | "up",
): { unitCents: number[]; moved: bigint[] } {
  const baseTotal = BigInt(lotTotalCents(lines, base));
  const unitCents: number[] = [];
  const moved: bigint[] = [];
  for (const [index, line] of lines.entries()) {
    const exact = BigInt(base[index] ?? 0) * BigInt(target);
    const quotient = exact / baseTotal;
    const remainder = exact % baseTotal;
    const rounded = direction === "down" || remainder === 0n ? quotient : quotient + 1n;
    const capped = line.ceilingCents === null ? rounded : bigMin(rounded, BigInt(line.ceilingCents));
    unitCents.push(Number(capped));
    moved.push(direction === "down" || remainder === 0n ? remainder : baseTotal - remainder);
  }
  return { unitCents, moved };
}

const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);

/** Line indices, the one rounding moved furthest first; equal ones in the lot's order. */
function furthestMovedFirst(moved: readonly bigint[]): number[] {
  return moved
    .map((_, index) => index)
    .sort((a, b) => {
      const ma = moved[a] as bigint;
      const mb = moved[b] as bigint;
      return ma === mb ? a - b : ma > mb ? -1 : 1;
    });
}

const ceilingOf = (line: LineTerms) => line.ceilingCents ?? Number.POSITIVE_INFINITY;

/**
 * A price sheet being adjusted: its unit prices and their lot total, kept in step. For line `index`,
 * `within(index, cents)` is the highest unit price keeping the lot total at most `cents` (held to
 * the ceiling, never under zero), `reaching(index, cents)` the lowest keeping it at least `cents`.
 */
function adjustable(lines: readonly LineTerms[], unitCents: number[]) {
  let total = lotTotalCents(lines, unitCents);
  const quantity = (index: number) => (lines[index] as LineTerms).quantity;
  const unit = (index: number) => unitCents[index] as number;
  const othersTotal = (index: number) => total - lineTotalCents(quantity(index), unit(index));
  return {
    unit,
    total: () => total,
    /** The lot total with line `index` at `cents` per unit. */
    totalWith: (index: number, cents: number) => othersTotal(index) + lineTotalCents(quantity(index), cents),
    within: (index: number, cents: number) =>
      Math.max(
        0,
        Math.min(ceilingOf(lines[index] as LineTerms), highestUnitWithin(quantity(index), cents - othersTotal(index))),
      ),
    reaching: (index: number, cents: number) => lowestUnitReaching(quantity(index), cents - othersTotal(index)),
    set(index: number, cents: number) {
      total = othersTotal(index) + lineTotalCents(quantity(index), cents);
      unitCents[index] = cents;
    },
    result: (): ScaledPrices => ({ unitCents, totalCents: total }),
  };
}

/**
 * The seller's latest unit prices (`base`) scaled to a lot total of at most `target`, the rule an
 * auto-bid follows:
 * 1. every unit price is multiplied by target / base total and rounded down to the cent, and held to
 *    the line's ceiling (should the rounded line totals still pass the target, the lines rounding
 *    moved least are lowered first until they do not);
 * 2. then, line by line, largest fraction dropped in step 1 first (equal fractions in the lot's
 *    order), a line's unit price gets one cent more when the lot total stays at most the target and
 *    the line within its ceiling;
 * 3. then, in the same order, each line takes the highest unit price that keeps the lot total at most
 *    the target and the line within its ceiling.
 * The total is the target when the lines can reach it and otherwise the closest total under it that
 * these steps reach. Null when the base has no total to scale (every price zero).
 */
export function scaleToAtMost(
  lines: readonly LineTerms[],
  base: readonly number[],
  target: number,
): ScaledPrices | null {
  if (lotTotalCents(lines, base) <= 0 || target < 0) return null;
  const { unitCents, moved } = proportional(lines, base, target, "down");
  const sheet = adjustable(lines, unitCents);
  const order = furthestMovedFirst(moved);
  // Line totals are rounded, so the rounded-down prices can still add up to a cent or so over the
  // target; the lines rounding moved least give it back first.
  for (const index of [...order].reverse()) {
    if (sheet.total() <= target) break;
    sheet.set(index, Math.min(sheet.unit(index), sheet.within(index, target)));
  }
  for (const index of order) {
    const raised = sheet.unit(index) + 1;
    if (raised <= ceilingOf(lines[index] as LineTerms) && sheet.totalWith(index, raised) <= target) {
      sheet.set(index, raised);
    }
  }
  for (const index of order) {
    if (sheet.total() === target) break;
    sheet.set(index, Math.max(sheet.unit(index), sheet.within(index, target)));
  }
  return sheet.result();
}

/**
 * The mirror of `scaleToAtMost`, for the lowest total a seller's minimum allows: the latest unit
 * prices scaled to a lot total of at least `target`: `scaleToAtMost`'s prices when they reach the
 * target exactly, and otherwise (rounded up and held to the ceilings; then, when
 * a ceiling held a line under, each line in the lot's order raised as far as the target needs and
 * its ceiling allows; then one cent less on the lines rounding moved furthest first, and each as low
 * as keeps the total at least the target). Null when the ceilings keep every total under it.
 */
export function scaleToAtLeast(
  lines: readonly LineTerms[],
  base: readonly number[],
  target: number,
): ScaledPrices | null {
  if (lotTotalCents(lines, base) <= 0 || target < 0) return null;
  // The target itself, whenever `scaleToAtMost` reaches it: the two rules then agree.
  const exact = scaleToAtMost(lines, base, target);
  if (exact?.totalCents === target) return exact;
  const { unitCents, moved } = proportional(lines, base, target, "up");
  const sheet = adjustable(lines, unitCents);
  for (const index of lines.keys()) {
    if (sheet.total() >= target) break;
    const ceiling = ceilingOf(lines[index] as LineTerms);
    sheet.set(index, Math.max(sheet.unit(index), Math.min(ceiling, sheet.reaching(index, target))));
  }
  if (sheet.total() < target) return null;
  const order = furthestMovedFirst(moved);
  for (const index of order) {
    const lowered = sheet.unit(index) - 1;
    if (lowered >= 0 && sheet.totalWith(index, lowered) >= target) sheet.set(index, lowered);
  }
  for (const index of order) {
    if (sheet.total() === target) break;
    sheet.set(index, Math.min(sheet.unit(index), sheet.reaching(index, target)));
  }
  return sheet.result();
}
