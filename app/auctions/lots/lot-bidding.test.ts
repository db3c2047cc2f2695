import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BiddingState, type Decrement, decrementAt, leadsOver, placeBid, setAutoBid } from "../bidding/bidding";
import { type LineTerms, lotTotalCents, scaleToAtLeast } from "./line-pricing";
import { type LineBid, type LineOutcome, type LotBiddingState, placeLineBid, setLotAutoBid } from "./lot-bidding";

// Bidding on lots of line items (issue 31): examples, then properties over random rate sheets and
// random sequences of bids and minimums: every bid's lines add up to its total and keep their
// ceilings, an auto-bid never goes under its seller's minimum, every bid beats the price before it by
// the decrement unless it is an auto-bid at its minimum (as on a single price), the lowest price never
// rises, and a lot of one line of quantity 1 decides exactly as a single price does.

const A = 1;
const B = 2;
const C = 3;
const line = (quantity: number, ceilingCents: number | null = null): LineTerms => ({ quantity, ceilingCents });

function lot(lines: LineTerms[], reserve: number, decrement: Decrement): LotBiddingState {
  return {
    bidding: { reserve, decrement, lowest: null, autoBids: [], ownLowest: new Map() },
    lines,
    latestUnits: new Map(),
  };
}

function accepted(outcome: LineOutcome): { bids: LineBid[]; state: LotBiddingState } {
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason}`);
  return outcome;
}

const hauling = [line(40_000), line(250_000, 300), line(12_500)]; // 40 h, 250 km (≤ $3.00/km), 12.5 m³

describe("a seller's bid on a lot", () => {
  it("is the sum of its lines, each quantity × unit price rounded to the cent", () => {
    const { bids, state } = accepted(
      placeLineBid(lot(hauling, 1_000_000, { kind: "amount", cents: 1_000 }), A, [12_000, 250, 4_550], 1),
    );
    expect(bids).toEqual([
      { seller: A, amount: 480_000 + 62_500 + 56_875, kind: "manual", rank: 1, unitCents: [12_000, 250, 4_550] },
    ]);
    expect(state.latestUnits.get(A)).toEqual([12_000, 250, 4_550]);
  });

  it("names a price for every line, in whole cents, within each line's ceiling", () => {
    const start = lot(hauling, 1_000_000, { kind: "amount", cents: 1_000 });
    expect(placeLineBid(start, A, [12_000, 250], 1)).toMatchObject({
      ok: false,
      reason: "wrong-line-count",
      expected: 3,
    });
    expect(placeLineBid(start, A, [12_000, 2.5, 4_550], 1)).toMatchObject({
      ok: false,
      reason: "unit-price-not-whole",
      line: 1,
    });
    expect(placeLineBid(start, A, [12_000, -1, 4_550], 1)).toMatchObject({
      ok: false,
      reason: "unit-price-not-whole",
      line: 1,
    });
    expect(placeLineBid(start, A, [12_000, 301, 4_550], 1)).toMatchObject({
      ok: false,
      reason: "unit-price-above-ceiling",
      line: 1,
      ceilingCents: 300,
    });
    expect(placeLineBid(start, A, [30_000, 300, 4_550], 1)).toMatchObject({ ok: false, reason: "above-reserve" });
  });
});

describe("an auto-bid on a lot", () => {
  it("needs a bid of the seller's on the lot to scale, and a minimum the ceilings let it reach", () => {
    const start = lot([line(1_000, 500), line(1_000, 500)], 100_000, { kind: "amount", cents: 100 });
    expect(setLotAutoBid(start, A, 900, 1)).toMatchObject({ ok: false, reason: "minimum-needs-a-bid" });
    const bid = accepted(placeLineBid(start, A, [400, 400], 1)).state;
    expect(setLotAutoBid(bid, A, 1_001, 2)).toMatchObject({ ok: false, reason: "minimum-out-of-reach" });
    expect(setLotAutoBid(bid, A, 700, 2)).toMatchObject({ ok: true, bids: [] });
  });

  it("scales the seller's latest prices in proportion to the total the rules ask for", () => {
    // A bids $100/h and $2/km; B undercuts; A's auto-bid answers one decrement ($10) under B.
    const lines = [line(10_000), line(100_000)]; // 10 h, 100 km
    let state = accepted(
      placeLineBid(lot(lines, 1_000_000, { kind: "amount", cents: 1_000 }), A, [10_000, 200], 1),
    ).state;
    state = accepted(setLotAutoBid(state, A, 100_000, 2)).state;
    const answer = accepted(placeLineBid(state, B, [9_000, 200], 3));
    expect(answer.bids.map((bid) => [bid.seller, bid.amount, bid.kind])).toEqual([
      [B, 110_000, "manual"],
      [A, 109_000, "auto"],
    ]);
    const auto = answer.bids[1] as LineBid;
    // 120,000 → 109,000: each price × 0.9083… rounded down (90.83/h, 1.81/km), then the 70 cents still
    // missing go to the hour, the line that can take them (a cent more per km would be $1 more).
    expect(auto.unitCents).toEqual([9_090, 181]);
    expect(lotTotalCents(lines, auto.unitCents)).toBe(109_000);
  });

  it("goes to the closest total its lines reach, never under its minimum", () => {
    // One line of 2 units: only even totals. B's minimum of 1,001 is 1,002 in reach.
    const lines = [line(2_000)];
    let state = accepted(placeLineBid(lot(lines, 10_000, { kind: "amount", cents: 1 }), A, [5_000], 1)).state;
    state = accepted(placeLineBid(state, B, [4_999], 2)).state;
    state = accepted(setLotAutoBid(state, B, 1_001, 3)).state;
    const answer = accepted(placeLineBid(state, A, [4_000], 4));
    expect(answer.bids.map((bid) => [bid.seller, bid.amount])).toEqual([
      [A, 8_000],
      [B, 7_998],
    ]);
    const contest = accepted(setLotAutoBid(answer.state, A, 1_001, 5));
    // Equal minimums that reach the same total: the one entered first owns it, as on a single price.
    expect(contest.state.bidding.lowest).toMatchObject({ seller: B, amount: 1_002 });
    expect(contest.state.bidding.autoBids.find((autoBid) => autoBid.seller === B)?.minimum).toBe(1_001);
  });
});

// Random rate sheets of 1 to 4 lines, and random actions by three sellers.
const sheetArbitrary = fc.array(
  fc.record({
    quantity: fc.oneof(
      fc.integer({ min: 1, max: 3_000 }),
      fc.integer({ min: 1, max: 50 }).map((units) => units * 1_000),
    ),
    ceiling: fc.option(fc.integer({ min: 50, max: 20_000 }), { nil: null }),
  }),
  { minLength: 1, maxLength: 4 },
);
const actionArbitrary = fc.oneof(
  fc.record({
    kind: fc.constant("bid" as const),
    seller: fc.constantFrom(A, B, C),
    shares: fc.array(fc.integer({ min: 0, max: 1_000 }), { minLength: 4, maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant("minimum" as const),
    seller: fc.constantFrom(A, B, C),
    share: fc.integer({ min: 1, max: 1_000 }),
  }),
);

describe("properties over random lots", () => {
  it("keep the lines, the ceilings, the minimums and the decrement, and the price only falls", () => {
    fc.assert(
      fc.property(
        sheetArbitrary,
        fc.oneof(
          fc.integer({ min: 1, max: 5_000 }).map((cents): Decrement => ({ kind: "amount", cents })),
          fc.integer({ min: 1, max: 1_000 }).map((basisPoints): Decrement => ({ kind: "percent", basisPoints })),
        ),
        fc.array(actionArbitrary, { maxLength: 25 }),
        (sheet, decrement, actions) => {
          const lines = sheet.map((row) => line(row.quantity, row.ceiling));
          // Unit prices as shares (in thousandths) of a top price of $200, held to each ceiling.
          const units = (shares: readonly number[]) =>
            lines.map((current, index) =>
              Math.min(current.ceilingCents ?? 20_000, Math.floor(((shares[index] ?? 0) * 20_000) / 1_000)),
            );
          const reserve = Math.max(1, lotTotalCents(lines, units([1_000, 1_000, 1_000, 1_000])));
          let state = lot(lines, reserve, decrement);
          let now = 0;
          for (const action of actions) {
            now += 1;
            const before = state;
            const unitCents = action.kind === "bid" ? units(action.shares) : [];
            const latest = new Map(before.latestUnits);
            if (action.kind === "bid") latest.set(action.seller, unitCents);
            const minimum = action.kind === "minimum" ? Math.max(1, Math.floor((reserve * action.share) / 1_000)) : 0;
            const outcome =
              action.kind === "bid"
                ? placeLineBid(state, action.seller, unitCents, now)
                : setLotAutoBid(state, action.seller, minimum, now);
            if (!outcome.ok) continue;
            const minimums = new Map(before.bidding.autoBids.map((autoBid) => [autoBid.seller, autoBid.minimum]));
            if (action.kind === "minimum") minimums.set(action.seller, minimum);
            let previous = before.bidding.lowest;
            for (const bid of outcome.bids) {
              expect(lotTotalCents(lines, bid.unitCents)).toBe(bid.amount);
              for (const [index, unit] of bid.unitCents.entries()) {
                expect(Number.isSafeInteger(unit) && unit >= 0).toBe(true);
                expect(unit).toBeLessThanOrEqual(lines[index]?.ceilingCents ?? Number.POSITIVE_INFINITY);
              }
              expect(bid.amount).toBeLessThanOrEqual(reserve);
              const floor = (() => {
                const entered = minimums.get(bid.seller);
                const base = latest.get(bid.seller);
                return entered === undefined || !base ? undefined : scaleToAtLeast(lines, base, entered)?.totalCents;
              })();
              if (bid.kind === "auto") {
                expect(bid.amount).toBeGreaterThanOrEqual(minimums.get(bid.seller) ?? Number.POSITIVE_INFINITY);
              }
              if (previous) {
                const beatsByDecrement = bid.amount <= previous.amount - decrementAt(previous.amount, decrement);
                expect(beatsByDecrement || (bid.kind === "auto" && bid.amount === floor)).toBe(true);
                expect(leadsOver(bid, previous)).toBe(true);
              }
              latest.set(bid.seller, bid.unitCents);
              previous = { seller: bid.seller, amount: bid.amount, rank: bid.rank };
            }
            state = outcome.state;
            expect(state.bidding.lowest?.amount).toBe(previous?.amount);
            expect(new Map(state.bidding.autoBids.map((autoBid) => [autoBid.seller, autoBid.minimum]))).toEqual(
              minimums,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("decide a lot of one line of quantity 1 exactly as a single price", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom("bid", "minimum"),
            seller: fc.constantFrom(A, B, C),
            share: fc.integer({ min: 1, max: 1_000 }),
          }),
          { maxLength: 25 },
        ),
        (reserve, cents, actions) => {
          const decrement: Decrement = { kind: "amount", cents };
          let single: BiddingState = { reserve, decrement, lowest: null, autoBids: [], ownLowest: new Map() };
          let lotState = lot([line(1_000)], reserve, decrement);
          let now = 0;
          for (const action of actions) {
            now += 1;
            const amount = Math.max(1, Math.floor((reserve * action.share) / 1_000));
            const hasBid = lotState.latestUnits.has(action.seller);
            if (action.kind === "minimum" && !hasBid) continue; // a minimum on a lot follows a bid there
            const expected =
              action.kind === "bid"
                ? placeBid(single, action.seller, amount, now)
                : setAutoBid(single, action.seller, amount, now);
            const actual =
              action.kind === "bid"
                ? placeLineBid(lotState, action.seller, [amount], now)
                : setLotAutoBid(lotState, action.seller, amount, now);
            expect(actual.ok).toBe(expected.ok);
            if (!expected.ok || !actual.ok) {
              expect(actual).toEqual(expected);
              continue;
            }
            expect(actual.bids.map(({ unitCents, ...bid }) => bid)).toEqual(expected.bids);
            expect(actual.bids.every((bid) => bid.unitCents[0] === bid.amount)).toBe(true);
            single = expected.state;
            lotState = actual.state;
            expect(lotState.bidding.lowest).toEqual(single.lowest);
            expect(lotState.bidding.autoBids).toEqual(single.autoBids);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
