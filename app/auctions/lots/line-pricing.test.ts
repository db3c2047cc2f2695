import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type LineTerms,
  lineTotalCents,
  lotTotalCents,
  MAX_CENTS,
  parseQuantity,
  quantityText,
  scaleToAtLeast,
  scaleToAtMost,
} from "./line-pricing";

// Line items of a lot (issue 31): totals by examples and against an exact BigInt reference, then the
// auto-bid's scaling rule by properties: the lines always add up to the total, the total never passes
// the target (or, mirrored, the minimum), no ceiling is broken, and no line could take one cent more
// (or less) within them, so the total is as close to the target as single-cent steps allow.

const line = (quantity: number, ceilingCents: number | null = null): LineTerms => ({ quantity, ceilingCents });

describe("quantities", () => {
  it("are read with up to three decimals, in thousandths", () => {
    expect(parseQuantity("12")).toBe(12_000);
    expect(parseQuantity("2.5")).toBe(2_500);
    expect(parseQuantity(" 1,250.125 ")).toBe(1_250_125);
    expect(parseQuantity("0.001")).toBe(1);
    expect(parseQuantity("1000000")).toBe(1_000_000_000);
    for (const bad of ["", "0", "0.000", "1.2345", "-1", "1e3", "0x10", "1,25", "abc", "1000000.001"]) {
      expect(parseQuantity(bad), bad).toBeNull();
    }
  });

  it("are written back without trailing zeros", () => {
    expect(quantityText(2_500)).toBe("2.5");
    expect(quantityText(3_000)).toBe("3");
    expect(quantityText(1_250_125)).toBe("1250.125");
    expect(quantityText(1)).toBe("0.001");
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), (q) => parseQuantity(quantityText(q)) === q));
  });
});

describe("line and lot totals", () => {
  it("round each line to the cent, half a cent up", () => {
    expect(lineTotalCents(2_500, 1_999)).toBe(4_998); // 2.5 × $19.99 = $49.975 → $49.98
    expect(lineTotalCents(1_000, 12_345)).toBe(12_345);
    expect(lineTotalCents(1, 499)).toBe(0); // 0.001 × $4.99 = 0.499 cents
    expect(lineTotalCents(1, 500)).toBe(1);
    expect(lotTotalCents([line(2_500), line(3_000)], [1_999, 1])).toBe(4_998 + 3);
  });

  it("match exact arithmetic up to the largest quantity and price", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 0, max: MAX_CENTS }), (q, u) => {
        const exact = Number((BigInt(q) * BigInt(u) * 2n + 1000n) / 2000n);
        return lineTotalCents(q, u) === exact;
      }),
    );
  });
});

const quantityArb = fc.oneof(
  fc.integer({ min: 1, max: 999 }),
  fc.integer({ min: 1, max: 200 }).map((units) => units * 1000),
  fc.integer({ min: 1, max: 5_000_000 }),
);
const sheetArb = fc
  .array(
    fc.record({
      quantity: quantityArb,
      unit: fc.integer({ min: 0, max: 5_000_000 }),
      headroom: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
    }),
    { minLength: 1, maxLength: 20 },
  )
  .filter((rows) => rows.some((row) => lineTotalCents(row.quantity, row.unit) > 0))
  .map((rows) => ({
    lines: rows.map((row) => line(row.quantity, row.headroom === null ? null : row.unit + row.headroom)),
    base: rows.map((row) => row.unit),
  }));

const withinCeilings = (lines: readonly LineTerms[], units: readonly number[]) =>
  units.every(
    (unit, index) => Number.isSafeInteger(unit) && unit >= 0 && unit <= (lines[index]?.ceilingCents ?? Infinity),
  );

describe("scaling an auto-bid's lines to a new total", () => {
  it("reaches any total exactly on a single line of quantity 1 (every auction before lots)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_CENTS }), fc.integer({ min: 0, max: MAX_CENTS }), (b, t) => {
        expect(scaleToAtMost([line(1_000)], [b], t)).toEqual({ unitCents: [t], totalCents: t });
        expect(scaleToAtLeast([line(1_000)], [b], t)).toEqual({ unitCents: [t], totalCents: t });
      }),
    );
  });

  it("keeps the lines in proportion and puts the cents the rounding dropped where they were dropped most", () => {
    // $100 + $300 at quantity 1 scaled to $200: exactly half each.
    expect(scaleToAtMost([line(1_000), line(1_000)], [10_000, 30_000], 20_000)?.unitCents).toEqual([5_000, 15_000]);
    // Three equal lines to 100 cents: 33.33… each, the one cent left to the first.
    expect(scaleToAtMost([line(1_000), line(1_000), line(1_000)], [1, 1, 1], 100)?.unitCents).toEqual([34, 33, 33]);
    // A line of 3 units moves in steps of 3 cents: 1,000 is out of reach, 999 is the closest under it.
    expect(scaleToAtMost([line(3_000)], [500], 1_000)).toEqual({ unitCents: [333], totalCents: 999 });
    expect(scaleToAtLeast([line(3_000)], [500], 1_000)).toEqual({ unitCents: [334], totalCents: 1_002 });
    // A ceiling holds its line; the other line takes the rest.
    expect(scaleToAtLeast([line(1_000, 1_000), line(1_000)], [1_000, 1_000], 3_000)?.unitCents).toEqual([1_000, 2_000]);
    expect(scaleToAtLeast([line(1_000, 1_000), line(1_000, 1_000)], [1_000, 1_000], 3_000)).toBeNull();
    expect(scaleToAtMost([line(1_000)], [0], 100)).toBeNull();
  });

  it("adds up, stays at or under the target and the ceilings, and no line could take a cent more", () => {
    fc.assert(
      fc.property(sheetArb, fc.integer({ min: 0, max: MAX_CENTS }), ({ lines, base }, target) => {
        const scaled = scaleToAtMost(lines, base, target);
        if (!scaled) throw new Error("a sheet with a total always scales");
        expect(scaled.totalCents).toBe(lotTotalCents(lines, scaled.unitCents));
        expect(scaled.totalCents).toBeLessThanOrEqual(target);
        expect(withinCeilings(lines, scaled.unitCents)).toBe(true);
        for (const [index, current] of lines.entries()) {
          const unit = scaled.unitCents[index] as number;
          if (unit + 1 > (current.ceilingCents ?? Infinity)) continue;
          const raised = scaled.unitCents.with(index, unit + 1);
          expect(lotTotalCents(lines, raised) > target || lotTotalCents(lines, raised) === scaled.totalCents).toBe(
            true,
          );
        }
        // A line of at most one unit without a ceiling moves by at most a cent: the target is reached.
        if (lines.some((current) => current.quantity <= 1_000 && current.ceilingCents === null)) {
          expect(scaled.totalCents).toBe(target);
        }
      }),
    );
  });

  it("mirrored for a minimum: at or over it, within the ceilings, and no line could take a cent less", () => {
    fc.assert(
      fc.property(sheetArb, fc.integer({ min: 0, max: MAX_CENTS }), ({ lines, base }, target) => {
        const scaled = scaleToAtLeast(lines, base, target);
        const most = lotTotalCents(
          lines,
          lines.map((current) => current.ceilingCents ?? MAX_CENTS),
        );
        if (!scaled) {
          expect(most).toBeLessThan(target);
          return;
        }
        expect(scaled.totalCents).toBe(lotTotalCents(lines, scaled.unitCents));
        expect(scaled.totalCents).toBeGreaterThanOrEqual(target);
        expect(withinCeilings(lines, scaled.unitCents)).toBe(true);
        for (const [index] of lines.entries()) {
          const unit = scaled.unitCents[index] as number;
          if (unit === 0) continue;
          const lowered = scaled.unitCents.with(index, unit - 1);
          expect(lotTotalCents(lines, lowered) < target || lotTotalCents(lines, lowered) === scaled.totalCents).toBe(
            true,
          );
        }
        if (lines.some((current) => current.quantity <= 1_000 && current.ceilingCents === null)) {
          expect(scaled.totalCents).toBe(target);
        }
      }),
    );
  });
});
