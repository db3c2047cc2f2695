import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineSavingsCents } from "~/auctions/lots/lot-award";
import { auctionOfLots, type LotFigures, lineSavingsOf, lineTotalsOf, lotSavingsOf } from "./lot-savings";
import { formatBasisPoints } from "./savings";

// Hand-worked examples for the savings of an auction awarded lot by lot (issue 31): the auction over
// its awarded lots only, each lot against its reserve, each line with a ceiling against it.

const lot = (position: number, reserveCents: number, awardCents: number, openingCents: number | null): LotFigures => ({
  lotId: position,
  position,
  title: `Lot ${position}`,
  reserveCents,
  awardCents,
  openingCents,
  bidderCount: 2,
});

describe("an auction awarded lot by lot", () => {
  it("sums its awarded lots' reserves, opening and award prices", () => {
    // Hauling: reserve $2,000.00, opened at $1,425.00, awarded $1,375.00;
    // Cementing: reserve $5,000.00, opened at $4,800.00, awarded $4,500.00.
    const figures = auctionOfLots([lot(1, 200_000, 137_500, 142_500), lot(2, 500_000, 450_000, 480_000)]);
    expect(figures).toEqual({ reserveCents: 700_000, openingCents: 622_500, awardCents: 587_500 });
  });
  it("has no opening price when no lot has one, and leaves out a lot without one", () => {
    expect(auctionOfLots([lot(1, 100, 90, null)]).openingCents).toBeNull();
    expect(auctionOfLots([lot(1, 100, 90, null), lot(2, 100, 80, 95)]).openingCents).toBe(95);
  });
  it("gives each lot its savings against its reserve", () => {
    // $625.00 of $2,000.00 = 31.25%; $500.00 of $5,000.00 = 10.00%
    expect(lotSavingsOf(lot(1, 200_000, 137_500, null))).toEqual({ savingsCents: 62_500, savingsBasisPoints: 3125 });
    expect(lotSavingsOf(lot(2, 500_000, 450_000, null))).toEqual({ savingsCents: 50_000, savingsBasisPoints: 1000 });
  });
});

describe("a line's savings against its ceiling", () => {
  it("100 m³ at a ceiling of $4.00, awarded at $3.50: $400.00 less $350.00 = $50.00, 12.50%", () => {
    expect(lineSavingsOf({ quantity: 100_000, ceilingCents: 400, unitCents: 350 })).toEqual({
      ceilingTotalCents: 40_000,
      awardTotalCents: 35_000,
      savingsCents: 5_000,
      savingsBasisPoints: 1250,
    });
  });
  it("rounds each total as the line's total is (half a cent up), then subtracts", () => {
    // 2.5 h × $20.00 = $50.00; 2.5 h × $19.99 = $49.975 → $49.98: $0.02 saved (not 2.5 × $0.01 → $0.03).
    const figures = lineSavingsOf({ quantity: 2_500, ceilingCents: 2_000, unitCents: 1_999 });
    expect(figures).toMatchObject({ ceilingTotalCents: 5_000, awardTotalCents: 4_998, savingsCents: 2 });
    // 2 / 5000 × 10 000 = 4 basis points
    expect(formatBasisPoints(figures.savingsBasisPoints)).toBe("0.04%");
    // 0.333 units × $0.01 = $0.00333 → $0.00; at $0.02 → $0.00666 → $0.01: a cent saved.
    expect(lineSavingsOf({ quantity: 333, ceilingCents: 2, unitCents: 1 }).savingsCents).toBe(1);
  });
  it("is nothing when the award is at the ceiling, and exact past 2^53", () => {
    expect(lineSavingsOf({ quantity: 7_777, ceilingCents: 999, unitCents: 999 }).savingsCents).toBe(0);
    // 1,000,000 units × $100,000.00: a product past 2^53 (in thousandths), still whole cents.
    const big = lineSavingsOf({ quantity: 1_000_000_000, ceilingCents: 10_000_000, unitCents: 9_999_999 });
    expect(big).toMatchObject({ ceilingTotalCents: 10_000_000_000_000, savingsCents: 1_000_000 });
  });
  it("agrees with the award page's line savings", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (quantity, ceilingCents, unit) => {
          const unitCents = Math.min(unit, ceilingCents);
          expect(lineSavingsOf({ quantity, ceilingCents, unitCents }).savingsCents).toBe(
            lineSavingsCents({ quantity, ceilingCents }, unitCents),
          );
        },
      ),
    );
  });
  it("totals lines by their totals, weighting the percentage by the total at the ceiling", () => {
    // $400.00 → $350.00 and $50.00 → $49.98: $50.02 saved of $450.00 = 11.1155…% → 11.12%
    const totals = lineTotalsOf([
      { quantity: 100_000, ceilingCents: 400, unitCents: 350 },
      { quantity: 2_500, ceilingCents: 2_000, unitCents: 1_999 },
    ]);
    expect(totals).toEqual({
      ceilingTotalCents: 45_000,
      awardTotalCents: 39_998,
      savingsCents: 5_002,
      savingsBasisPoints: 1112,
    });
    expect(lineTotalsOf([]).savingsBasisPoints).toBeNull();
  });
});
