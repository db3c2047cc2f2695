import { describe, expect, it } from "vitest";
import {
  PRACTICE_LOTS,
  practiceLotFloorCents,
  practiceLotOpeningCents,
  practiceLotReserveCents,
} from "./practice-rules";

// The practice rate sheet (issue 31) agrees with itself: each lot's reserve is its lines' total, and
// competitor B opens exactly one decrement under it, within every ceiling.

describe("the practice rate sheet", () => {
  it("has two lots, of three lines and two, one line with a ceiling", () => {
    expect(PRACTICE_LOTS.map((lot) => [lot.title, lot.lines.length])).toEqual([
      ["Hauling", 3],
      ["Rig move", 2],
    ]);
    expect(PRACTICE_LOTS.flatMap((lot) => lot.lines).filter((line) => line.ceilingCents !== null)).toHaveLength(1);
  });

  it("prices each lot's reserve from its lines, and B's opening one decrement under it", () => {
    expect(PRACTICE_LOTS.map(practiceLotReserveCents)).toEqual([3_990_000, 1_664_000]);
    for (const lot of PRACTICE_LOTS) {
      expect(practiceLotOpeningCents(lot)).toBe(practiceLotReserveCents(lot) - lot.decrementCents);
      for (const line of lot.lines) {
        expect(line.openingUnitCents).toBeLessThan(line.reserveUnitCents);
        if (line.ceilingCents !== null) expect(line.reserveUnitCents).toBeLessThanOrEqual(line.ceilingCents);
      }
    }
  });

  it("puts competitor C's minimum at 80 % of each lot's reserve", () => {
    expect(PRACTICE_LOTS.map((lot) => practiceLotFloorCents(practiceLotReserveCents(lot)))).toEqual([
      3_192_000, 1_331_200,
    ]);
  });
});
