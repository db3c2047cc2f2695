import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionInvitations, auctionLineItems, auctionLots, auctions } from "~db/schema";

// Reading an auction's lot for bidding (issues 9 and 31): its state as the rules need it, in one
// statement, with or without taking the auction's row lock first. Bids on every lot of an auction
// are ordered by the auction's sequence number, which guards each write.

/** The auction's columns the bidding rules need. */
const auctionColumns = {
  id: auctions.id,
  kind: auctions.kind,
  status: auctions.status,
  startsAt: auctions.startsAt,
  endsAt: auctions.endsAt,
  softCloseWindowMinutes: auctions.softCloseWindowMinutes,
  softCloseExtensionMinutes: auctions.softCloseExtensionMinutes,
  softCloseCapMinutes: auctions.softCloseCapMinutes,
  extensions: auctions.extensions,
  sequence: auctions.sequence,
  sellerView: auctions.sellerView,
};
/** The lot's columns: its terms and end. */
const lotColumns = {
  id: auctionLots.id,
  position: auctionLots.position,
  reserveCents: auctionLots.reserveCents,
  decrementKind: auctionLots.decrementKind,
  decrementValue: auctionLots.decrementValue,
  endsAt: auctionLots.endsAt,
  scheduledEndsAt: auctionLots.scheduledEndsAt,
  extensions: auctionLots.extensions,
};
type Data<Columns extends Record<string, { _: { data: unknown } }>> = {
  [K in keyof Columns]: Columns[K]["_"]["data"];
};
type BiddingAuction = Data<typeof auctionColumns>;
export type BiddingLot = Data<typeof lotColumns>;

/** The lot asked for, or (none named: an auction of one lot) the first. */
const lotWanted = (auctionId: number, lotId: number | undefined): SQL =>
  and(
    eq(auctionLots.auctionId, auctionId),
    lotId === undefined ? eq(auctionLots.position, 1) : eq(auctionLots.id, lotId),
  ) as SQL;

/** What the rules need besides the auction's columns, read in the same statement (one snapshot). */
type BiddingRead = {
  /** Per asking seller: true once the terms are accepted, false before; absent when not invited. */
  termsAccepted: Record<string, boolean> | null;
  lowest: { seller: number; amount: number; rank: number } | null;
  autoBids: { id: number; seller: number; minimum: number; enteredAt: number }[];
  /**
   * Per asking seller, their own lowest bid (read for minimum changes only: manual bids never need
   * it); when sellers see ranks only, every seller's on the lot (each bid is measured against it).
   */
  ownLowest: Record<string, number> | null;
  /** The lot's lines in order (issue 31): quantities in thousandths, ceilings in cents. */
  lines: { id: number; quantity: number; ceilingCents: number | null }[];
  /** Per seller with a minimum on the lot, and per asking seller: the unit prices of their latest bid (a lot priced by lines). */
  latestUnits: Record<string, number[]> | null;
};

export type Read = BiddingRead & { auction: BiddingAuction; lot: BiddingLot };

/**
 * The lot's state for the rules, in one statement: every part from one snapshot, so the auction's
 * sequence number read with it vouches for all of it. `sellers` are the organizations asking.
 */
export async function readForBidding(
  db: Database | Transaction,
  auctionId: number,
  lotId: number | undefined,
  sellers: number[],
  withOwnLowest: boolean,
): Promise<Read | undefined> {
  const asking = sql`(select unnest(${`{${sellers.join(",")}}`}::int[]))`;
  const whose = withOwnLowest
    ? sql`(organization_id in ${asking} or ${auctions.sellerView} = 'rank')`
    : sql`${auctions.sellerView} = 'rank'`;
  const ownLowest = sql`(select json_object_agg(organization_id, lowest) from (select organization_id, min(amount_cents) as lowest
          from ${auctionBids} where auction_id = ${auctionId} and ${whose}
            and lot_id = ${auctionLots.id}
          group by organization_id) as own)`;
  const [row] = await db
    .select({
      auction: auctionColumns,
      lot: lotColumns,
      state: sql<BiddingRead | string>`json_build_object(
        'termsAccepted', (select json_object_agg(organization_id, terms_accepted_at is not null)
          from ${auctionInvitations} where auction_id = ${auctionId} and organization_id in ${asking}),
        'lowest', (select json_build_object('seller', organization_id, 'amount', amount_cents, 'rank', rank)
          from ${auctionBids} where id = ${auctionLots.lowestBidId}),
        'autoBids', (select coalesce(json_agg(json_build_object('id', id, 'seller', organization_id,
          'minimum', minimum_cents, 'enteredAt', entered_sequence) order by id), '[]'::json)
          from ${auctionAutoBids} where lot_id = ${auctionLots.id}),
        'ownLowest', ${ownLowest},
        'lines', (select json_agg(json_build_object('id', id, 'quantity', quantity_thousandths,
          'ceilingCents', ceiling_cents) order by position) from ${auctionLineItems} where lot_id = ${auctionLots.id}),
        'latestUnits', (select json_object_agg(latest.organization_id, latest.unit_cents)
          from (select distinct on (organization_id) organization_id, unit_cents from ${auctionBids}
            where auction_id = ${auctionId} and lot_id = ${auctionLots.id}
              and (organization_id in (select organization_id from ${auctionAutoBids} where lot_id = ${auctionLots.id})
                or organization_id in ${asking})
            order by organization_id, id desc) as latest)
      )`,
    })
    .from(auctions)
    .innerJoin(auctionLots, lotWanted(auctionId, lotId))
    .where(eq(auctions.id, auctionId))
    .orderBy(asc(auctionLots.position));
  if (!row) return undefined;
  const { state, auction, lot } = row;
  const parsed: BiddingRead = typeof state === "string" ? JSON.parse(state) : state;
  return { auction, lot, ...parsed };
}

/**
 * Locks the auction's row until the transaction ends, then reads. The read is sent with the lock
 * (pipelined on PostgreSQL: one round trip) and runs after it on a fresh snapshot, so it sees what
 * the change before committed.
 */
export async function lockAndRead(
  tx: Transaction,
  auctionId: number,
  lotId: number | undefined,
  sellers: number[],
  withOwnLowest: boolean,
) {
  // Sent in this order: a query goes out when it is awaited, so the lock is asked for before the read.
  const locked = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(eq(auctions.id, auctionId))
    // The update's own lock (see round-write.server.ts): rows that only reference the auction do not wait.
    .for("no key update")
    .then(() => undefined);
  const [, read] = await Promise.all([locked, readForBidding(tx, auctionId, lotId, sellers, withOwnLowest)]);
  return read;
}
