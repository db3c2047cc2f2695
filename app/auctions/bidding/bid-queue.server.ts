import { blockedMessage } from "~/payments/subscriptions/standing";
import { blockedSellers, sellerMayBid } from "~/payments/subscriptions/standing.server";
import { type BidKind, metricsOf } from "~/platform/metrics.server";
import type { Database, Transaction } from "~db/database.server";
import { dropShare, LARGE_DROP } from "../auction-rules";
import { lotTotalCents } from "../lots/line-pricing";
import { placeLineBid } from "../lots/lot-bidding";
import { lineRefusalMessage } from "../lots/lot-messages";
import { minimumChange } from "./auto-bids.server";
import { refusalMessage } from "./bid-messages";
import {
  acceptedOutcome,
  type BidderRequest,
  type BidOutcome,
  type Change,
  checkBidder,
  type ManualRequest,
  type MinimumRequest,
  NOT_INVITED,
  Round,
  refused,
} from "./bid-round.server";
import { type BiddingState, type NewBid, placeBid, simultaneousOrder } from "./bidding";
import { lockAndRead, type Read, readForBidding } from "./bidding-read.server";
import { acceptedOnly, knownStatesOf, lotKey, perDatabase, remember, stateAfter } from "./known-states.server";
import { writeRound } from "./round-write.server";

// Bids and auto-bids on one auction (issue 9, decision 005), as this process takes them: each
// auction's changes wait in an in-process queue, in the order they came. The manual bids waiting on
// one auction form a round: decided together, each on the state the one before left, in the order the
// rules give simultaneous bids (bidding.ts), and written by one guarded statement
// (round-write.server.ts), on the auction's state as this process last knew it
// (known-states.server.ts). A busy auction costs one write per round, not a read and a write per bid.
// The guard fails only when another machine (or a status change) came in between; then the round is
// read and decided again, and after a few such misses it takes the row lock first (the locking path,
// as every auto-bid change does: auto-bids.server.ts).

/** A manual bid waiting in this process for its auction's next round. */
type Waiting<T> = { request: T; settle: (outcome: BidOutcome) => void; fail: (error: unknown) => void };
type QueuedBid = { kind: "manual" } & Waiting<ManualRequest>;
type Queued = QueuedBid | ({ kind: "minimum" } & Waiting<MinimumRequest>);

/** Per database handle: each lot's changes waiting in this process (by `lotKey`), in the order they came. */
const queues = new WeakMap<Database, Map<string, Queued[]>>();

/**
 * Queues a change on the auction and, if none is under way, works through the queue: the manual bids
 * at its head as one round, a minimum's change on its own, until it is empty. Waiting changes hold
 * no pooled connection (a busy auction would otherwise take them all from the rest of the site).
 */
function enqueue(db: Database, item: Queued) {
  const key = lotKey(item.request);
  const auctionQueues = perDatabase(queues, db);
  const queue = auctionQueues.get(key);
  if (queue) {
    queue.push(item);
    return;
  }
  const waiting: Queued[] = [item];
  auctionQueues.set(key, waiting);
  void (async () => {
    while (waiting.length > 0) {
      const head = waiting[0] as Queued;
      if (head.kind === "minimum") {
        waiting.shift();
        await standingRefusal(db, head.request)
          .then((blocked) => blocked ?? minimumChange(db, head.request))
          .then(head.settle, head.fail);
        continue;
      }
      const end = waiting.findIndex((queued) => queued.kind !== "manual");
      const batch = waiting.splice(0, end === -1 ? waiting.length : end) as QueuedBid[];
      await manualRound(
        db,
        key,
        batch.map((queued) => queued.request),
      ).then(
        (outcomes) => {
          for (const [index, queued] of batch.entries()) queued.settle(outcomes[index] as BidOutcome);
        },
        (error) => {
          for (const queued of batch) queued.fail(error);
        },
      );
    }
    auctionQueues.delete(key);
  })();
}

/** The typo guard: a bid far under the price it would meet, not yet confirmed, is asked about once more. */
function largeDropQuestion(state: BiddingState, request: ManualRequest): BidOutcome | undefined {
  // Ranks only: against the seller's own lowest bid, the price they know.
  const referenceCents =
    (state.ranksOnly ? state.ownLowest.get(request.organizationId) : state.lowest?.amount) ?? state.reserve;
  const drop = dropShare(referenceCents, request.amountCents);
  if (drop <= LARGE_DROP || request.confirmed !== false) return undefined;
  return { kind: "unconfirmed", referenceCents, dropPercent: Math.round(drop * 100) };
}

/**
 * The order a round's bids are decided in: the ones that may bid and need no question, in the order
 * the rules give simultaneous bids (bidding.ts: the lowest that can be placed is never shut out by
 * a higher one), then the rest as they came. This only orders them: each is checked again when its
 * turn comes (the bids before it may have moved the end or the price).
 */
function roundOrder(
  round: Round,
  requests: ManualRequest[],
  at: Date,
  blocked: ReadonlyMap<number, unknown>,
): number[] {
  const ready: number[] = [];
  const rest: number[] = [];
  requests.forEach((request, index) => {
    const problem =
      checkBidder(round.read, round.auction, round.lot, request.organizationId, request.now ?? at) ||
      blocked.has(request.organizationId);
    (problem || largeDropQuestion(round.state, request) ? rest : ready).push(index);
  });
  const bids = ready.map((index) => ({
    seller: requests[index]?.organizationId as number,
    amount: requests[index]?.amountCents as number,
  }));
  const order = simultaneousOrder(round.state, bids, round.nextRank).map((position) => ready[position] as number);
  return [...order, ...rest];
}

/**
 * A manual bid on the round's lot: one amount, or (a lot priced by lines, issue 31) a unit price per
 * line whose total the request names; the automatic bids it sets off carry their scaled lines.
 */
function decideManual(
  round: Round,
  request: ManualRequest,
): { ok: true; bids: NewBid[]; state: BiddingState } | { ok: false; message: string } {
  const { sheet } = round;
  if (!sheet) {
    const outcome = placeBid(round.state, request.organizationId, request.amountCents, round.nextRank);
    return outcome.ok ? outcome : { ok: false, message: refusalMessage(outcome) };
  }
  const unitCents = request.unitCents ?? [];
  const lines = round.lotState(sheet).lines;
  if (unitCents.length === lines.length && lotTotalCents(lines, unitCents) !== request.amountCents) {
    // The page showed another total (its lines changed meanwhile): asked again, nothing placed.
    return { ok: false, message: "The lot's total has changed: please check your unit prices and bid again" };
  }
  const outcome = placeLineBid(round.lotState(sheet), request.organizationId, unitCents, round.nextRank);
  if (!outcome.ok) return { ok: false, message: lineRefusalMessage(outcome) };
  sheet.latestUnits = new Map(outcome.state.latestUnits);
  return { ok: true, bids: outcome.bids, state: outcome.state.bidding };
}

/** Times a round of manual bids is decided on a fresh read and written with the guard before it takes the row lock first. */
const GUARDED_ATTEMPTS = 3;

/**
 * Manual bids on one auction, decided as one round (see roundOrder) and written together. Each is
 * refused or accepted exactly as it would have been on its own after the ones decided before it. A
 * bid's time is taken when the round is decided: a bid that waited its turn past the end is late.
 */
async function manualRound(db: Database, key: string, requests: ManualRequest[]): Promise<BidOutcome[]> {
  const { auctionId, lotId } = requests[0] as ManualRequest;
  const sellers = [...new Set(requests.map((request) => request.organizationId))];
  // Sellers held back by their subscription (issue 19), bidders and minimums' holders: one read per
  // round, not per bid.
  const blocked = await blockedSellers(db, sellers, new Date(), auctionId);
  const paused = new Set(blocked.keys());
  const decide = async (executor: Database | Transaction, read: Read | undefined, fromMemory = false) => {
    if (!read) return requests.map(() => refused(404, NOT_INVITED));
    const round = new Round(read, paused);
    const decided: (BidOutcome | Change)[] = [];
    const at = new Date();
    for (const index of roundOrder(round, requests, at, blocked)) {
      const request = requests[index] as ManualRequest;
      const now = request.now ?? at;
      const problem = checkBidder(read, round.auction, round.lot, request.organizationId, now);
      if (problem) {
        decided[index] = problem;
        continue;
      }
      const heldBack = blocked.get(request.organizationId);
      if (heldBack) {
        decided[index] = refused(403, blockedMessage(heldBack, "bid"));
        continue;
      }
      const unconfirmed = largeDropQuestion(round.state, request);
      if (unconfirmed) {
        decided[index] = unconfirmed;
        continue;
      }
      const outcome = decideManual(round, request);
      if (!outcome.ok) {
        decided[index] = refused(400, outcome.message, "amount");
        continue;
      }
      const { userId, onBehalfNote } = request;
      const onBehalf =
        onBehalfNote === undefined
          ? undefined
          : {
              sellerId: request.organizationId,
              what: "bid" as const,
              amountCents: request.amountCents,
              ...(round.sheet && request.unitCents ? { unitCents: request.unitCents } : {}),
              userId,
              note: onBehalfNote,
            };
      round.add(outcome.bids, outcome.state, { userId, onBehalfNote, onBehalf }, now);
      decided[index] = round.changes.at(-1) as Change;
    }
    if (round.changes.length === 0) {
      // Nothing written, so no guard vouched for a state kept in memory: another machine may have
      // moved the price, the leader or the end meanwhile. Refusals are given on a fresh read only.
      if (fromMemory) return undefined;
      remember(db, key, read, accepted);
      return decided as BidOutcome[];
    }
    const ids = await writeRound(executor, round, at);
    if (!ids) return undefined; // the auction changed since the read
    remember(db, key, stateAfter(round), accepted);
    return decided.map((entry) =>
      "kind" in entry ? entry : acceptedOutcome(entry, ids[round.changes.indexOf(entry)] ?? []),
    );
  };
  // The state this process knows, if it covers every seller of the round; else (and after a miss) a read.
  const knownState = knownStatesOf(db).get(key);
  const accepted = acceptedOnly(knownState?.termsAccepted);
  let known = sellers.every((seller) => accepted[seller] === true) ? knownState : undefined;
  knownStatesOf(db).delete(key);
  for (let attempt = 0; attempt < GUARDED_ATTEMPTS; attempt += 1) {
    const outcomes = known
      ? await decide(db, known, true)
      : await decide(db, await readForBidding(db, auctionId, lotId, sellers, false));
    if (outcomes) return outcomes;
    known = undefined;
  }
  return db.transaction(async (tx) => {
    const outcomes = await decide(tx, await lockAndRead(tx, auctionId, lotId, sellers, false));
    if (!outcomes) throw new Error("the auction changed under its row lock");
    return outcomes;
  });
}

/** A seller's manual bid: binding once accepted; the auto-bids it sets off are written with it. */
export function placeManualBid(db: Database, request: ManualRequest): Promise<BidOutcome> {
  return counted(
    db,
    "bid",
    request,
    new Promise((settle, fail) => enqueue(db, { kind: "manual", request, settle, fail })),
  );
}

/**
 * Counts the answer for the metrics; the bids of an accepted one are committed by now (its write or
 * transaction has ended), which starts the timing of their event to the auction's watchers.
 */
function counted(db: Database, kind: BidKind, request: BidderRequest, answer: Promise<BidOutcome>) {
  const metrics = metricsOf(db);
  if (!metrics) return answer;
  const placedBy = request.onBehalfNote === undefined ? "seller" : "on_behalf";
  return answer.then(
    (outcome) => {
      metrics.countBid(kind, placedBy, outcome);
      // A minimum that placed no bid (yet) moves no price: nothing for the watchers to time.
      if (outcome.kind === "accepted" && outcome.bids.length > 0) metrics.bidCommitted(request.auctionId);
      return outcome;
    },
    (error: unknown) => {
      metrics.countBid(kind, placedBy, undefined);
      throw error;
    },
  );
}

/** A seller whose subscription is overdue past the grace period, or cancelled, places no new bid (issue 19). */
async function standingRefusal(db: Database, request: BidderRequest): Promise<BidOutcome | undefined> {
  const standing = await sellerMayBid(db, request.organizationId, request.now ?? new Date());
  return standing.mayBid ? undefined : refused(403, blockedMessage(standing.reason, "bid"));
}

/**
 * A seller sets or changes their secret minimum; the system bids for them (and for the others) in
 * the same transaction, which holds the auction's row lock. The minimum is never shown to anyone but
 * its seller.
 */
export function setAutoBidMinimum(db: Database, request: MinimumRequest): Promise<BidOutcome> {
  return counted(
    db,
    "minimum",
    request,
    new Promise((settle, fail) => enqueue(db, { kind: "minimum", request, settle, fail })),
  );
}
