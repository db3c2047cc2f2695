import { describe, expect, it } from "vitest";
import { parseGroupedDecimal } from "./decimals";

describe("parseGroupedDecimal", () => {
  it("reads digits, thousands grouped by commas, and up to the given decimals", () => {
    expect(parseGroupedDecimal("12,500.5", 2)).toBe(1_250_050);
    expect(parseGroupedDecimal("12500", 2)).toBe(1_250_000);
    expect(parseGroupedDecimal("1,250.125", 3)).toBe(1_250_125);
    expect(parseGroupedDecimal("0.001", 3)).toBe(1);
  });

  it("refuses signs, exponents, radix prefixes, spaces, bad grouping and extra decimals", () => {
    for (const bad of ["", "-1", "+1", "1e3", "0x10", " 1", "1 000", "1,25", "12,50.0", "1.234", ".5", "1."]) {
      expect(parseGroupedDecimal(bad, 2), bad).toBeNull();
    }
    expect(parseGroupedDecimal("9".repeat(20), 2)).toBeNull();
  });
});
