import { lineTotalCents } from "~/auctions/lots/line-pricing";
import { ratioBasisPoints, savingsOf } from "./savings";

// Savings of an auction awarded lot by lot (issue 31), in integer cents. Such an auction is measured
// over its awarded lots only: a lot that was not awarded (nobody bid on it) counts in neither the
// reserve nor the award price, nor the opening price. A line with a ceiling has savings of its own:
// its estimated quantity at the ceiling less the same quantity at the awarded unit price, each
// rounded to the cent as the line's total is (`lineTotalCents`, half a cent up), so a lot's lines'
// award totals add up to its award price, as on the award page (decision 027).

/** An awarded lot's figures as read from the database. */
export type LotFigures = {
  lotId: number;
  position: number;
  title: string;
  reserveCents: number;
  /** The first bid placed on the lot; null: none to read (an awarded lot always has one). */
  openingCents: number | null;
  awardCents: number;
  /** Sellers with at least one bid on the lot. */
  bidderCount: number;
};

/** The auction's reserve, opening and award prices over its awarded lots. */
export function auctionOfLots(lots: readonly LotFigures[]) {
  let reserveCents = 0;
  let awardCents = 0;
  let openingCents: number | null = null;
  for (const lot of lots) {
    reserveCents += lot.reserveCents;
    awardCents += lot.awardCents;
    if (lot.openingCents !== null) openingCents = (openingCents ?? 0) + lot.openingCents;
  }
  return { reserveCents, openingCents, awardCents };
}

/** A lot's savings against its reserve (as an auction's: `savingsOf`). */
export const lotSavingsOf = (lot: Pick<LotFigures, "reserveCents" | "awardCents">) =>
  savingsOf(lot.reserveCents, lot.awardCents);

/** A line with a ceiling of an awarded lot, and the awarded bid's unit price on it. */
export type CeilingLine = {
  lotId: number;
  position: number;
  description: string;
  unit: string;
  /** Thousandths of a unit. */
  quantity: number;
  ceilingCents: number;
  /** The awarded bid's unit price on the line. */
  unitCents: number;
};

/**
 * A line's totals at the ceiling and at the awarded unit price (each rounded as the line's total
 * is), what the award saved on it, and that in basis points of the total at the ceiling.
 */
export function lineSavingsOf(line: Pick<CeilingLine, "quantity" | "ceilingCents" | "unitCents">) {
  return againstCeiling(
    lineTotalCents(line.quantity, line.ceilingCents),
    lineTotalCents(line.quantity, line.unitCents),
  );
}

/** Totals at the ceiling and at the award, what the award saved, and that in basis points of the ceiling's. */
function againstCeiling(ceilingTotalCents: number, awardTotalCents: number) {
  const savingsCents = ceilingTotalCents - awardTotalCents;
  return {
    ceilingTotalCents,
    awardTotalCents,
    savingsCents,
    savingsBasisPoints: basisPoints(savingsCents, ceilingTotalCents),
  };
}

/** Savings in basis points of the total at the ceiling; none past whole cents a number holds exactly. */
const basisPoints = (savingsCents: number, ceilingTotalCents: number) =>
  Number.isSafeInteger(ceilingTotalCents) ? ratioBasisPoints(savingsCents, ceilingTotalCents) : null;

/** Lines with a ceiling, totalled: at the ceiling, at the award, and the savings (weighted, not averaged). */
export function lineTotalsOf(lines: readonly Pick<CeilingLine, "quantity" | "ceilingCents" | "unitCents">[]) {
  let ceilingTotalCents = 0;
  let awardTotalCents = 0;
  for (const line of lines) {
    const figures = lineSavingsOf(line);
    ceilingTotalCents += figures.ceilingTotalCents;
    awardTotalCents += figures.awardTotalCents;
  }
  return againstCeiling(ceilingTotalCents, awardTotalCents);
}
