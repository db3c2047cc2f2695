import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionInvitations, auctions } from "~db/schema";

// Reading an auction for bidding (issue 9): its state as the rules need it, in one statement, with or
// without taking its row lock first.

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

export type Read = BiddingRead & { auction: BiddingAuction };

/**
 * The auction's state for the rules, in one statement: every part from one snapshot, so the sequence
 * number read with it vouches for all of it. `sellers` are the organizations asking.
 */
export async function readForBidding(
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
export async function lockAndRead(tx: Transaction, auctionId: number, sellers: number[], withOwnLowest: boolean) {
  // Sent in this order: a query goes out when it is awaited, so the lock is asked for before the read.
  const locked = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(eq(auctions.id, auctionId))
    // The update's own lock (see round-write.server.ts): rows that only reference the auction do not wait.
    .for("no key update")
    .then(() => undefined);
  const [, read] = await Promise.all([locked, readForBidding(tx, auctionId, sellers, withOwnLowest)]);
  return read;
}
