// Savings figures (issue 21), in integer cents. A percentage is kept in basis points (1/100 of a
// percent): the exact rational savings / reserve × 10 000, rounded half to even once, at the end, so
// totals never add up rounded parts. BigInt keeps the product exact past 2^53.

/** One awarded auction's figures as read from the database. */
export type AwardFigures = {
  reserveCents: number;
  /** Reverse: the first bid placed. Sealed: the highest sealed bid received. Null: no bid to read. */
  openingCents: number | null;
  awardCents: number;
  invitedCount: number;
  bidderCount: number;
};

/** numerator / denominator × 10 000, rounded half to even; null when the denominator is 0. */
export function ratioBasisPoints(numerator: number, denominator: number): number | null {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator)) {
    throw new RangeError(`not whole numbers: ${numerator} / ${denominator}`);
  }
  if (denominator === 0) return null;
  const negative = numerator < 0 !== denominator < 0 && numerator !== 0;
  const top = BigInt(Math.abs(numerator)) * 10_000n;
  const bottom = BigInt(Math.abs(denominator));
  let quotient = top / bottom;
  const twiceRemainder = (top % bottom) * 2n;
  if (twiceRemainder > bottom || (twiceRemainder === bottom && quotient % 2n === 1n)) quotient += 1n;
  return Number(negative ? -quotient : quotient);
}

/** What the award saved against the reserve: cents, and basis points of the reserve. */
export function savingsOf(reserveCents: number, awardCents: number) {
  const savingsCents = reserveCents - awardCents;
  return { savingsCents, savingsBasisPoints: ratioBasisPoints(savingsCents, reserveCents) };
}

export type ReportTotals = {
  auctions: number;
  reserveCents: number;
  awardCents: number;
  savingsCents: number;
  /** Total savings over total reserve (weighted by reserve), not an average of percentages. */
  savingsBasisPoints: number | null;
  invitedCount: number;
  bidderCount: number;
};

export function totalsOf(rows: readonly AwardFigures[]): ReportTotals {
  let reserveCents = 0;
  let awardCents = 0;
  let invitedCount = 0;
  let bidderCount = 0;
  for (const row of rows) {
    reserveCents += row.reserveCents;
    awardCents += row.awardCents;
    invitedCount += row.invitedCount;
    bidderCount += row.bidderCount;
  }
  const { savingsCents, savingsBasisPoints } = savingsOf(reserveCents, awardCents);
  return {
    auctions: rows.length,
    reserveCents,
    awardCents,
    savingsCents,
    savingsBasisPoints: rows.length ? savingsBasisPoints : null,
    invitedCount,
    bidderCount,
  };
}

/** Totals per key (a month, a category, an area), in the order `keys` sorts them. */
export function totalsBy<T extends AwardFigures>(
  rows: readonly T[],
  keyOf: (row: T) => string,
): { key: string; totals: ReportTotals }[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, group]) => ({ key, totals: totalsOf(group) }));
}

/** 1234 → "12.34%", -5 → "-0.05%", null → "n/a". */
export function formatBasisPoints(basisPoints: number | null): string {
  if (basisPoints === null) return "n/a";
  const sign = basisPoints < 0 ? "-" : "";
  const absolute = Math.abs(basisPoints);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}%`;
}

/** For CSV: 1234 → "12.34" (no sign of percent), null → "". */
export function basisPointsNumber(basisPoints: number | null): string {
  return basisPoints === null ? "" : formatBasisPoints(basisPoints).slice(0, -1);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-03" → "March 2026". */
export function monthName(month: string): string {
  const [year, number] = month.split("-");
  return `${MONTHS[Number(number) - 1] ?? month} ${year}`;
}
