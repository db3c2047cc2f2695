import { eq, type SQL, sql } from "drizzle-orm";
import { formatCents } from "~/payments/fees";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionEvents, auctionInvitations, auctions } from "~db/schema";
import { decrementOf, endAfterBid, statusAt } from "./auction-rules";
import { type BiddingState, type NewBid, type Outcome, placeBid, type Refusal, setAutoBid } from "./bidding";

// Bids and auto-bids on one auction (issue 9). Every change reads the auction's state, checks the
// seller may bid, applies the rules of bidding.ts and writes the bid(s) with the automatic ones they
// set off, the new lowest, the end moved by a late bid, the events and the notification (delivered by
// PostgreSQL at commit) in ONE statement, guarded by the auction's sequence number: it writes only if
// nothing changed the auction since the read, under the row lock that statement takes. The lock is
// held for that statement alone, not across round trips to this process, so a busy auction takes
// bids at the rate PostgreSQL updates one row, not at the rate this process answers.
//
// In this process bids on one auction go one at a time (inTurn), so the guard fails only when another
// machine (or a status change) came in between; then the change is read and decided again, and after
// a few such misses it takes the row lock first (the locking path, as every auto-bid change does).

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
  | { kind: "refused"; status: 400 | 403 | 404 | 409; field: "amount" | "minimum" | "form"; message: string };

const refused = (
  status: 400 | 403 | 404 | 409,
  message: string,
  field: "amount" | "minimum" | "form" = "form",
): BidOutcome => ({ kind: "refused", status, field, message });

/** What a refusal says to the seller, at the field. */
export function refusalMessage(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not-a-whole-amount":
      return "Please enter an amount in dollars and cents, like 12500.00";
    case "above-reserve":
      return `Your bid cannot be more than the reserve price of ${formatCents(refusal.highest)}`;
    case "not-low-enough":
      return `Your bid must be ${formatCents(refusal.highest)} or less: the current lowest price less the minimum decrement`;
    case "already-leading":
      return "You already have the lowest bid";
    case "minimum-above-own-bid":
      return `Your minimum cannot be more than your own lowest bid of ${formatCents(refusal.ownBid)}`;
    case "minimum-not-below-lowest":
      return `Your minimum must be less than the current lowest price of ${formatCents(refusal.lowest)}`;
  }
}

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
  /** null: not invited; false: invited, terms not accepted. */
  termsAccepted: boolean | null;
  lowest: { seller: number; amount: number; rank: number } | null;
  autoBids: { id: number; seller: number; minimum: number; enteredAt: number }[];
  ownLowest: number | null;
};

type Read = BiddingRead & { auction: BiddingAuction };

/**
 * The auction's state for the rules, in one statement: every part from one snapshot, so the sequence
 * number read with it vouches for all of it.
 */
async function readForBidding(
  db: Database | Transaction,
  auctionId: number,
  organizationId: number,
): Promise<Read | undefined> {
  const [row] = await db
    .select({
      ...auctionColumns,
      state: sql<BiddingRead | string>`json_build_object(
        'termsAccepted', (select terms_accepted_at is not null from ${auctionInvitations}
          where auction_id = ${auctionId} and organization_id = ${organizationId}),
        'lowest', (select json_build_object('seller', organization_id, 'amount', amount_cents, 'rank', rank)
          from ${auctionBids} where id = ${auctions.lowestBidId}),
        'autoBids', (select coalesce(json_agg(json_build_object('id', id, 'seller', organization_id,
          'minimum', minimum_cents, 'enteredAt', entered_sequence) order by id), '[]'::json)
          from ${auctionAutoBids} where auction_id = ${auctionId}),
        'ownLowest', (select min(amount_cents) from ${auctionBids}
          where auction_id = ${auctionId} and organization_id = ${organizationId})
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
async function lockAndRead(tx: Transaction, auctionId: number, organizationId: number) {
  // Sent in this order: a query goes out when it is awaited, so the lock is asked for before the read.
  const locked = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(eq(auctions.id, auctionId))
    .for("update")
    .then(() => undefined);
  const [, read] = await Promise.all([locked, readForBidding(tx, auctionId, organizationId)]);
  return read;
}

export const SEALED_ONLY = "This is a sealed-bid auction: send one bid with its documents instead.";

/** Whether the seller may bid now: invited, terms accepted, the auction open. */
function checkBidder(read: Read, now: Date) {
  const { auction, termsAccepted } = read;
  if (termsAccepted === null) return refused(404, "This auction does not exist or you are not invited to it.");
  if (!termsAccepted) return refused(409, "Please accept the auction's terms before bidding.");
  if (auction.kind === "sealed") return refused(409, SEALED_ONLY);
  const status = statusAt(auction, now);
  if (status === "scheduled" || status === "draft") return refused(409, "Bidding has not started yet.");
  if (status !== "open") return refused(409, "Bidding has closed.");
  return undefined;
}

/** The rules' view of the auction: reserve, decrement, the standing lowest, the auto-bids, the seller's own lowest. */
function biddingState(read: Read, organizationId: number): BiddingState {
  const { auction, lowest, autoBids } = read;
  const ownLowest = new Map<number, number>();
  if (read.ownLowest !== null) ownLowest.set(organizationId, read.ownLowest);
  return {
    reserve: auction.reserveCents,
    decrement: decrementOf(auction),
    lowest,
    autoBids: autoBids.map(({ seller, minimum, enteredAt }) => ({ seller, minimum, enteredAt })),
    ownLowest,
  };
}

type WrittenBid = { id: number; amountCents: number; kind: "manual" | "auto" };

/** Both drivers' answer to `execute`: postgres.js gives the rows, PGlite an object holding them. */
function rowsOf<Row>(result: unknown): Row[] {
  return Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []);
}

/**
 * Writes a decided change in one statement, only if the auction is as it was read (same sequence
 * number, status and end): the bids in order with ids taken under the row lock (so ids follow the
 * order bids were accepted; an automatic bid names the manual one that set it off), the new lowest
 * and leader, the end moved by a late bid, the events, and the notification. Answers the written
 * bids, or undefined when the auction had changed and nothing was written.
 */
async function writeChange(
  db: Database | Transaction,
  read: Read,
  bids: NewBid[],
  cause: { autoBidId?: number; userId: number },
  now: Date,
  finalState: BiddingState,
): Promise<{ written: WrittenBid[]; endsAt: Date } | undefined> {
  const { auction } = read;
  const rows = bids.map((bid, index) => ({
    ord: index + 1,
    organization_id: bid.seller,
    user_id: bid.kind === "manual" ? cause.userId : null,
    amount_cents: bid.amount,
    kind: bid.kind,
    rank: bid.rank,
    triggered_by_auto_bid_id: bid.kind === "manual" ? null : (cause.autoBidId ?? null),
  }));
  const lowest = finalState.lowest;
  // The leader's row: the last new bid by the new leader at the new lowest amount, if a new bid leads.
  const leaderIndex = lowest
    ? bids.findLastIndex((bid) => bid.seller === lowest.seller && bid.amount === lowest.amount)
    : -1;
  const endsAt = bids.length > 0 ? endAfterBid(auction, now) : auction.endsAt;
  const extended = endsAt.getTime() !== auction.endsAt.getTime();
  const at = now.toISOString();
  const leader: SQL =
    leaderIndex >= 0 && lowest
      ? sql`, lowest_bid_id = (select id from new_bid where ord = ${leaderIndex + 1}),
          lowest_cents = ${lowest.amount}, leader_organization_id = ${lowest.seller}`
      : sql``;
  const extension = extended
    ? sql`union all select 'extended', null, null, ${JSON.stringify({ from: auction.endsAt.toISOString(), to: endsAt.toISOString() })}::jsonb, ${rows.length + 1} from guard`
    : sql``;
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
      join json_to_recordset(${JSON.stringify(rows)}::json) as bid(ord int, organization_id int, user_id int,
        amount_cents bigint, kind text, rank int, triggered_by_auto_bid_id int) on bid.ord = taken.ord
    ),
    manual as (select id from new_bid where kind = 'manual'),
    bids_written as (
      insert into ${auctionBids} (id, auction_id, organization_id, user_id, amount_cents, kind, rank,
        triggered_by_bid_id, triggered_by_auto_bid_id, created_at)
      select id, ${auction.id}, organization_id, user_id, amount_cents, kind, rank,
        case when kind = 'auto' then (select id from manual) end, triggered_by_auto_bid_id, ${at}::timestamptz
      from new_bid order by ord
    ),
    moved as (
      update ${auctions} set sequence = ${auction.sequence + 1},
        status = ${auction.status === "scheduled" ? "open" : auction.status},
        bid_count = bid_count + ${rows.length}, ends_at = ${endsAt.toISOString()}::timestamptz,
        extensions = ${extended ? auction.extensions + 1 : auction.extensions}, updated_at = ${at}::timestamptz
        ${leader}
      from guard where ${auctions.id} = guard.id
      returning ${auctions.id}
    ),
    events_written as (
      insert into ${auctionEvents} (auction_id, kind, user_id, organization_id, data, created_at)
      select ${auction.id}, kind, user_id, organization_id, data, ${at}::timestamptz from (
        select 'bid' as kind, user_id, organization_id, jsonb_build_object('bidId', id, 'amountCents', amount_cents,
          'bidKind', kind, 'triggeredByBidId', case when kind = 'auto' then (select id from manual) end,
          'triggeredByAutoBidId', triggered_by_auto_bid_id) as data, ord
        from new_bid
        ${extension}
      ) as event order by ord
    )
    select (select coalesce(json_agg(id order by ord), '[]'::json) from new_bid) as bid_ids,
      pg_notify(${AUCTION_CHANNEL}, ${String(auction.id)})
    from moved`);
  const [row] = rowsOf<{ bid_ids: number[] | string }>(result);
  if (!row) return undefined;
  const ids: number[] = (typeof row.bid_ids === "string" ? JSON.parse(row.bid_ids) : row.bid_ids).map(Number);
  const written = bids.map((bid, index) => ({ id: ids[index] as number, amountCents: bid.amount, kind: bid.kind }));
  return { written, endsAt };
}

/** Tells every app machine's listeners that the auction changed (sent when the transaction commits). */
export async function notifyAuction(tx: Pick<Database, "execute">, auctionId: number) {
  await tx.execute(sql`select pg_notify(${AUCTION_CHANNEL}, ${String(auctionId)})`);
}

const accepted = (
  before: BiddingState,
  after: BiddingState,
  bids: WrittenBid[],
  previousEnd: Date,
  endsAt: Date,
): BidOutcome => ({
  kind: "accepted",
  bids,
  endsAt,
  previousLeaderId: before.lowest?.seller ?? null,
  leaderId: after.lowest?.seller ?? null,
  extended: endsAt.getTime() !== previousEnd.getTime(),
});

/** Per database handle: each auction's queue of bidding changes in this process (its last link). */
const queues = new WeakMap<Database, Map<number, Promise<unknown>>>();

/**
 * Runs one bidding change on the auction at a time in this process; the others wait here, not in
 * PostgreSQL. Bids on a busy auction would otherwise each hold a pooled connection while they wait
 * for the row, leaving none for the rest of the site, and each would find the auction changed.
 */
function inTurn<T>(db: Database, auctionId: number, work: () => Promise<T>): Promise<T> {
  let queue = queues.get(db);
  if (!queue) {
    queue = new Map();
    queues.set(db, queue);
  }
  const auctionQueue = queue;
  const run = (auctionQueue.get(auctionId) ?? Promise.resolve()).then(work, work);
  const last = run.then(
    () => undefined,
    () => undefined,
  );
  auctionQueue.set(auctionId, last);
  void last.then(() => {
    if (auctionQueue.get(auctionId) === last) auctionQueue.delete(auctionId);
  });
  return run;
}

const NOT_INVITED = () => refused(404, "This auction does not exist or you are not invited to it.");

/**
 * Reads, checks the bidder, and hands the rules' state to `decide`; a refusal is answered as is. The
 * bid's time is taken after the read: a bid that waited its turn past the end is late.
 */
function prepare(
  read: Read | undefined,
  request: BidderRequest,
): { refusal: BidOutcome } | { read: Read; now: Date; state: BiddingState } {
  if (!read) return { refusal: NOT_INVITED() };
  const now = request.now ?? new Date();
  const problem = checkBidder(read, now);
  if (problem) return { refusal: problem };
  return { read, now, state: biddingState(read, request.organizationId) };
}

/** Times a manual bid is decided on a fresh read and written with the guard before it takes the row lock first. */
const GUARDED_ATTEMPTS = 3;

/** A seller's manual bid: binding once accepted; the auto-bids it sets off are written with it. */
export function placeManualBid(db: Database, request: BidderRequest & { amountCents: number }): Promise<BidOutcome> {
  const decide = async (executor: Database | Transaction, read: Read | undefined) => {
    const turn = prepare(read, request);
    if ("refusal" in turn) return turn.refusal;
    const { state, now } = turn;
    const outcome: Outcome = placeBid(
      state,
      request.organizationId,
      request.amountCents,
      turn.read.auction.sequence + 1,
    );
    if (!outcome.ok) return refused(400, refusalMessage(outcome), "amount");
    const change = await writeChange(executor, turn.read, outcome.bids, { userId: request.userId }, now, outcome.state);
    if (!change) return undefined; // the auction changed since the read
    return accepted(state, outcome.state, change.written, turn.read.auction.endsAt, change.endsAt);
  };
  return inTurn(db, request.auctionId, async () => {
    for (let attempt = 0; attempt < GUARDED_ATTEMPTS; attempt += 1) {
      const outcome = await decide(db, await readForBidding(db, request.auctionId, request.organizationId));
      if (outcome) return outcome;
    }
    return db.transaction(async (tx) => {
      const outcome = await decide(tx, await lockAndRead(tx, request.auctionId, request.organizationId));
      if (!outcome) throw new Error("the auction changed under its row lock");
      return outcome;
    });
  });
}

/**
 * A seller sets or changes their secret minimum; the system bids for them (and for the others) in
 * the same transaction, which holds the auction's row lock. The minimum is never shown to anyone but
 * its seller.
 */
export function setAutoBidMinimum(
  db: Database,
  request: BidderRequest & { minimumCents: number },
): Promise<BidOutcome> {
  return inTurn(db, request.auctionId, () =>
    db.transaction(async (tx): Promise<BidOutcome> => {
      const turn = prepare(await lockAndRead(tx, request.auctionId, request.organizationId), request);
      if ("refusal" in turn) return turn.refusal;
      const { read, state, now } = turn;
      const outcome = setAutoBid(state, request.organizationId, request.minimumCents, read.auction.sequence + 1);
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
      const cause = { userId: request.userId, autoBidId: autoBid.id };
      const change = await writeChange(tx, read, outcome.bids, cause, now, outcome.state);
      if (!change) throw new Error("the auction changed under its row lock");
      return accepted(state, outcome.state, change.written, read.auction.endsAt, change.endsAt);
    }),
  );
}
