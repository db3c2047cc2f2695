// The rules of a reverse auction's bidding (issue 9), as pure functions over integer cents and
// millisecond times, so they can be tested against a step-by-step reference model and run inside
// the bid transaction unchanged.
//
// - A manual bid must be at most the reserve and beat the current lowest by at least the decrement;
//   the leader does not bid against themself.
// - An auto-bid (a secret minimum) bids for its seller one decrement below the price it must beat,
//   never below the minimum (so at the minimum when that is closer), never against its own seller.
// - Competing auto-bids are resolved in one step: the lowest minimum leads at one decrement under the
//   runner-up's minimum, or at its own minimum if that is closer. Ties are won by whoever committed
//   the amount first: an auto-bid at its minimum ranks from when the minimum was entered, so a manual
//   bid equal to an earlier minimum loses to it.
// - The leader is the lowest amount, ties broken by that rank. The lowest price never rises; it falls
//   with every bid except an auto-bid that ties a later manual bid and takes the lead from it.
// - A paused auto-bid (its seller is held back by an unpaid subscription, issue 19) bids nothing
//   while paused: it keeps its place in line and bids again once the seller is in good standing.
// - Ranks only (issue 31: sellers see their place, never a price of others): a manual bid must be at
//   most the reserve and beat the seller's own lowest bid by the decrement, not the auction's lowest,
//   whose price a refusal would otherwise give away; the leader may widen its lead. No secret
//   minimums: a bid placed for the seller one decrement under the lowest would tell them its price.
//   An equal total ranks after the one placed first, as everywhere.

export type Decrement = { kind: "amount"; cents: number } | { kind: "percent"; basisPoints: number };

/** The least a bid must beat `price` by: a fixed amount, or a percentage rounded up to whole cents. */
export function decrementAt(price: number, decrement: Decrement): number {
  if (decrement.kind === "amount") return Math.max(1, decrement.cents);
  return Math.max(1, Math.ceil((price * decrement.basisPoints) / 10_000));
}

/** The highest amount a new manual bid may be: the reserve, or one decrement under the lowest. */
export function highestAllowedBid(reserve: number, lowest: number | null, decrement: Decrement): number {
  return lowest === null ? reserve : Math.min(reserve, lowest - decrementAt(lowest, decrement));
}

/** The standing lowest bid: who, how much, and when the amount was committed (for ties). */
export type Standing = { seller: number; amount: number; rank: number };

/** A seller's auto-bid: the secret minimum and when it was entered. */
export type AutoBid = { seller: number; minimum: number; enteredAt: number };

export type BiddingState = {
  reserve: number;
  decrement: Decrement;
  lowest: Standing | null;
  /** At most one per seller. */
  autoBids: AutoBid[];
  /** Each seller's own lowest bid so far (a minimum cannot be raised above it). */
  ownLowest: ReadonlyMap<number, number>;
  /** Sellers whose auto-bids bid nothing now (held back by their subscription); their bids placed stand. */
  paused?: ReadonlySet<number>;
  /**
   * The highest total at most `amount` an auto-bid can reach for `seller`, when not every total can
   * be (a lot of line items, issue 31: whole-cent unit prices move a line of 3 units in steps of 3
   * cents). Absent: every amount can. Each auto-bid's minimum must then be a total it can reach.
   */
  reachAtMost?: (seller: number, amount: number) => number;
  /** Sellers see their rank only: bids beat their own, `ownLowest` holds every seller's, no minimums. */
  ranksOnly?: boolean;
};

export type NewBid = { seller: number; amount: number; kind: "manual" | "auto"; rank: number };

export type Refusal =
  | { reason: "not-a-whole-amount" }
  /** A bid over the reserve; `highest` is the most a bid may be now (the reserve itself before any bid). */
  | { reason: "above-reserve"; reserve: number; highest: number }
  /** A bid within the reserve that does not beat the lowest by the decrement; `highest` is the most it may be now. */
  | { reason: "not-low-enough"; highest: number }
  /** Ranks only: a bid that does not beat the seller's own lowest by the decrement. */
  | { reason: "not-under-own-bid"; highest: number; ownBid: number }
  /** Ranks only: the auction takes no secret minimums. */
  | { reason: "no-minimums-in-ranks-only" }
  | { reason: "minimum-above-reserve"; reserve: number }
  | { reason: "already-leading" }
  | { reason: "minimum-above-own-bid"; ownBid: number }
  | { reason: "minimum-not-below-lowest"; lowest: number };

export type Outcome = { ok: true; bids: NewBid[]; state: BiddingState } | ({ ok: false } & Refusal);

const isWholeAmount = (amount: number) => Number.isSafeInteger(amount) && amount >= 1;

/** A seller's manual bid at `now`, then the auto-bids it sets off, or why it is refused. */
export function placeBid(state: BiddingState, seller: number, amount: number, now: number): Outcome {
  if (!isWholeAmount(amount)) return { ok: false, reason: "not-a-whole-amount" };
  if (state.ranksOnly) return placeRankedBid(state, seller, amount, now);
  if (state.lowest?.seller === seller) return { ok: false, reason: "already-leading" };
  const highest = highestAllowedBid(state.reserve, state.lowest?.amount ?? null, state.decrement);
  if (amount > state.reserve) return { ok: false, reason: "above-reserve", reserve: state.reserve, highest };
  if (amount > highest) return { ok: false, reason: "not-low-enough", highest };
  const bid: NewBid = { seller, amount, kind: "manual", rank: now };
  const afterBid = withBid(state, bid);
  const resolved = resolveAutoBids(afterBid, now);
  return { ok: true, bids: [bid, ...resolved.bids], state: resolved.state };
}

/** The most a seller's next bid may be when sellers see ranks only: the reserve, or their own lowest less the decrement. */
export function highestOwnBid(reserve: number, ownBid: number | undefined, decrement: Decrement): number {
  return ownBid === undefined ? reserve : Math.min(reserve, ownBid - decrementAt(ownBid, decrement));
}

/** A manual bid when sellers see ranks only: measured against the seller's own bids. */
function placeRankedBid(state: BiddingState, seller: number, amount: number, now: number): Outcome {
  const ownBid = state.ownLowest.get(seller);
  const highest = highestOwnBid(state.reserve, ownBid, state.decrement);
  // Only the reserve is named: the seller's own bid is theirs to know, the lowest is not.
  if (amount > state.reserve)
    return { ok: false, reason: "above-reserve", reserve: state.reserve, highest: state.reserve };
  if (ownBid !== undefined && amount > highest) return { ok: false, reason: "not-under-own-bid", highest, ownBid };
  const bid: NewBid = { seller, amount, kind: "manual", rank: now };
  return { ok: true, bids: [bid], state: withBid(state, bid) };
}

/**
 * A seller sets (or changes) their secret minimum at `now`, then the auto-bids run. The minimum keeps
 * its place in line when it is set to the same amount again.
 */
export function setAutoBid(state: BiddingState, seller: number, minimum: number, now: number): Outcome {
  if (state.ranksOnly) return { ok: false, reason: "no-minimums-in-ranks-only" };
  if (!isWholeAmount(minimum)) return { ok: false, reason: "not-a-whole-amount" };
  if (minimum > state.reserve) return { ok: false, reason: "minimum-above-reserve", reserve: state.reserve };
  const ownBid = state.ownLowest.get(seller);
  if (ownBid !== undefined && minimum > ownBid) return { ok: false, reason: "minimum-above-own-bid", ownBid };
  const lowest = state.lowest;
  if (lowest && lowest.seller !== seller && minimum >= lowest.amount) {
    return { ok: false, reason: "minimum-not-below-lowest", lowest: lowest.amount };
  }
  const existing = state.autoBids.find((autoBid) => autoBid.seller === seller);
  const enteredAt = existing && existing.minimum === minimum ? existing.enteredAt : now;
  const autoBids = [...state.autoBids.filter((autoBid) => autoBid.seller !== seller), { seller, minimum, enteredAt }];
  const resolved = resolveAutoBids({ ...state, autoBids }, now);
  return { ok: true, bids: resolved.bids, state: resolved.state };
}

/** Whether bid `a` leads over `b`: lower amount, then the earlier rank. */
export const leadsOver = (a: { amount: number; rank: number }, b: { amount: number; rank: number }) =>
  a.amount < b.amount || (a.amount === b.amount && a.rank < b.rank);

function withBid(state: BiddingState, bid: NewBid): BiddingState {
  const ownLowest = new Map(state.ownLowest);
  const own = ownLowest.get(bid.seller);
  if (own === undefined || bid.amount < own) ownLowest.set(bid.seller, bid.amount);
  const lowest = !state.lowest || leadsOver(bid, state.lowest) ? { ...bid } : state.lowest;
  return { ...state, lowest: { seller: lowest.seller, amount: lowest.amount, rank: lowest.rank }, ownLowest };
}

/** Who is in the contest: the leader (standing bid or auto-bid, whichever goes lower) and every other auto-bid. */
type Contender = { seller: number; floor: number; key: number; hasAutoBid: boolean };

function contenders(state: BiddingState): Contender[] {
  const list: Contender[] = [];
  const { lowest } = state;
  const active = state.paused?.size
    ? state.autoBids.filter((autoBid) => !state.paused?.has(autoBid.seller))
    : state.autoBids;
  for (const autoBid of active) {
    if (lowest && autoBid.seller === lowest.seller) continue;
    list.push({ seller: autoBid.seller, floor: autoBid.minimum, key: autoBid.enteredAt, hasAutoBid: true });
  }
  if (lowest) {
    const own = active.find((autoBid) => autoBid.seller === lowest.seller);
    const standing = { seller: lowest.seller, floor: lowest.amount, key: lowest.rank, hasAutoBid: false };
    const viaAutoBid = own ? { seller: own.seller, floor: own.minimum, key: own.enteredAt, hasAutoBid: true } : null;
    list.push(
      viaAutoBid &&
        leadsOver({ amount: viaAutoBid.floor, rank: viaAutoBid.key }, { amount: standing.floor, rank: standing.key })
        ? viaAutoBid
        : standing,
    );
  }
  // Lowest floor first, then who committed it first; the seller id only makes the order total.
  return list.sort((a, b) => a.floor - b.floor || a.key - b.key || a.seller - b.seller);
}

/** The auto-bids' contest, resolved in one step (at most two bids), until nobody can take the lead. */
export function resolveAutoBids(state: BiddingState, now: number): { bids: NewBid[]; state: BiddingState } {
  const ordered = contenders(state);
  const [winner, runnerUp] = ordered;
  const { lowest } = state;
  if (!winner) return { bids: [], state };
  if (lowest && winner.seller === lowest.seller) {
    // The leader answers only a challenger who could undercut its standing bid.
    if (!runnerUp || runnerUp.floor >= lowest.amount) return { bids: [], state };
  }
  if (!lowest && !runnerUp) {
    // The first bid of the auction, by a lone auto-bid: it opens at the reserve.
    const amount = reachable(state, winner, state.reserve);
    const bid: NewBid = {
      seller: winner.seller,
      amount,
      kind: "auto",
      rank: amount === winner.floor ? winner.key : now,
    };
    return { bids: [bid], state: withBid(state, bid) };
  }
  if (!runnerUp) return { bids: [], state };
  const price = reachable(
    state,
    winner,
    Math.max(winner.floor, runnerUp.floor - decrementAt(runnerUp.floor, state.decrement)),
  );
  const bids: NewBid[] = [];
  let current = state;
  // The runner-up's auto-bid goes to its minimum first, when that undercuts the standing price.
  if (runnerUp.hasAutoBid && runnerUp.floor > price && (!lowest || runnerUp.floor < lowest.amount)) {
    const bid: NewBid = { seller: runnerUp.seller, amount: runnerUp.floor, kind: "auto", rank: runnerUp.key };
    bids.push(bid);
    current = withBid(current, bid);
  }
  const winning: NewBid = {
    seller: winner.seller,
    amount: price,
    kind: "auto",
    rank: price === winner.floor ? winner.key : now,
  };
  if (!current.lowest || leadsOver(winning, current.lowest)) {
    bids.push(winning);
    current = withBid(current, winning);
  }
  return { bids, state: current };
}

/** What an auto-bid bids for `amount`: the closest total it can reach under it, never under its minimum. */
function reachable(state: BiddingState, contender: Contender, amount: number): number {
  if (!state.reachAtMost || !contender.hasAutoBid) return amount;
  return Math.max(contender.floor, Math.min(amount, state.reachAtMost(contender.seller, amount)));
}

/**
 * The order in which bids that reach the auction together (simultaneous: decided in one round, their
 * arrival order inside it being chance) are taken. The lowest of them that can be placed is decided
 * as if it had come first: no simultaneous bid may shut it out, so the lowest-cost seller is never
 * beaten by a higher bid that happened to arrive a moment sooner. The others go from the highest
 * amount down, so each one a decrement under the one before is placed too; one that would shut the
 * lowest out waits until after it (and is then refused if it no longer beats the price). Equal
 * amounts keep their arrival order. Answers the indices of `bids` in the order to decide them.
 */
export function simultaneousOrder(
  state: BiddingState,
  bids: readonly { seller: number; amount: number }[],
  firstRank: number,
): number[] {
  const at = (index: number) => bids[index] as { seller: number; amount: number };
  const indices = bids.map((_, index) => index);
  const ascending = [...indices].sort((a, b) => at(a).amount - at(b).amount || a - b);
  const lowest = ascending.find((index) => placeBid(state, at(index).seller, at(index).amount, firstRank).ok);
  const order: number[] = [];
  const waiting: number[] = [];
  let current = state;
  let rank = firstRank;
  for (const index of [...indices].sort((a, b) => at(b).amount - at(a).amount || a - b)) {
    if (index === lowest) continue;
    const trial = placeBid(current, at(index).seller, at(index).amount, rank);
    const shutsOut =
      trial.ok && lowest !== undefined && !placeBid(trial.state, at(lowest).seller, at(lowest).amount, rank + 1).ok;
    if (!trial.ok || shutsOut) {
      waiting.push(index);
      continue;
    }
    order.push(index);
    current = trial.state;
    rank += 1;
  }
  if (lowest !== undefined) order.push(lowest);
  return [...order, ...waiting.sort((a, b) => a - b)];
}
