import { and, asc, eq, min, sql } from "drizzle-orm";
import { formatCents } from "~/payments/fees";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionEvents, auctionInvitations, auctions } from "~db/schema";
import { decrementOf, endAfterBid, statusAt } from "./auction-rules";
import { type BiddingState, type NewBid, type Outcome, placeBid, type Refusal, setAutoBid } from "./bidding";

// Bids and auto-bids on one auction, serialized by the auction's row lock (issue 9): each runs in one
// transaction that locks the auction, checks it is open and the seller may bid, applies the rules of
// bidding.ts, writes the bid(s) with the automatic ones they set off, moves the end on a late bid,
// records the events and notifies listeners (delivered by PostgreSQL when the transaction commits).

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

type LockedAuction = typeof auctions.$inferSelect;

type Locked = {
  auction: LockedAuction | undefined;
  invitation: typeof auctionInvitations.$inferSelect | undefined;
  lowest: typeof auctionBids.$inferSelect | undefined;
  autoBids: (typeof auctionAutoBids.$inferSelect)[];
  ownLowest: number | null;
};

/**
 * Locks the auction's row until the transaction ends (every bid on it waits its turn here) and reads
 * what the rules need. The reads are sent with the lock (pipelined on PostgreSQL: one round trip while
 * others wait) and run after it, each on a fresh snapshot, so they see what the bid before committed.
 */
async function lockForBidding(tx: Transaction, auctionId: number, organizationId: number): Promise<Locked> {
  const [[auction], [invitation], [lowest], autoBids, [own]] = await Promise.all([
    tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update"),
    tx
      .select()
      .from(auctionInvitations)
      .where(and(eq(auctionInvitations.auctionId, auctionId), eq(auctionInvitations.organizationId, organizationId))),
    tx
      .select()
      .from(auctionBids)
      .where(
        eq(auctionBids.id, sql`(select ${auctions.lowestBidId} from ${auctions} where ${auctions.id} = ${auctionId})`),
      ),
    tx.select().from(auctionAutoBids).where(eq(auctionAutoBids.auctionId, auctionId)).orderBy(asc(auctionAutoBids.id)),
    tx
      .select({ lowest: min(auctionBids.amountCents) })
      .from(auctionBids)
      .where(and(eq(auctionBids.auctionId, auctionId), eq(auctionBids.organizationId, organizationId))),
  ]);
  const ownLowest = own?.lowest === null || own?.lowest === undefined ? null : Number(own.lowest);
  return { auction, invitation, lowest, autoBids, ownLowest };
}

export const SEALED_ONLY = "This is a sealed-bid auction: send one bid with its documents instead.";

/** Whether the seller may bid now: invited, terms accepted, the auction open. */
function checkBidder(locked: Locked & { auction: LockedAuction }, now: Date) {
  const { auction, invitation } = locked;
  if (!invitation) return refused(404, "This auction does not exist or you are not invited to it.");
  if (!invitation.termsAcceptedAt) return refused(409, "Please accept the auction's terms before bidding.");
  if (auction.kind === "sealed") return refused(409, SEALED_ONLY);
  const status = statusAt(auction, now);
  if (status === "scheduled" || status === "draft") return refused(409, "Bidding has not started yet.");
  if (status !== "open") return refused(409, "Bidding has closed.");
  return undefined;
}

/** The rules' view of the auction: reserve, decrement, the standing lowest, the auto-bids, the seller's own lowest. */
function biddingState(locked: Locked & { auction: LockedAuction }, organizationId: number): BiddingState {
  const { auction, lowest, autoBids } = locked;
  const ownLowest = new Map<number, number>();
  if (locked.ownLowest !== null) ownLowest.set(organizationId, locked.ownLowest);
  return {
    reserve: auction.reserveCents,
    decrement: decrementOf(auction),
    lowest: lowest ? { seller: lowest.organizationId, amount: lowest.amountCents, rank: lowest.rank } : null,
    autoBids: autoBids.map((autoBid) => ({
      seller: autoBid.organizationId,
      minimum: autoBid.minimumCents,
      enteredAt: autoBid.enteredSequence,
    })),
    ownLowest,
  };
}

/**
 * Writes the accepted bids in order (an automatic one names what set it off), the new lowest and
 * leader, the end moved by a late bid, the events, and the notification.
 */
async function recordBids(
  tx: Transaction,
  auction: LockedAuction,
  sequence: number,
  bids: NewBid[],
  cause: { bidOf?: number; autoBidId?: number; userId: number },
  now: Date,
  finalState: BiddingState,
) {
  const written: { id: number; amountCents: number; kind: "manual" | "auto" }[] = [];
  let triggeredByBidId: number | null = null;
  for (const bid of bids) {
    const manual = bid.kind === "manual";
    const [row]: { id: number }[] = await tx
      .insert(auctionBids)
      .values({
        auctionId: auction.id,
        organizationId: bid.seller,
        userId: manual ? cause.userId : null,
        amountCents: bid.amount,
        kind: bid.kind,
        rank: bid.rank,
        triggeredByBidId: manual ? null : triggeredByBidId,
        triggeredByAutoBidId: manual ? null : (cause.autoBidId ?? null),
        createdAt: now,
      })
      .returning({ id: auctionBids.id });
    if (!row) throw new Error("no bid row");
    if (manual) triggeredByBidId = row.id;
    written.push({ id: row.id, amountCents: bid.amount, kind: bid.kind });
  }
  const lowest = finalState.lowest;
  const leaderRow = lowest
    ? written.findLast((row, index) => bids[index]?.seller === lowest.seller && row.amountCents === lowest.amount)
    : undefined;
  const endsAt = written.length > 0 ? endAfterBid(auction, now) : auction.endsAt;
  const extended = endsAt.getTime() !== auction.endsAt.getTime();
  const updateAuction = tx
    .update(auctions)
    .set({
      sequence,
      status: auction.status === "scheduled" ? "open" : auction.status,
      ...(leaderRow && lowest
        ? { lowestBidId: leaderRow.id, lowestCents: lowest.amount, leaderOrganizationId: lowest.seller }
        : {}),
      bidCount: sql`${auctions.bidCount} + ${written.length}`,
      endsAt,
      extensions: extended ? auction.extensions + 1 : auction.extensions,
      updatedAt: now,
    })
    .where(eq(auctions.id, auction.id));
  const events = written.map((row, index) => ({
    auctionId: auction.id,
    kind: "bid",
    userId: row.kind === "manual" ? cause.userId : null,
    organizationId: bids[index]?.seller ?? null,
    data: {
      bidId: row.id,
      amountCents: row.amountCents,
      bidKind: row.kind,
      triggeredByBidId: row.kind === "auto" ? (written.find((bid) => bid.kind === "manual")?.id ?? null) : null,
      triggeredByAutoBidId: row.kind === "auto" ? (cause.autoBidId ?? null) : null,
    },
    createdAt: now,
  }));
  if (extended) {
    events.push({
      auctionId: auction.id,
      kind: "extended",
      userId: null,
      organizationId: null,
      data: { from: auction.endsAt.toISOString(), to: endsAt.toISOString() } as never,
      createdAt: now,
    });
  }
  // Sent together (pipelined on PostgreSQL), run in this order: one round trip while others wait for the lock.
  await Promise.all([
    updateAuction,
    events.length > 0 ? tx.insert(auctionEvents).values(events) : undefined,
    notifyAuction(tx, auction.id),
  ]);
  return { written, endsAt };
}

/** Tells every app machine's listeners that the auction changed (sent when the transaction commits). */
export async function notifyAuction(tx: Pick<Database, "execute">, auctionId: number) {
  await tx.execute(sql`select pg_notify(${AUCTION_CHANNEL}, ${String(auctionId)})`);
}

const accepted = (
  before: BiddingState,
  after: BiddingState,
  bids: { id: number; amountCents: number; kind: "manual" | "auto" }[],
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

type BidderTurn = { tx: Transaction; auction: LockedAuction; state: BiddingState; sequence: number; now: Date };

/**
 * The common start of every bidding change: the auction locked (with what the rules need read
 * under the lock), the bidder checked, the next sequence number taken. `work` runs in the same
 * transaction.
 */
function asBidder(db: Database, request: BidderRequest, work: (turn: BidderTurn) => Promise<BidOutcome>) {
  return db.transaction(async (tx): Promise<BidOutcome> => {
    const locked = await lockForBidding(tx, request.auctionId, request.organizationId);
    const { auction } = locked;
    if (!auction) return refused(404, "This auction does not exist or you are not invited to it.");
    // The bid's time is taken once the lock is held: a bid that waited its turn past the end is late.
    const now = request.now ?? new Date();
    const problem = checkBidder({ ...locked, auction }, now);
    if (problem) return problem;
    const state = biddingState({ ...locked, auction }, request.organizationId);
    return work({ tx, auction, state, sequence: auction.sequence + 1, now });
  });
}

/** A seller's manual bid: binding once accepted; the auto-bids it sets off are placed in the same transaction. */
export function placeManualBid(db: Database, request: BidderRequest & { amountCents: number }): Promise<BidOutcome> {
  return asBidder(db, request, async ({ tx, auction, state, sequence, now }) => {
    const outcome: Outcome = placeBid(state, request.organizationId, request.amountCents, sequence);
    if (!outcome.ok) return refused(400, refusalMessage(outcome), "amount");
    const cause = { userId: request.userId };
    const { written, endsAt } = await recordBids(tx, auction, sequence, outcome.bids, cause, now, outcome.state);
    return accepted(state, outcome.state, written, auction.endsAt, endsAt);
  });
}

/**
 * A seller sets or changes their secret minimum; the system bids for them (and for the others) in
 * the same transaction. The minimum is never shown to anyone but its seller.
 */
export function setAutoBidMinimum(
  db: Database,
  request: BidderRequest & { minimumCents: number },
): Promise<BidOutcome> {
  return asBidder(db, request, async ({ tx, auction, state, sequence, now }) => {
    const outcome = setAutoBid(state, request.organizationId, request.minimumCents, sequence);
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
      .values({ auctionId: auction.id, organizationId: request.organizationId, ...row })
      .onConflictDoUpdate({ target: [auctionAutoBids.auctionId, auctionAutoBids.organizationId], set: row })
      .returning({ id: auctionAutoBids.id });
    if (!autoBid) throw new Error("no auto-bid row");
    // Private to the seller: the minimum is in the audit trail, never in anything another seller sees.
    await tx.insert(auctionEvents).values({
      auctionId: auction.id,
      kind: "auto-bid-set",
      userId: request.userId,
      organizationId: request.organizationId,
      data: { autoBidId: autoBid.id, minimumCents: entered.minimum },
      createdAt: now,
    });
    const cause = { userId: request.userId, autoBidId: autoBid.id };
    const { written, endsAt } = await recordBids(tx, auction, sequence, outcome.bids, cause, now, outcome.state);
    return accepted(state, outcome.state, written, auction.endsAt, endsAt);
  });
}
