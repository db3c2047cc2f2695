import { type AutoBid, type BiddingState, type NewBid, placeBid, type Refusal, setAutoBid } from "../bidding/bidding";
import {
  type LineTerms,
  lotTotalCents,
  MAX_CENTS,
  type ScaledPrices,
  scaleToAtLeast,
  scaleToAtMost,
} from "./line-pricing";

// Bidding on a lot of line items (issue 31): the reverse auction's rules (`bidding.ts`) run on lot
// totals unchanged, and this layer turns a seller's unit prices into a total and an auto-bid's total
// into unit prices.
// - A manual bid names a unit price for every line, each within the line's ceiling; its total is
//   the sum of the line totals, and the rules decide on that total.
// - An auto-bid needs the seller's latest unit prices on the lot to scale (so a seller bids on a lot
//   before setting a minimum there). Its minimum is on the lot's total. Scaled prices cannot reach
//   every total, so the rules see, as the auto-bid's minimum, the lowest total the minimum lets the
//   scaling reach (`scaleToAtLeast`); a bid goes to the closest total the scaling reaches at or under
//   what the rules ask (`scaleToAtMost`), never under that minimum.
// Every auction before lots is one lot of one line with quantity 1: every total is reachable there,
// and this layer changes nothing the rules decide.

export type LotBiddingState = {
  /** The lot's rules state; its auto-bids hold the minimums as the sellers entered them. */
  bidding: BiddingState;
  lines: readonly LineTerms[];
  /** Each seller's latest unit prices on this lot, line by line. */
  latestUnits: ReadonlyMap<number, readonly number[]>;
};

/** A bid on the lot: its total (`amount`) and the unit price of each line, which add up to it. */
export type LineBid = NewBid & { unitCents: number[] };

export type LineRefusal =
  | Refusal
  | { reason: "wrong-line-count"; expected: number }
  /** A unit price that is not a whole number of cents from zero up; `line` counts from 0. */
  | { reason: "unit-price-not-whole"; line: number }
  | { reason: "unit-price-above-ceiling"; line: number; ceilingCents: number }
  | { reason: "total-above-maximum" }
  /** A minimum before any bid of the seller's on this lot: there are no prices to scale. */
  | { reason: "minimum-needs-a-bid" }
  /** The ceilings keep every total this seller's prices scale to under the minimum. */
  | { reason: "minimum-out-of-reach" };

export type LineOutcome = { ok: true; bids: LineBid[]; state: LotBiddingState } | ({ ok: false } & LineRefusal);

/** Checks a seller's unit prices against the lot's lines; null when they may be bid. */
export function unitPriceRefusal(lines: readonly LineTerms[], unitCents: readonly number[]): LineRefusal | null {
  if (unitCents.length !== lines.length) return { reason: "wrong-line-count", expected: lines.length };
  for (const [index, unit] of unitCents.entries()) {
    if (!Number.isSafeInteger(unit) || unit < 0 || unit > MAX_CENTS)
      return { reason: "unit-price-not-whole", line: index };
    const ceilingCents = lines[index]?.ceilingCents ?? null;
    if (ceilingCents !== null && unit > ceilingCents) {
      return { reason: "unit-price-above-ceiling", line: index, ceilingCents };
    }
  }
  return lotTotalCents(lines, unitCents) > MAX_CENTS ? { reason: "total-above-maximum" } : null;
}

/**
 * The rules' view of the lot: each auto-bid's minimum as the lowest total its seller's prices reach
 * at or over it, and the scaling the rules call back into, remembering each price sheet it made so a
 * bid's lines are the ones that gave its total.
 */
function rulesView(state: LotBiddingState) {
  const sheets = new Map<number, Map<number, number[]>>();
  const remember = (seller: number, scaled: ScaledPrices) => {
    const bySeller = sheets.get(seller) ?? new Map<number, number[]>();
    bySeller.set(scaled.totalCents, scaled.unitCents);
    sheets.set(seller, bySeller);
    return scaled.totalCents;
  };
  const paused = new Set(state.bidding.paused ?? []);
  const floor = (autoBid: AutoBid): AutoBid | null => {
    const base = state.latestUnits.get(autoBid.seller);
    const scaled = base ? scaleToAtLeast(state.lines, base, autoBid.minimum) : null;
    if (!scaled) return null;
    remember(autoBid.seller, scaled);
    return { ...autoBid, minimum: scaled.totalCents };
  };
  const autoBids: AutoBid[] = [];
  for (const autoBid of state.bidding.autoBids) {
    const floored = floor(autoBid);
    if (floored) autoBids.push(floored);
    else {
      // Its prices cannot reach its minimum (or it has none yet): it keeps its place and bids nothing.
      autoBids.push(autoBid);
      paused.add(autoBid.seller);
    }
  }
  const bidding: BiddingState = {
    ...state.bidding,
    autoBids,
    paused,
    reachAtMost: (seller, amount) => {
      const base = state.latestUnits.get(seller);
      const scaled = base ? scaleToAtMost(state.lines, base, amount) : null;
      return scaled ? remember(seller, scaled) : 0;
    },
  };
  return { bidding, floor, sheetFor: (seller: number, total: number) => sheets.get(seller)?.get(total) };
}

/** The rules' new state back in the lot's terms: the minimums as entered, the latest prices moved. */
function afterRules(
  before: LotBiddingState,
  rulesState: BiddingState,
  bids: readonly LineBid[],
  minimums: ReadonlyMap<number, number>,
): LotBiddingState {
  const latestUnits = new Map(before.latestUnits);
  for (const bid of bids) latestUnits.set(bid.seller, bid.unitCents);
  const autoBids = rulesState.autoBids.map((autoBid) => ({
    ...autoBid,
    minimum: minimums.get(autoBid.seller) ?? autoBid.minimum,
  }));
  const { reachAtMost: _reach, ...rest } = rulesState;
  return {
    ...before,
    bidding: { ...rest, autoBids, paused: before.bidding.paused },
    latestUnits,
  };
}

function withLines(
  bids: readonly NewBid[],
  sheetFor: (seller: number, total: number) => number[] | undefined,
  manual?: { seller: number; unitCents: readonly number[] },
): LineBid[] {
  return bids.map((bid, index) => {
    const unitCents =
      index === 0 && manual && bid.kind === "manual" ? [...manual.unitCents] : sheetFor(bid.seller, bid.amount);
    if (!unitCents) throw new Error(`no price sheet for seller ${bid.seller}'s auto-bid at ${bid.amount}`);
    return { ...bid, unitCents };
  });
}

const enteredMinimums = (state: LotBiddingState) =>
  new Map(state.bidding.autoBids.map((autoBid) => [autoBid.seller, autoBid.minimum]));

/** A seller's bid of a unit price per line at `now`, then the auto-bids it sets off, or why not. */
export function placeLineBid(
  state: LotBiddingState,
  seller: number,
  unitCents: readonly number[],
  now: number,
): LineOutcome {
  const refusal = unitPriceRefusal(state.lines, unitCents);
  if (refusal) return { ok: false, ...refusal };
  // The seller's own auto-bid, if the rules call on it after this bid, scales these prices.
  const latestUnits = new Map(state.latestUnits);
  latestUnits.set(seller, unitCents);
  const view = rulesView({ ...state, latestUnits });
  const outcome = placeBid(view.bidding, seller, lotTotalCents(state.lines, unitCents), now);
  if (!outcome.ok) return outcome;
  const bids = withLines(outcome.bids, view.sheetFor, { seller, unitCents });
  return { ok: true, bids, state: afterRules(state, outcome.state, bids, enteredMinimums(state)) };
}

/** A seller sets (or changes) their secret minimum on the lot's total at `now`, then the auto-bids run. */
export function setLotAutoBid(state: LotBiddingState, seller: number, minimum: number, now: number): LineOutcome {
  if (state.bidding.ranksOnly) return { ok: false, reason: "no-minimums-in-ranks-only" };
  if (!Number.isSafeInteger(minimum) || minimum < 1) return { ok: false, reason: "not-a-whole-amount" };
  if (!state.latestUnits.has(seller)) return { ok: false, reason: "minimum-needs-a-bid" };
  const view = rulesView(state);
  const floored = view.floor({ seller, minimum, enteredAt: now });
  if (!floored) return { ok: false, reason: "minimum-out-of-reach" };
  const outcome = setAutoBid(view.bidding, seller, floored.minimum, now);
  if (!outcome.ok) return outcome;
  const minimums = enteredMinimums(state);
  minimums.set(seller, minimum);
  const bids = withLines(outcome.bids, view.sheetFor);
  return { ok: true, bids, state: afterRules(state, outcome.state, bids, minimums) };
}
