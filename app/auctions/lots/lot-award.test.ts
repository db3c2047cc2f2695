import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareAwards, lineSavingsCents } from "./lot-award";

// The award page's comparison (issue 31): lot by lot against one seller for all, and line savings.

const A = 1;
const B = 2;
const C = 3;

describe("comparing awards", () => {
  it("puts each lot's lowest bid beside what each seller bidding on every lot would cost", () => {
    const comparison = compareAwards([
      {
        lot: 10,
        reserve: 100_000,
        bids: [
          { seller: A, amount: 90_000, rank: 1 },
          { seller: B, amount: 85_000, rank: 2 },
          { seller: A, amount: 84_000, rank: 3 },
        ],
      },
      {
        lot: 11,
        reserve: 50_000,
        bids: [
          { seller: B, amount: 40_000, rank: 4 },
          { seller: A, amount: 45_000, rank: 5 },
        ],
      },
      {
        lot: 12,
        reserve: 20_000,
        bids: [
          { seller: C, amount: 15_000, rank: 6 },
          { seller: A, amount: 19_000, rank: 7 },
        ],
      },
    ]);
    expect(comparison.lotByLot).toEqual({
      total: 84_000 + 40_000 + 15_000,
      choices: [
        { lot: 10, seller: A, amount: 84_000 },
        { lot: 11, seller: B, amount: 40_000 },
        { lot: 12, seller: C, amount: 15_000 },
      ],
    });
    // Only A bid on every lot: B and C cannot take them all.
    expect(comparison.oneSeller).toEqual([{ seller: A, total: 84_000 + 45_000 + 19_000, overLotByLot: 9_000 }]);
    expect(comparison.unbid).toEqual([]);
  });

  it("takes each lot's first-ranked bid lot by lot where the evaluation ranks them, not its lowest", () => {
    // B is ranked first on lot 1 (its technical score outweighs A's lower price); A on lot 2.
    const comparison = compareAwards(
      [
        {
          lot: 1,
          reserve: 100_000,
          bids: [
            { seller: A, amount: 80_000, rank: 2 },
            { seller: B, amount: 90_000, rank: 1 },
          ],
        },
        {
          lot: 2,
          reserve: 100_000,
          bids: [
            { seller: A, amount: 50_000, rank: 1 },
            { seller: B, amount: 60_000, rank: 2 },
          ],
        },
      ],
      "ranking",
    );
    expect(comparison.lotByLot).toEqual({
      total: 140_000,
      choices: [
        { lot: 1, seller: B, amount: 90_000 },
        { lot: 2, seller: A, amount: 50_000 },
      ],
    });
    // Every lot to A costs less than the ranking's choice: shown as under it.
    expect(comparison.oneSeller).toEqual([
      { seller: A, total: 130_000, overLotByLot: -10_000 },
      { seller: B, total: 150_000, overLotByLot: 10_000 },
    ]);
  });

  it("gives a tie to the earlier bid, and lists lots nobody bid on", () => {
    const comparison = compareAwards([
      {
        lot: 1,
        reserve: 10_000,
        bids: [
          { seller: B, amount: 9_000, rank: 2 },
          { seller: A, amount: 9_000, rank: 1 },
        ],
      },
      { lot: 2, reserve: 10_000, bids: [] },
    ]);
    expect(comparison.lotByLot.choices).toEqual([{ lot: 1, seller: A, amount: 9_000 }]);
    expect(comparison.unbid).toEqual([2]);
    // A lot nobody bid on goes to nobody either way: one seller for all means every lot with bids.
    expect(comparison.oneSeller).toEqual([
      { seller: A, total: 9_000, overLotByLot: 0 },
      { seller: B, total: 9_000, overLotByLot: 0 },
    ]);
  });

  it("never costs more lot by lot than any one seller for all", () => {
    const bid = fc.record({
      seller: fc.constantFrom(A, B, C),
      amount: fc.integer({ min: 1, max: 1_000_000 }),
      rank: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(fc.array(bid, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), (lotsBids) => {
        const comparison = compareAwards(lotsBids.map((bids, lot) => ({ lot, reserve: 1_000_000, bids })));
        for (const option of comparison.oneSeller) expect(option.overLotByLot).toBeGreaterThanOrEqual(0);
        expect(comparison.lotByLot.choices.length + comparison.unbid.length).toBe(lotsBids.length);
      }),
    );
  });
});

describe("a line's savings", () => {
  it("is the quantity at the ceiling less the quantity at the awarded price, each rounded as the line is", () => {
    expect(lineSavingsCents({ quantity: 2_500, ceilingCents: 2_000 }, 1_999)).toBe(5_000 - 4_998);
    expect(lineSavingsCents({ quantity: 40_000, ceilingCents: 18_500 }, 17_500)).toBe(40_000);
    expect(lineSavingsCents({ quantity: 40_000, ceilingCents: null }, 17_500)).toBeNull();
  });
});
