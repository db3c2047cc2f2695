import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BiddingState,
  type Decrement,
  decrementAt,
  leadsOver,
  type NewBid,
  type Outcome,
  placeBid,
  setAutoBid,
  simultaneousOrder,
} from "./bidding";

// The bidding rules of issue 9: examples of each sentence of the rules, then properties checked over
// random sequences of bids and auto-bids against a simple reference model: a plain list of every bid
// and minimum, from which the leader, the price and what each seller may do are worked out afresh.

const amount = (cents: number): Decrement => ({ kind: "amount", cents });
const percent = (basisPoints: number): Decrement => ({ kind: "percent", basisPoints });

function start(reserve: number, decrement: Decrement): BiddingState {
  return { reserve, decrement, lowest: null, autoBids: [], ownLowest: new Map() };
}

function accepted(outcome: Outcome): { bids: NewBid[]; state: BiddingState } {
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason}`);
  return outcome;
}

const A = 1;
const B = 2;
const C = 3;

describe("manual bids", () => {
  it("must stay at or under the reserve and beat the lowest by the decrement", () => {
    let state = start(100_000, amount(1_000));
    expect(placeBid(state, A, 100_001, 1)).toMatchObject({ ok: false, reason: "above-reserve" });
    state = accepted(placeBid(state, A, 100_000, 1)).state;
    expect(placeBid(state, B, 99_500, 2)).toMatchObject({ ok: false, reason: "not-low-enough", highest: 99_000 });
    expect(accepted(placeBid(state, B, 99_000, 2)).state.lowest).toEqual({ seller: B, amount: 99_000, rank: 2 });
  });

  it("take a percentage decrement of the lowest, rounded up to whole cents", () => {
    expect(decrementAt(100_001, percent(250))).toBe(2_501);
    expect(decrementAt(1, percent(1))).toBe(1);
    const state = accepted(placeBid(start(100_001, percent(250)), A, 100_001, 1)).state;
    expect(placeBid(state, B, 97_501, 2)).toMatchObject({ ok: false, highest: 97_500 });
  });

  it("are refused from the leader, and for amounts that are not whole cents", () => {
    const state = accepted(placeBid(start(10_000, amount(100)), A, 10_000, 1)).state;
    expect(placeBid(state, A, 9_000, 2)).toMatchObject({ ok: false, reason: "already-leading" });
    for (const bad of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(placeBid(state, B, bad, 2)).toMatchObject({ ok: false, reason: "not-a-whole-amount" });
    }
  });
});

describe("refusals say which limit the amount broke (issue 17)", () => {
  // Reserve $10,000.00, decrement $100.00: A $9,000.00, B $8,900.00; the most A may bid now is $8,800.00.
  const afterTwoBids = () => {
    const first = accepted(placeBid(start(1_000_000, amount(10_000)), A, 900_000, 1)).state;
    return accepted(placeBid(first, B, 890_000, 2)).state;
  };

  it("over the reserve: names the reserve, and the most allowed now", () => {
    expect(placeBid(afterTwoBids(), A, 1_050_000, 3)).toEqual({
      ok: false,
      reason: "above-reserve",
      reserve: 1_000_000,
      highest: 880_000,
    });
    expect(placeBid(start(1_000_000, amount(10_000)), A, 1_000_001, 1)).toEqual({
      ok: false,
      reason: "above-reserve",
      reserve: 1_000_000,
      highest: 1_000_000,
    });
  });

  it("within the reserve but not a decrement under the lowest: not low enough, with the most allowed now", () => {
    const state = afterTwoBids();
    for (const tooHigh of [1_000_000, 890_000, 880_001]) {
      expect(placeBid(state, A, tooHigh, 3)).toEqual({ ok: false, reason: "not-low-enough", highest: 880_000 });
    }
    expect(placeBid(state, A, 880_000, 3).ok).toBe(true);
  });

  it("a minimum over the reserve is a minimum over the reserve", () => {
    expect(setAutoBid(afterTwoBids(), A, 1_000_001, 3)).toEqual({
      ok: false,
      reason: "minimum-above-reserve",
      reserve: 1_000_000,
    });
  });
});

describe("auto-bids", () => {
  it("bid one decrement under the lowest, never below the minimum, never against their own seller", () => {
    let state = accepted(placeBid(start(10_000, amount(100)), A, 10_000, 1)).state;
    const set = accepted(setAutoBid(state, B, 9_000, 2));
    expect(set.bids).toEqual([{ seller: B, amount: 9_900, kind: "auto", rank: 2 }]);
    state = set.state;
    // A bids under B: B answers one decrement lower.
    const answered = accepted(placeBid(state, A, 9_500, 3));
    expect(answered.bids.map((bid) => [bid.seller, bid.amount])).toEqual([
      [A, 9_500],
      [B, 9_400],
    ]);
    // A bids within a decrement of B's minimum: B goes to its minimum, which is closer.
    const closer = accepted(placeBid(answered.state, A, 9_050, 4));
    expect(closer.bids.map((bid) => [bid.seller, bid.amount])).toEqual([
      [A, 9_050],
      [B, 9_000],
    ]);
    // Under the minimum, B stops.
    const under = accepted(placeBid(closer.state, A, 8_900, 5));
    expect(under.bids).toHaveLength(1);
    expect(under.state.lowest?.seller).toBe(A);
  });

  it("resolve a contest in one step: the lower minimum leads one decrement under the other's minimum", () => {
    let state = accepted(placeBid(start(100_000, amount(1_000)), C, 100_000, 1)).state;
    state = accepted(setAutoBid(state, A, 50_000, 2)).state;
    const contest = accepted(setAutoBid(state, B, 80_000, 3));
    expect(contest.bids.map((bid) => [bid.seller, bid.amount])).toEqual([
      [B, 80_000],
      [A, 79_000],
    ]);
    expect(contest.state.lowest).toMatchObject({ seller: A, amount: 79_000 });
  });

  it("lead at their own minimum when that is closer than one decrement under the other's", () => {
    let state = accepted(placeBid(start(100_000, amount(1_000)), C, 100_000, 1)).state;
    state = accepted(setAutoBid(state, A, 79_500, 2)).state;
    const contest = accepted(setAutoBid(state, B, 80_000, 3));
    expect(contest.state.lowest).toMatchObject({ seller: A, amount: 79_500 });
  });

  it("give an equal minimum to the seller who entered it first, also against a later manual bid", () => {
    let state = accepted(placeBid(start(100_000, amount(1_000)), C, 100_000, 1)).state;
    state = accepted(setAutoBid(state, A, 70_000, 2)).state;
    const tie = accepted(setAutoBid(state, B, 70_000, 3));
    expect(tie.state.lowest).toMatchObject({ seller: A, amount: 70_000 });
    expect(tie.bids.every((bid) => bid.seller === A)).toBe(true);
    // A manual bid equal to A's minimum loses to the earlier minimum.
    let manual = accepted(placeBid(start(100_000, amount(1_000)), C, 100_000, 1)).state;
    manual = accepted(setAutoBid(manual, A, 90_000, 2)).state;
    expect(manual.lowest).toMatchObject({ seller: A, amount: 99_000 });
    const equal = accepted(placeBid(manual, C, 90_000, 3));
    expect(equal.bids.map((bid) => [bid.seller, bid.amount, bid.kind])).toEqual([
      [C, 90_000, "manual"],
      [A, 90_000, "auto"],
    ]);
    expect(equal.state.lowest).toMatchObject({ seller: A, amount: 90_000, rank: 2 });
  });

  it("open at the reserve when nobody has bid, and cannot be raised above the seller's own bid", () => {
    const opened = accepted(setAutoBid(start(10_000, amount(100)), A, 5_000, 1));
    expect(opened.bids).toEqual([{ seller: A, amount: 10_000, kind: "auto", rank: 1 }]);
    expect(setAutoBid(opened.state, A, 10_001, 2)).toMatchObject({ ok: false, reason: "minimum-above-reserve" });
    const lowered = accepted(setAutoBid(opened.state, A, 4_000, 2)).state;
    const b = accepted(placeBid(lowered, B, 9_000, 3)).state;
    expect(b.lowest).toMatchObject({ seller: A, amount: 8_900 });
    expect(setAutoBid(b, A, 9_000, 4)).toMatchObject({ ok: false, reason: "minimum-above-own-bid", ownBid: 8_900 });
    // A minimum that cannot beat the lowest is refused, not kept.
    expect(setAutoBid(b, C, 8_900, 4)).toMatchObject({ ok: false, reason: "minimum-not-below-lowest" });
  });
});

describe("paused auto-bids (a seller held back by an unpaid subscription, issue 19)", () => {
  it("bid nothing while paused; the seller's standing bid stays; they bid again once unpaused", () => {
    let state = start(100_000, amount(1_000));
    state = accepted(setAutoBid(state, A, 50_000, 1)).state;
    expect(state.lowest).toMatchObject({ seller: A, amount: 100_000 });
    const paused = { ...state, paused: new Set([A]) };
    // B undercuts A's standing bid: A's minimum would answer, but it is paused.
    const whilePaused = accepted(placeBid(paused, B, 90_000, 2));
    expect(whilePaused.bids).toEqual([{ seller: B, amount: 90_000, kind: "manual", rank: 2 }]);
    expect(whilePaused.state.lowest).toMatchObject({ seller: B, amount: 90_000 });
    // The minimum is kept, and answers the next bid once A is in good standing again.
    expect(whilePaused.state.autoBids).toEqual(state.autoBids);
    const resumed = accepted(placeBid({ ...whilePaused.state, paused: new Set() }, C, 80_000, 3));
    expect(resumed.bids.at(-1)).toMatchObject({ seller: A, amount: 79_000, kind: "auto" });
  });

  it("leave a contest of minimums to the others", () => {
    let state = start(100_000, amount(1_000));
    state = accepted(setAutoBid(state, A, 50_000, 1)).state;
    const paused = { ...state, paused: new Set([A]) };
    const outcome = accepted(setAutoBid(paused, B, 60_000, 2));
    // B's minimum meets no live rival: it undercuts A's standing reserve bid by one decrement only.
    expect(outcome.bids).toEqual([{ seller: B, amount: 99_000, kind: "auto", rank: 2 }]);
    expect(outcome.state.lowest).toMatchObject({ seller: B, amount: 99_000 });
  });
});

describe("simultaneous bids", () => {
  const D = 4;
  /** Decides bids in the given order, as a round does; answers who was placed and the end state. */
  function decideInOrder(state: BiddingState, bids: { seller: number; amount: number }[], order: number[]) {
    const placed = new Set<number>();
    let current = state;
    let rank = 10;
    for (const index of order) {
      const bid = bids[index] as { seller: number; amount: number };
      const outcome = placeBid(current, bid.seller, bid.amount, rank);
      if (!outcome.ok) continue;
      placed.add(index);
      current = outcome.state;
      rank += 1;
    }
    return { placed, state: current };
  }

  it("are all placed when each is a decrement under another, whatever order they arrived in", () => {
    const state = accepted(placeBid(start(100_000, amount(100)), D, 90_000, 1)).state;
    const bids = [
      { seller: A, amount: 89_800 },
      { seller: B, amount: 89_900 },
      { seller: C, amount: 89_700 },
    ];
    const order = simultaneousOrder(state, bids, 2);
    expect(order).toEqual([1, 0, 2]);
    const { placed, state: after } = decideInOrder(state, bids, order);
    expect(placed.size).toBe(3);
    expect(after.lowest).toMatchObject({ seller: C, amount: 89_700 });
  });

  it("let the lowest win over a higher one within a decrement of it, though the higher came first", () => {
    const state = accepted(placeBid(start(100_000, amount(100)), D, 90_000, 1)).state;
    const bids = [
      { seller: A, amount: 89_900 },
      { seller: B, amount: 89_850 },
    ];
    const { placed, state: after } = decideInOrder(state, bids, simultaneousOrder(state, bids, 2));
    expect([...placed]).toEqual([1]);
    expect(after.lowest).toMatchObject({ seller: B, amount: 89_850 });
  });

  it("hold back a bid whose auto-bid answer would shut the lowest out", () => {
    let state = accepted(placeBid(start(100_000, amount(100)), D, 90_000, 1)).state;
    state = accepted(setAutoBid(state, C, 80_000, 2)).state; // C answers every bid one decrement under it
    expect(state.lowest).toMatchObject({ seller: C, amount: 89_900 });
    const bids = [
      { seller: A, amount: 89_700 },
      { seller: B, amount: 89_650 },
    ];
    // A first would make C answer at $896.00, shutting B's $896.50 out.
    const { placed, state: after } = decideInOrder(state, bids, simultaneousOrder(state, bids, 3));
    expect(placed.has(1)).toBe(true);
    expect(after.lowest).toMatchObject({ seller: C, amount: 89_550 });
  });

  it("always place the lowest bid that could be placed on its own, and never end above it", () => {
    const bidArbitrary = fc.record({
      seller: fc.integer({ min: 1, max: 5 }),
      amount: fc.integer({ min: 1, max: 2_100 }),
    });
    fc.assert(
      fc.property(
        scenarioArbitrary,
        fc.array(bidArbitrary, { minLength: 1, maxLength: 12 }),
        ({ reserve, decrement, actions }, bids) => {
          // A history first (bids and minimums), then the simultaneous bids.
          let state = start(reserve, decrement);
          let rank = 1;
          for (const action of actions) {
            const outcome =
              action.kind === "bid"
                ? placeBid(state, action.seller, action.amount, rank)
                : setAutoBid(state, action.seller, action.minimum, rank);
            if (outcome.ok) state = outcome.state;
            rank += 1;
          }
          const order = simultaneousOrder(state, bids, rank);
          expect([...order].sort((a, b) => a - b)).toEqual(bids.map((_, index) => index));
          const alone = bids
            .map((bid, index) => ({ ...bid, index }))
            .filter((bid) => placeBid(state, bid.seller, bid.amount, rank).ok)
            .sort((a, b) => a.amount - b.amount || a.index - b.index);
          const { placed, state: after } = decideInOrder(state, bids, order);
          const lowest = alone[0];
          if (!lowest) return;
          expect(placed.has(lowest.index)).toBe(true);
          expect(after.lowest?.amount).toBeLessThanOrEqual(lowest.amount);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

// ---- Properties over random sequences, against a reference model ------------------------------

const actionArbitrary = (reserve: number) =>
  fc.oneof(
    fc.record({
      kind: fc.constant("bid" as const),
      seller: fc.integer({ min: 1, max: 4 }),
      amount: fc.integer({ min: 1, max: reserve + 50 }),
    }),
    fc.record({
      kind: fc.constant("auto" as const),
      seller: fc.integer({ min: 1, max: 4 }),
      minimum: fc.integer({ min: 1, max: reserve + 50 }),
    }),
  );

const scenarioArbitrary = fc
  .record({
    reserve: fc.integer({ min: 100, max: 5_000 }),
    decrement: fc.oneof(fc.integer({ min: 1, max: 300 }).map(amount), fc.integer({ min: 1, max: 2_000 }).map(percent)),
  })
  .chain(({ reserve, decrement }) =>
    fc.record({
      reserve: fc.constant(reserve),
      decrement: fc.constant(decrement),
      actions: fc.array(actionArbitrary(reserve), { maxLength: 40 }),
    }),
  );

/** The reference model: every bid and every minimum in a list, everything else worked out from it. */
class Reference {
  readonly bids: NewBid[] = [];
  readonly minimums = new Map<number, { minimum: number; enteredAt: number }>();
  constructor(
    readonly reserve: number,
    readonly decrement: Decrement,
  ) {}

  leader(): NewBid | undefined {
    return this.bids.reduce<NewBid | undefined>((best, bid) => (!best || leadsOver(bid, best) ? bid : best), undefined);
  }
  ownLowest(seller: number): number | undefined {
    const own = this.bids.filter((bid) => bid.seller === seller).map((bid) => bid.amount);
    return own.length ? Math.min(...own) : undefined;
  }
  /** How low each seller is committed to go, and since when (for ties). */
  floorOf(seller: number): { floor: number; key: number } | undefined {
    const leader = this.leader();
    const auto = this.minimums.get(seller);
    const standing = leader?.seller === seller ? { floor: leader.amount, key: leader.rank } : undefined;
    const viaAuto = auto ? { floor: auto.minimum, key: auto.enteredAt } : undefined;
    if (standing && viaAuto) {
      return leadsOver({ amount: viaAuto.floor, rank: viaAuto.key }, { amount: standing.floor, rank: standing.key })
        ? viaAuto
        : standing;
    }
    if (leader && leader.seller !== seller && !viaAuto) return undefined;
    return standing ?? viaAuto;
  }
}

describe("properties over random bidding", () => {
  it("keep every rule, and agree with the reference model after every action", () => {
    fc.assert(
      fc.property(scenarioArbitrary, ({ reserve, decrement, actions }) => {
        let state = start(reserve, decrement);
        const model = new Reference(reserve, decrement);
        let now = 0;
        for (const action of actions) {
          now += 1;
          const before = model.leader();
          const outcome =
            action.kind === "bid"
              ? placeBid(state, action.seller, action.amount, now)
              : setAutoBid(state, action.seller, action.minimum, now);

          // Refusals: exactly when the model says the action breaks a rule.
          if (action.kind === "bid") {
            const highest = before ? before.amount - decrementAt(before.amount, decrement) : reserve;
            const legal = before?.seller !== action.seller && action.amount <= Math.min(reserve, highest);
            expect(outcome.ok).toBe(legal);
            // The refusal names the limit broken: the reserve when over it, else the most allowed now.
            if (!legal && before?.seller !== action.seller) {
              expect(outcome).toEqual(
                action.amount > reserve
                  ? { ok: false, reason: "above-reserve", reserve, highest: Math.min(reserve, highest) }
                  : { ok: false, reason: "not-low-enough", highest },
              );
            }
          } else {
            const own = model.ownLowest(action.seller);
            const legal =
              action.minimum <= reserve &&
              (own === undefined || action.minimum <= own) &&
              (!before || before.seller === action.seller || action.minimum < before.amount);
            expect(outcome.ok).toBe(legal);
          }
          if (!outcome.ok) continue;

          if (action.kind === "auto") {
            const existing = model.minimums.get(action.seller);
            model.minimums.set(action.seller, {
              minimum: action.minimum,
              enteredAt: existing?.minimum === action.minimum ? existing.enteredAt : now,
            });
          }
          let previousLowest = before;
          for (const bid of outcome.bids) {
            // Every bid within the reserve. A manual bid never comes from the leader; an auto-bid does
            // only to answer another seller whose minimum undercuts its standing bid (never against itself).
            expect(bid.amount).toBeLessThanOrEqual(reserve);
            const current = model.leader();
            if (current?.seller === bid.seller) {
              expect(bid.kind).toBe("auto");
              const challenged = [...model.minimums].some(
                ([seller, auto]) => seller !== bid.seller && auto.minimum < current.amount,
              );
              expect(challenged).toBe(true);
            }
            if (bid.kind === "auto") {
              // Never below the seller's minimum.
              expect(bid.amount).toBeGreaterThanOrEqual(
                model.minimums.get(bid.seller)?.minimum ?? Number.POSITIVE_INFINITY,
              );
            }
            model.bids.push(bid);
            const lowest = model.leader();
            // The lowest price never rises, and each bid takes the lead.
            expect(lowest).toBe(bid);
            if (previousLowest) expect(bid.amount).toBeLessThanOrEqual(previousLowest.amount);
            previousLowest = lowest;
          }
          expect(outcome.bids.length).toBeLessThanOrEqual(action.kind === "bid" ? 3 : 2);

          // The engine's state is the model's.
          state = outcome.state;
          const leader = model.leader();
          expect(state.lowest).toEqual(
            leader ? { seller: leader.seller, amount: leader.amount, rank: leader.rank } : null,
          );

          // Settled: no other auto-bid can take the lead, and the leader is the lowest committed floor.
          if (leader) {
            for (const [seller, auto] of model.minimums) {
              if (seller === leader.seller) continue;
              const wouldBid = Math.max(auto.minimum, leader.amount - decrementAt(leader.amount, decrement));
              const rank = wouldBid === auto.minimum ? auto.enteredAt : now + 1;
              expect(leadsOver({ amount: wouldBid, rank }, leader)).toBe(false);
            }
            const floors = [...new Set([...model.minimums.keys(), leader.seller])]
              .map((seller) => ({ seller, ...model.floorOf(seller) }))
              .filter((entry): entry is { seller: number; floor: number; key: number } => entry.floor !== undefined);
            const best = floors.reduce((a, b) =>
              leadsOver({ amount: b.floor, rank: b.key }, { amount: a.floor, rank: a.key }) ? b : a,
            );
            expect(best.seller).toBe(leader.seller);
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("price a contest of two minimums as the rule says, whatever the order they are entered in", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 100_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (reserve, step, first, second) => {
          const decrement = amount(step);
          const a = (first % reserve) + 1;
          const b = (second % reserve) + 1;
          let state = accepted(setAutoBid(start(reserve, decrement), A, a, 1)).state;
          const outcome = setAutoBid(state, B, b, 2);
          if (!outcome.ok) {
            // B's minimum could not beat A's opening bid at the reserve.
            expect(b).toBeGreaterThanOrEqual(reserve);
            return;
          }
          state = outcome.state;
          const [low, high, lowSeller] = a <= b ? [a, b, A] : [b, a, B];
          expect(state.lowest?.seller).toBe(lowSeller);
          expect(state.lowest?.amount).toBe(Math.max(low, Math.min(reserve, high - step)));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("ranks only (issue 31): each bid beats the seller's own, never tells the lowest", () => {
  const ranked = (reserve: number, decrement: Decrement): BiddingState => ({
    ...start(reserve, decrement),
    ranksOnly: true,
  });

  it("measures a bid against the seller's own lowest, lets the leader widen its lead, takes no minimum", () => {
    let state = ranked(10_000, amount(100));
    state = accepted(placeBid(state, A, 9_000, 1)).state;
    // B may bid above A's price: B does not know it.
    state = accepted(placeBid(state, B, 9_500, 2)).state;
    expect(state.lowest).toMatchObject({ seller: A, amount: 9_000 });
    expect(placeBid(state, B, 9_450, 3)).toEqual({
      ok: false,
      reason: "not-under-own-bid",
      highest: 9_400,
      ownBid: 9_500,
    });
    // Over the reserve names the reserve only, never a price derived from the lowest.
    expect(placeBid(state, C, 10_001, 3)).toEqual({
      ok: false,
      reason: "above-reserve",
      reserve: 10_000,
      highest: 10_000,
    });
    state = accepted(placeBid(state, A, 8_900, 3)).state;
    expect(state.lowest).toMatchObject({ seller: A, amount: 8_900 });
    expect(setAutoBid(state, B, 5_000, 4)).toEqual({ ok: false, reason: "no-minimums-in-ranks-only" });
  });

  it("keeps every rule over random bids: own steps by the decrement, the lowest never rises, the first equal leads", () => {
    fc.assert(
      fc.property(
        scenarioArbitrary,
        fc.array(fc.record({ seller: fc.integer({ min: 1, max: 4 }), amount: fc.integer({ min: 1, max: 5_100 }) }), {
          maxLength: 40,
        }),
        ({ reserve, decrement }, bids) => {
          let state = ranked(reserve, decrement);
          const placed: NewBid[] = [];
          let now = 0;
          for (const { seller, amount: cents } of bids) {
            now += 1;
            const own = placed.filter((bid) => bid.seller === seller).map((bid) => bid.amount);
            const ownLowest = own.length ? Math.min(...own) : undefined;
            const legal =
              cents <= reserve && (ownLowest === undefined || cents <= ownLowest - decrementAt(ownLowest, decrement));
            const outcome = placeBid(state, seller, cents, now);
            expect(outcome.ok).toBe(legal);
            if (!outcome.ok) {
              // A refusal never names an amount other than the reserve or one derived from the seller's own bid.
              if (outcome.reason === "not-under-own-bid") expect(outcome.ownBid).toBe(ownLowest);
              if (outcome.reason === "above-reserve") expect(outcome.highest).toBe(reserve);
              continue;
            }
            expect(outcome.bids).toEqual([{ seller, amount: cents, kind: "manual", rank: now }]);
            const previous = state.lowest;
            state = outcome.state;
            placed.push(...outcome.bids);
            const leader = placed.reduce((best, bid) => (leadsOver(bid, best) ? bid : best));
            expect(state.lowest).toEqual({ seller: leader.seller, amount: leader.amount, rank: leader.rank });
            if (previous) expect(state.lowest?.amount).toBeLessThanOrEqual(previous.amount);
          }
        },
      ),
    );
  });
});
