import { describe, expect, it } from "vitest";
import { refusalMessage } from "./bid-messages";

// The words of a refused bid or minimum (issue 17): the reserve is called the reserve only when it is
// the reserve; the highest bid allowed now is given as such.

describe("refusalMessage", () => {
  it("over the reserve before any bid: the reserve", () => {
    expect(refusalMessage({ reason: "above-reserve", reserve: 1_000_000, highest: 1_000_000 })).toBe(
      "Your bid cannot be more than the reserve price of $10,000.00",
    );
  });

  it("over the reserve once bids are placed: the reserve, and the most allowed now", () => {
    expect(refusalMessage({ reason: "above-reserve", reserve: 1_000_000, highest: 880_000 })).toBe(
      "Your bid cannot be more than the reserve price of $10,000.00, and must be $8,800.00 or less now: the current lowest price less the minimum decrement",
    );
  });

  it("within the reserve but not low enough: the most allowed now, never called the reserve", () => {
    const message = refusalMessage({ reason: "not-low-enough", highest: 880_000 });
    expect(message).toBe("Your bid must be $8,800.00 or less: the current lowest price less the minimum decrement");
    expect(message).not.toContain("reserve");
  });

  it("a minimum over the reserve: says minimum", () => {
    expect(refusalMessage({ reason: "minimum-above-reserve", reserve: 1_000_000 })).toBe(
      "Your minimum cannot be more than the reserve price of $10,000.00",
    );
  });
});
