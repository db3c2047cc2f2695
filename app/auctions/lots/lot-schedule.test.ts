import { describe, expect, it } from "vitest";
import { lotScheduledEnds, rankSentence, sellerRank } from "./lot-schedule";

describe("staggered closing", () => {
  it("closes each lot the gap after the one before", () => {
    const first = new Date("2026-12-01T20:00:00Z");
    expect(lotScheduledEnds(first, 3, 5).map((end) => end.toISOString())).toEqual([
      "2026-12-01T20:00:00.000Z",
      "2026-12-01T20:05:00.000Z",
      "2026-12-01T20:10:00.000Z",
    ]);
    expect(lotScheduledEnds(first, 2, 0).map((end) => end.getTime())).toEqual([first.getTime(), first.getTime()]);
  });
});

describe("a seller's rank on a lot", () => {
  const bids = [
    { seller: 1, amount: 9_000, rank: 1 },
    { seller: 2, amount: 8_500, rank: 2 },
    { seller: 1, amount: 8_000, rank: 3 },
    { seller: 3, amount: 8_000, rank: 4 },
    { seller: 4, amount: 9_500, rank: 5 },
  ];

  it("counts the sellers ahead by their standing bids, a tie going to the earlier", () => {
    expect([1, 2, 3, 4, 5].map((seller) => sellerRank(bids, seller))).toEqual([1, 3, 2, 4, null]);
  });

  it("is said as a place, never with a price or how many bid", () => {
    expect([1, 2, 3, 4, null].map(rankSentence)).toEqual([
      "You have the lowest bid.",
      "You are 2nd.",
      "You are 3rd.",
      "You are 4th.",
      "You have not bid on this lot.",
    ]);
  });
});
