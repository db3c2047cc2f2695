import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionEvents, auctionInvitations, auctions } from "~db/schema";
import { decrementOf, dropShare, endAfterBid, LARGE_DROP, statusAt } from "../auction-rules";
import { refusalMessage } from "./bid-messages";
import { type BiddingState, type NewBid, placeBid, setAutoBid, simultaneousOrder } from "./bidding";

// Bids and auto-bids on one auction (issue 9). A change reads the auction's state, checks each
// seller may bid, applies the rules of bidding.ts and writes the bids with the automatic ones they
// set off, the new lowest, the end moved by late bids, the events and the notification (delivered by
// PostgreSQL at commit) in ONE statement, guarded by the auction's sequence number: it writes only if
// nothing changed the auction since the read, under the row lock that statement takes. The lock is
// held for that statement alone, never across round trips to this process.
//
// In this process the manual bids waiting on one auction form a round: decided together, each on the
// state the one before left, in the order the rules give simultaneous bids (bidding.ts), and written by
// that one statement, on the auction's state as this process last knew it. A busy auction costs one
// write per round, not a read and a write per bid. The guard fails only when another machine (or a
// status change) came in between; then the round is read and decided again, and after a few such
// misses it takes the row lock first (the locking path, as every auto-bid change does).

export const AUCTION_CHANNEL = "auction_events";

export type BidderRequest = { auctionId: number; organizationId: number; userId: number; now?: Date };

export type BidOutcome =
  | {
      kind: "accepted";
      bids: { id: number; amountCents: number; kind: "manual" | "auto" }[];
      endsAt: Date;
      /** Who led before and who leads now (for the outbid notice), and whether the end moved. */
      previousLeaderId: number | null;
      leaderId: number | null;
      extended: boolean;
    }
  | { kind: "refused"; status: 400 | 403 | 404 | 409; field: "amount" | "minimum" | "form"; message: string }
  /** A manual bid far under the price, not yet confirmed: nothing written; ask the seller once more. */
  | { kind: "unconfirmed"; referenceCents: number; dropPercent: number };

type Refused = Extract<BidOutcome, { kind: "refused" }>;

const refused = (
  status: 400 | 403 | 404 | 409,
  message: string,
  field: "amount" | "minimum" | "form" = "form",
): Refused => ({ kind: "refused", status, field, message });

/** The auction's columns the bidding rules need. */
const auctionColumns = {
  id: auctions.id,
  kind: auctions.kind,
  status: auctions.status,
  startsAt: auctions.startsAt,
  endsAt: auctions.endsAt,
  scheduledEndsAt: auctions.scheduledEndsAt,
  softCloseWindowMinutes: auctions.softCloseWindowMinutes,
  softCloseExtensionMinutes: auctions.softCloseExtensionMinutes,
  softCloseCapMinutes: auctions.softCloseCapMinutes,
  extensions: auctions.extensions,
  reserveCents: auctions.reserveCents,
  decrementKind: auctions.decrementKind,
  decrementValue: auctions.decrementValue,
  sequence: auctions.sequence,
};
type BiddingAuction = { [K in keyof typeof auctionColumns]: (typeof auctionColumns)[K]["_"]["data"] };

/** What the rules need besides the auction's columns, read in the same statement (one snapshot). */
type BiddingRead = {
  /** Per asking seller: true once the terms are accepted, false before; absent when not invited. */
  termsAccepted: Record<string, boolean> | null;
  lowest: { seller: number; amount: number; rank: number } | null;
  autoBids: { id: number; seller: number; minimum: number; enteredAt: number }[];
  /** Per asking seller, their own lowest bid (read for minimum changes only: manual bids never need it). */
  ownLowest: Record<string, number> | null;
};

type Read = BiddingRead & { auction: BiddingAuction };

/**
 * The auction's state for the rules, in one statement: every part from one snapshot, so the sequence
 * number read with it vouches for all of it. `sellers` are the organizations asking.
 */
async function readForBidding(
  db: Database | Transaction,
  auctionId: number,
  sellers: number[],
  withOwnLowest: boolean,
): Promise<Read | undefined> {
  const asking = sql`(select unnest(${`{${sellers.join(",")}}`}::int[]))`;
  const ownLowest = withOwnLowest
    ? sql`(select json_object_agg(organization_id, lowest) from (select organization_id, min(amount_cents) as lowest
          from ${auctionBids} where auction_id = ${auctionId} and organization_id in ${asking}
          group by organization_id) as own)`
    : sql`null`;
  const [row] = await db
    .select({
      ...auctionColumns,
      state: sql<BiddingRead | string>`json_build_object(
        'termsAccepted', (select json_object_agg(organization_id, terms_accepted_at is not null)
          from ${auctionInvitations} where auction_id = ${auctionId} and organization_id in ${asking}),
        'lowest', (select json_build_object('seller', organization_id, 'amount', amount_cents, 'rank', rank)
          from ${auctionBids} where id = ${auctions.lowestBidId}),
        'autoBids', (select coalesce(json_agg(json_build_object('id', id, 'seller', organization_id,
          'minimum', minimum_cents, 'enteredAt', entered_sequence) order by id), '[]'::json)
          from ${auctionAutoBids} where auction_id = ${auctionId}),
        'ownLowest', ${ownLowest}
      )`,
    })
    .from(auctions)
    .where(eq(auctions.id, auctionId));
  if (!row) return undefined;
  const { state, ...auction } = row;
  const parsed: BiddingRead = typeof state === "string" ? JSON.parse(state) : state;
  return { auction, ...parsed };
}

/**
 * Locks the auction's row until the transaction ends, then reads. The read is sent with the lock
 * (pipelined on PostgreSQL: one round trip) and runs after it on a fresh snapshot, so it sees what
 * the change before committed.
 */
async function lockAndRead(tx: Transaction, auctionId: number, sellers: number[], withOwnLowest: boolean) {
  // Sent in this order: a query goes out when it is awaited, so the lock is asked for before the read.
  const locked = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(eq(auctions.id, auctionId))
    .for("update")
    .then(() => undefined);
  const [, read] = await Promise.all([locked, readForBidding(tx, auctionId, sellers, withOwnLowest)]);
  return read;
}

const SEALED_ONLY = "This is a sealed-bid auction: send one bid with its documents instead.";
const NOT_INVITED = "This auction does not exist or you are not invited to it.";

/**
 * Whether the seller may bid now on the auction as it stands: invited to a published auction (a draft
 * is not there for sellers: 404, as for an auction that does not exist), terms accepted, open.
 */
function checkBidder(read: Read, auction: Read["auction"], organizationId: number, now: Date): Refused | undefined {
  const termsAccepted = read.termsAccepted?.[organizationId];
  if (termsAccepted === undefined || auction.status === "draft") return refused(404, NOT_INVITED);
  if (!termsAccepted) return refused(409, "Please accept the auction's terms before bidding.");
  if (auction.kind === "sealed") return refused(409, SEALED_ONLY);
  const status = statusAt(auction, now);
  if (status === "scheduled") return refused(409, "Bidding has not started yet.");
  if (status !== "open") return refused(409, "Bidding has closed.");
  return undefined;
}

/** The rules' view of the auction as read: reserve, decrement, the standing lowest, the auto-bids, own lowest bids. */
function biddingState(read: Read): BiddingState {
  const { auction, lowest, autoBids } = read;
  const ownLowest = new Map<number, number>();
  for (const [seller, amount] of Object.entries(read.ownLowest ?? {})) ownLowest.set(Number(seller), amount);
  return {
    reserve: auction.reserveCents,
    decrement: decrementOf(auction),
    lowest,
    autoBids: autoBids.map(({ seller, minimum, enteredAt }) => ({ seller, minimum, enteredAt })),
    ownLowest,
  };
}

/** One accepted change: a manual bid (or a minimum) and the automatic bids it set off, at one moment. */
type Change = {
  bids: NewBid[];
  /** A manual bid's user; for a minimum's change, who set it (the bids themselves are all automatic). */
  userId: number;
  /** The minimum whose change set the bids off, if that is what did. */
  autoBidId?: number;
  before: BiddingState;
  after: BiddingState;
  endsBefore: Date;
  endsAfter: Date;
};

/** Changes decided in order on the auction as read, each on the state the one before left. */
class Round {
  readonly changes: Change[] = [];
  state: BiddingState;
  auction: Read["auction"];

  constructor(readonly read: Read) {
    this.state = biddingState(read);
    this.auction = read.auction;
  }

  /** The rank (and tie-break) of the next change: the auction's sequence number after it. */
  get nextRank() {
    return this.read.auction.sequence + this.changes.length + 1;
  }

  /** Keeps a change; a change with no bids moves nothing (a minimum that set nothing off). */
  add(bids: NewBid[], after: BiddingState, cause: { userId: number; autoBidId?: number }, now: Date) {
    const endsBefore = this.auction.endsAt;
    const endsAfter = bids.length > 0 ? endAfterBid(this.auction, now) : endsBefore;
    this.changes.push({ bids, ...cause, before: this.state, after, endsBefore, endsAfter });
    this.state = after;
    if (endsAfter.getTime() !== endsBefore.getTime()) {
      this.auction = { ...this.auction, endsAt: endsAfter, extensions: this.auction.extensions + 1 };
    }
  }
}

const acceptedOutcome = (change: Change, ids: number[]): BidOutcome => ({
  kind: "accepted",
  bids: change.bids.map((bid, index) => ({ id: ids[index] as number, amountCents: bid.amount, kind: bid.kind })),
  endsAt: change.endsAfter,
  previousLeaderId: change.before.lowest?.seller ?? null,
  leaderId: change.after.lowest?.seller ?? null,
  extended: change.endsAfter.getTime() !== change.endsBefore.getTime(),
});

/** Both drivers' answer to `execute`: postgres.js gives the rows, PGlite an object holding them. */
function rowsOf<Row>(result: unknown): Row[] {
  return Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []);
}

/**
 * Writes a round's changes in one statement, only if the auction is as it was read (same sequence
 * number, status and end): the bids in order with ids taken under the row lock (so ids follow the
 * order bids were accepted; an automatic bid names the manual bid or the minimum that set it off), the
 * new lowest and leader, the end moved by late bids, the events in order, and the notification.
 * Answers each change's bid ids, or undefined when the auction had changed and nothing was written.
 */
async function writeRound(db: Database | Transaction, round: Round, at: Date): Promise<number[][] | undefined> {
  const { read, changes } = round;
  const { auction } = read;
  type BidRow = {
    ord: number;
    event_ord: number;
    organization_id: number;
    user_id: number | null;
    amount_cents: number;
    kind: "manual" | "auto";
    rank: number;
    cause_ord: number | null;
    triggered_by_auto_bid_id: number | null;
  };
  const rows: BidRow[] = [];
  const extensions: { event_ord: number; data: { from: string; to: string } }[] = [];
  let eventOrd = 0;
  for (const change of changes) {
    const manualOrd = change.bids[0]?.kind === "manual" ? rows.length + 1 : null;
    for (const bid of change.bids) {
      rows.push({
        ord: rows.length + 1,
        event_ord: ++eventOrd,
        organization_id: bid.seller,
        user_id: bid.kind === "manual" ? change.userId : null,
        amount_cents: bid.amount,
        kind: bid.kind,
        rank: bid.rank,
        cause_ord: bid.kind === "auto" ? manualOrd : null,
        triggered_by_auto_bid_id: bid.kind === "auto" && manualOrd === null ? (change.autoBidId ?? null) : null,
      });
    }
    if (change.endsAfter.getTime() !== change.endsBefore.getTime()) {
      const data = { from: change.endsBefore.toISOString(), to: change.endsAfter.toISOString() };
      extensions.push({ event_ord: ++eventOrd, data });
    }
  }
  const lowest = round.state.lowest;
  // The leader's row, if a new bid leads: the new bid that is the standing lowest (same seller, amount, rank).
  const leaderOrd = lowest
    ? rows.findLast(
        (row) =>
          row.organization_id === lowest.seller && row.amount_cents === lowest.amount && row.rank === lowest.rank,
      )?.ord
    : undefined;
  const leader =
    leaderOrd !== undefined && lowest
      ? sql`, lowest_bid_id = (select id from new_bid where ord = ${leaderOrd}),
          lowest_cents = ${lowest.amount}, leader_organization_id = ${lowest.seller}`
      : sql``;
  const endsAt = round.auction.endsAt;
  const iso = at.toISOString();
  const result = await db.execute(sql`
    with guard as (
      select id from ${auctions}
      where id = ${auction.id} and sequence = ${auction.sequence} and status = ${auction.status}
        and date_trunc('milliseconds', ends_at) = ${auction.endsAt.toISOString()}::timestamptz
      for update
    ),
    taken as (
      select row_number() over (order by id) as ord, id
      from (select nextval(pg_get_serial_sequence('auction_bids', 'id')) as id
            from guard, generate_series(1, ${rows.length})) as ids
    ),
    new_bid as (
      select taken.id, bid.*
      from taken
      join json_to_recordset(${JSON.stringify(rows)}::json) as bid(ord int, event_ord int, organization_id int,
        user_id int, amount_cents bigint, kind text, rank int, cause_ord int, triggered_by_auto_bid_id int)
        on bid.ord = taken.ord
    ),
    bid_caused as (
      select new_bid.*, cause.id as triggered_by_bid_id
      from new_bid left join new_bid as cause on cause.ord = new_bid.cause_ord
    ),
    bids_written as (
      insert into ${auctionBids} (id, auction_id, organization_id, user_id, amount_cents, kind, rank,
        triggered_by_bid_id, triggered_by_auto_bid_id, created_at)
      select id, ${auction.id}, organization_id, user_id, amount_cents, kind, rank,
        triggered_by_bid_id, triggered_by_auto_bid_id, ${iso}::timestamptz
      from bid_caused order by ord
    ),
    moved as (
      update ${auctions} set sequence = ${auction.sequence + changes.length},
        status = ${auction.status === "scheduled" ? "open" : auction.status},
        bid_count = bid_count + ${rows.length}, ends_at = ${endsAt.toISOString()}::timestamptz,
        extensions = ${round.auction.extensions}, updated_at = ${iso}::timestamptz
        ${leader}
      from guard where ${auctions.id} = guard.id
      returning ${auctions.id}
    ),
    events_written as (
      insert into ${auctionEvents} (auction_id, kind, user_id, organization_id, data, created_at)
      select ${auction.id}, kind, user_id, organization_id, data, ${iso}::timestamptz from (
        select 'bid' as kind, user_id, organization_id, jsonb_build_object('bidId', id, 'amountCents', amount_cents,
          'bidKind', kind, 'triggeredByBidId', triggered_by_bid_id,
          'triggeredByAutoBidId', triggered_by_auto_bid_id) as data, event_ord
        from bid_caused
        union all
        select 'extended', null, null, extension.data, extension.event_ord
        from guard, json_to_recordset(${JSON.stringify(extensions)}::json) as extension(event_ord int, data jsonb)
      ) as event order by event_ord
    )
    select (select coalesce(json_agg(id order by ord), '[]'::json) from new_bid) as bid_ids,
      pg_notify(${AUCTION_CHANNEL}, ${String(auction.id)})
    from moved`);
  const [row] = rowsOf<{ bid_ids: number[] | string }>(result);
  if (!row) return undefined;
  const ids: number[] = (typeof row.bid_ids === "string" ? JSON.parse(row.bid_ids) : row.bid_ids).map(Number);
  const perChange: number[][] = [];
  let taken = 0;
  for (const change of changes) {
    perChange.push(ids.slice(taken, taken + change.bids.length));
    taken += change.bids.length;
  }
  return perChange;
}

/** Tells every app machine's listeners that the auction changed (sent when the transaction commits). */
export async function notifyAuction(tx: Pick<Database, "execute">, auctionId: number) {
  await tx.execute(sql`select pg_notify(${AUCTION_CHANNEL}, ${String(auctionId)})`);
}

/** A manual bid waiting in this process for its auction's next round. */
type Waiting<T> = { request: T; settle: (outcome: BidOutcome) => void; fail: (error: unknown) => void };
/** `confirmed: false`: a bid far under the price is only asked about (the typo guard), not placed. */
type ManualRequest = BidderRequest & { amountCents: number; confirmed?: boolean };
type MinimumRequest = BidderRequest & { minimumCents: number };
type QueuedBid = { kind: "manual" } & Waiting<ManualRequest>;
type Queued = QueuedBid | ({ kind: "minimum" } & Waiting<MinimumRequest>);

/** A map per database handle (each handle is a machine's connection to one database). */
function perDatabase<Value>(maps: WeakMap<Database, Map<number, Value>>, db: Database): Map<number, Value> {
  let map = maps.get(db);
  if (!map) {
    map = new Map();
    maps.set(db, map);
  }
  return map;
}

/** Per database handle: each auction's changes waiting in this process, in the order they came. */
const queues = new WeakMap<Database, Map<number, Queued[]>>();

/**
 * Per database handle: the state of open auctions as this process last read or wrote it. A round
 * decides on it without reading again; the write's guard (sequence, status, end) still makes sure
 * nothing changed meanwhile, and when something did (another machine's bid, a cancellation, the
 * close) the round reads afresh. Only open auctions are kept: their terms can no longer change, and
 * the only other facts used, sellers having accepted the terms, are kept only once true.
 */
const knownStates = new WeakMap<Database, Map<number, Read>>();
const KNOWN_STATES_KEPT = 1_000;
const knownStatesOf = (db: Database) => perDatabase(knownStates, db);

/** The sellers known to have accepted the terms (a fact that never turns false). */
const acceptedOnly = (termsAccepted: Record<string, boolean> | null | undefined) =>
  Object.fromEntries(Object.entries(termsAccepted ?? {}).filter(([, accepted]) => accepted));

/** Keeps an open auction's state, with every seller known to have accepted its terms. */
function remember(db: Database, read: Read, alsoAccepted: Record<string, boolean>) {
  if (read.auction.status !== "open") return;
  const known = knownStatesOf(db);
  known.delete(read.auction.id);
  if (known.size >= KNOWN_STATES_KEPT) known.delete(known.keys().next().value as number);
  known.set(read.auction.id, { ...read, termsAccepted: { ...alsoAccepted, ...acceptedOnly(read.termsAccepted) } });
}

/** The state a round leaves: the auction moved on by its changes. */
function stateAfter(round: Round): Read {
  const { read, changes } = round;
  return {
    ...read,
    auction: {
      ...round.auction,
      sequence: read.auction.sequence + changes.length,
      status: read.auction.status === "scheduled" ? "open" : read.auction.status,
    },
    lowest: round.state.lowest,
    ownLowest: null,
  };
}

/**
 * Queues a change on the auction and, if none is under way, works through the queue: the manual bids
 * at its head as one round, a minimum's change on its own, until it is empty. Waiting changes hold
 * no pooled connection (a busy auction would otherwise take them all from the rest of the site).
 */
function enqueue(db: Database, auctionId: number, item: Queued) {
  const auctionQueues = perDatabase(queues, db);
  const queue = auctionQueues.get(auctionId);
  if (queue) {
    queue.push(item);
    return;
  }
  const waiting: Queued[] = [item];
  auctionQueues.set(auctionId, waiting);
  void (async () => {
    while (waiting.length > 0) {
      const head = waiting[0] as Queued;
      if (head.kind === "minimum") {
        waiting.shift();
        await minimumChange(db, head.request).then(head.settle, head.fail);
        continue;
      }
      const end = waiting.findIndex((queued) => queued.kind !== "manual");
      const batch = waiting.splice(0, end === -1 ? waiting.length : end) as QueuedBid[];
      await manualRound(
        db,
        auctionId,
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
    auctionQueues.delete(auctionId);
  })();
}

/** The typo guard: a bid far under the price it would meet, not yet confirmed, is asked about once more. */
function largeDropQuestion(state: BiddingState, request: ManualRequest): BidOutcome | undefined {
  const referenceCents = state.lowest?.amount ?? state.reserve;
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
function roundOrder(round: Round, requests: ManualRequest[], at: Date): number[] {
  const ready: number[] = [];
  const rest: number[] = [];
  requests.forEach((request, index) => {
    const problem = checkBidder(round.read, round.auction, request.organizationId, request.now ?? at);
    (problem || largeDropQuestion(round.state, request) ? rest : ready).push(index);
  });
  const bids = ready.map((index) => ({
    seller: requests[index]?.organizationId as number,
    amount: requests[index]?.amountCents as number,
  }));
  const order = simultaneousOrder(round.state, bids, round.nextRank).map((position) => ready[position] as number);
  return [...order, ...rest];
}

/** Times a round of manual bids is decided on a fresh read and written with the guard before it takes the row lock first. */
const GUARDED_ATTEMPTS = 3;

/**
 * Manual bids on one auction, decided as one round (see roundOrder) and written together. Each is
 * refused or accepted exactly as it would have been on its own after the ones decided before it. A
 * bid's time is taken when the round is decided: a bid that waited its turn past the end is late.
 */
async function manualRound(db: Database, auctionId: number, requests: ManualRequest[]): Promise<BidOutcome[]> {
  const sellers = [...new Set(requests.map((request) => request.organizationId))];
  const decide = async (executor: Database | Transaction, read: Read | undefined, fromMemory = false) => {
    if (!read) return requests.map(() => refused(404, NOT_INVITED));
    const round = new Round(read);
    const decided: (BidOutcome | Change)[] = [];
    const at = new Date();
    for (const index of roundOrder(round, requests, at)) {
      const request = requests[index] as ManualRequest;
      const now = request.now ?? at;
      const problem = checkBidder(read, round.auction, request.organizationId, now);
      if (problem) {
        decided[index] = problem;
        continue;
      }
      const unconfirmed = largeDropQuestion(round.state, request);
      if (unconfirmed) {
        decided[index] = unconfirmed;
        continue;
      }
      const outcome = placeBid(round.state, request.organizationId, request.amountCents, round.nextRank);
      if (!outcome.ok) {
        decided[index] = refused(400, refusalMessage(outcome), "amount");
        continue;
      }
      round.add(outcome.bids, outcome.state, { userId: request.userId }, now);
      decided[index] = round.changes.at(-1) as Change;
    }
    if (round.changes.length === 0) {
      // Nothing written, so no guard vouched for a state kept in memory: another machine may have
      // moved the price, the leader or the end meanwhile. Refusals are given on a fresh read only.
      if (fromMemory) return undefined;
      remember(db, read, accepted);
      return decided as BidOutcome[];
    }
    const ids = await writeRound(executor, round, at);
    if (!ids) return undefined; // the auction changed since the read
    remember(db, stateAfter(round), accepted);
    return decided.map((entry) =>
      "kind" in entry ? entry : acceptedOutcome(entry, ids[round.changes.indexOf(entry)] ?? []),
    );
  };
  // The state this process knows, if it covers every seller of the round; else (and after a miss) a read.
  const knownState = knownStatesOf(db).get(auctionId);
  const accepted = acceptedOnly(knownState?.termsAccepted);
  let known = sellers.every((seller) => accepted[seller] === true) ? knownState : undefined;
  knownStatesOf(db).delete(auctionId);
  for (let attempt = 0; attempt < GUARDED_ATTEMPTS; attempt += 1) {
    const outcomes = known
      ? await decide(db, known, true)
      : await decide(db, await readForBidding(db, auctionId, sellers, false));
    if (outcomes) return outcomes;
    known = undefined;
  }
  return db.transaction(async (tx) => {
    const outcomes = await decide(tx, await lockAndRead(tx, auctionId, sellers, false));
    if (!outcomes) throw new Error("the auction changed under its row lock");
    return outcomes;
  });
}

/** A seller's manual bid: binding once accepted; the auto-bids it sets off are written with it. */
export function placeManualBid(db: Database, request: ManualRequest): Promise<BidOutcome> {
  return new Promise((settle, fail) => enqueue(db, request.auctionId, { kind: "manual", request, settle, fail }));
}

/**
 * A seller sets or changes their secret minimum; the system bids for them (and for the others) in
 * the same transaction, which holds the auction's row lock. The minimum is never shown to anyone but
 * its seller.
 */
export function setAutoBidMinimum(db: Database, request: MinimumRequest): Promise<BidOutcome> {
  return new Promise((settle, fail) => enqueue(db, request.auctionId, { kind: "minimum", request, settle, fail }));
}

function minimumChange(db: Database, request: MinimumRequest): Promise<BidOutcome> {
  // The auto-bids change: the next round reads them again.
  knownStatesOf(db).delete(request.auctionId);
  return db.transaction(async (tx): Promise<BidOutcome> => {
    const read = await lockAndRead(tx, request.auctionId, [request.organizationId], true);
    if (!read) return refused(404, NOT_INVITED);
    const now = request.now ?? new Date();
    const problem = checkBidder(read, read.auction, request.organizationId, now);
    if (problem) return problem;
    const round = new Round(read);
    const outcome = setAutoBid(round.state, request.organizationId, request.minimumCents, round.nextRank);
    if (!outcome.ok) return refused(400, refusalMessage(outcome), "minimum");
    const entered = outcome.state.autoBids.find((autoBid) => autoBid.seller === request.organizationId);
    if (!entered) throw new Error("the auto-bid was not kept");
    const row = {
      minimumCents: entered.minimum,
      enteredSequence: entered.enteredAt,
      setByUserId: request.userId,
      updatedAt: now,
    };
    const [autoBid] = await tx
      .insert(auctionAutoBids)
      .values({ auctionId: read.auction.id, organizationId: request.organizationId, ...row })
      .onConflictDoUpdate({ target: [auctionAutoBids.auctionId, auctionAutoBids.organizationId], set: row })
      .returning({ id: auctionAutoBids.id });
    if (!autoBid) throw new Error("no auto-bid row");
    // Private to the seller: the minimum is in the audit trail, never in anything another seller sees.
    await tx.insert(auctionEvents).values({
      auctionId: read.auction.id,
      kind: "auto-bid-set",
      userId: request.userId,
      organizationId: request.organizationId,
      data: { autoBidId: autoBid.id, minimumCents: entered.minimum },
      createdAt: now,
    });
    round.add(outcome.bids, outcome.state, { userId: request.userId, autoBidId: autoBid.id }, now);
    const ids = await writeRound(tx, round, now);
    if (!ids) throw new Error("the auction changed under its row lock");
    return acceptedOutcome(round.changes[0] as Change, ids[0] ?? []);
  });
}
