import { describe, expect, it } from "vitest";
import { FROM_MESSAGE, filterSearch, monthIn, ORDER_MESSAGE, readReportFilter, TO_MESSAGE } from "./report-filter";
import { formatBasisPoints, monthName, ratioBasisPoints, savingsOf, totalsBy, totalsOf } from "./savings";

// Hand-worked examples for the report's arithmetic (issue 21): integer cents, percentages in basis
// points rounded half to even once.

const row = (reserveCents: number, awardCents: number, invitedCount = 3, bidderCount = 2) => ({
  reserveCents,
  awardCents,
  openingCents: reserveCents,
  invitedCount,
  bidderCount,
});

describe("ratioBasisPoints", () => {
  it("rounds to the nearest basis point", () => {
    expect(ratioBasisPoints(1, 3)).toBe(3333); // 3333.33…
    expect(ratioBasisPoints(2, 3)).toBe(6667); // 6666.66…
    expect(ratioBasisPoints(-2, 3)).toBe(-6667);
    expect(ratioBasisPoints(0, 5)).toBe(0);
  });
  it("rounds an exact half to the even neighbour", () => {
    expect(ratioBasisPoints(1, 20_000)).toBe(0); // 0.5
    expect(ratioBasisPoints(3, 20_000)).toBe(2); // 1.5
    expect(ratioBasisPoints(5, 20_000)).toBe(2); // 2.5
    expect(ratioBasisPoints(-5, 20_000)).toBe(-2); // -2.5
  });
  it("stays exact where the product passes 2^53, and refuses fractions and a zero denominator", () => {
    expect(ratioBasisPoints(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(10_000);
    expect(ratioBasisPoints(Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER)).toBe(10_000);
    expect(ratioBasisPoints(1, 0)).toBeNull();
    expect(() => ratioBasisPoints(0.5, 3)).toThrow(RangeError);
  });
});

describe("savingsOf", () => {
  it("reserve $10,000.00, award $8,765.43: $1,234.57 saved, 12.35%", () => {
    // 123 457 / 1 000 000 × 10 000 = 1234.57 basis points → 1235
    expect(savingsOf(1_000_000, 876_543)).toEqual({ savingsCents: 123_457, savingsBasisPoints: 1235 });
    expect(formatBasisPoints(1235)).toBe("12.35%");
  });
  it("an award at the reserve saves nothing", () => {
    expect(savingsOf(500_000, 500_000)).toEqual({ savingsCents: 0, savingsBasisPoints: 0 });
  });
});

describe("totals", () => {
  it("weights the period's percentage by reserve instead of averaging percentages", () => {
    // $10,000 → $9,000 (10%) and $2,000 → $1,000 (50%): $2,000 saved of $12,000 = 16.666…% → 1667
    const totals = totalsOf([row(1_000_000, 900_000), row(200_000, 100_000, 4, 1)]);
    expect(totals).toEqual({
      auctions: 2,
      reserveCents: 1_200_000,
      awardCents: 1_000_000,
      savingsCents: 200_000,
      savingsBasisPoints: 1667,
      invitedCount: 7,
      bidderCount: 3,
    });
  });
  it("an empty period has no percentage", () => {
    expect(totalsOf([]).savingsBasisPoints).toBeNull();
    expect(formatBasisPoints(null)).toBe("n/a");
  });
  it("groups by key in key order", () => {
    const rows = [
      { ...row(100_000, 90_000), month: "2026-03" },
      { ...row(300_000, 240_000), month: "2026-01" },
      { ...row(100_000, 70_000), month: "2026-03" },
    ];
    const groups = totalsBy(rows, (item) => item.month);
    expect(groups.map((group) => [group.key, group.totals.savingsCents, group.totals.savingsBasisPoints])).toEqual([
      ["2026-01", 60_000, 2000],
      ["2026-03", 40_000, 2000],
    ]);
  });
  it("formats basis points and months", () => {
    expect(formatBasisPoints(5)).toBe("0.05%");
    expect(formatBasisPoints(-1234)).toBe("-12.34%");
    expect(formatBasisPoints(10_000)).toBe("100.00%");
    expect(monthName("2026-03")).toBe("March 2026");
  });
});

describe("readReportFilter", () => {
  const zone = "America/Edmonton";
  const read = (search: string) => readReportFilter(new URL(`http://x/account/reports${search}`), zone);

  it("takes whole days in the reader's zone, the last one included", () => {
    const filter = read("?from=2026-03-01&to=2026-03-31");
    expect(filter.errors).toEqual({});
    expect(filter.fromUtc?.toISOString()).toBe("2026-03-01T07:00:00.000Z"); // MST
    expect(filter.toUtc?.toISOString()).toBe("2026-04-01T06:00:00.000Z"); // MDT from March 8
    expect(filterSearch(filter)).toBe("?from=2026-03-01&to=2026-03-31");
  });
  it("has no bound for an empty date", () => {
    const filter = read("");
    expect([filter.fromUtc, filter.toUtc, filterSearch(filter)]).toEqual([null, null, ""]);
  });
  it("says what is wrong with a date and drops that bound", () => {
    const filter = read("?from=2026-02-30&to=soon");
    expect(filter.errors).toEqual({ from: FROM_MESSAGE, to: TO_MESSAGE });
    expect([filter.fromUtc, filter.toUtc]).toEqual([null, null]);
    const reversed = read("?from=2026-03-02&to=2026-03-01");
    expect(reversed.errors).toEqual({ to: ORDER_MESSAGE });
    expect(reversed.fromUtc).not.toBeNull();
    expect(reversed.toUtc).toBeNull();
  });
  it("puts an award in the month of the reader's zone", () => {
    // 2026-04-01 03:00 UTC is still March 31 in Edmonton.
    expect(monthIn(new Date("2026-04-01T03:00:00Z"), zone)).toBe("2026-03");
  });
});
