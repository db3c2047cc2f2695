import { sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionBids, auctionEvents, auctionLots, auctions, bidEffects } from "~db/schema";
import { AUCTION_CHANNEL } from "../auction-changes.server";
import type { LineBid } from "../lots/lot-bidding";
import { effectsOfRound, type Round } from "./bid-round.server";

// The guarded write of a round (issue 9, decision 005): the bids with the automatic ones they set off,
// the new lowest, the end moved by late bids, the events and the notification (delivered by
// PostgreSQL at commit) and what the round means for the other parties (bid_effects, told after the
// commit by bid-notices.server.ts) in ONE statement, guarded by the auction's sequence number: it
// writes only if nothing changed the auction since the read, under the row lock that statement takes. The lock is
// held for that statement alone, never across round trips to this process. It is the lock an update
// that keeps the row's key takes (FOR NO KEY UPDATE): it serializes the auction's writers, but not
// the rows that only reference the auction (a bid notice's fold holds such references, the
// notifications it writes, until it commits: FOR UPDATE would make each round wait for it).

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
export async function writeRound(db: Database | Transaction, round: Round, at: Date): Promise<number[][] | undefined> {
  const { read, changes } = round;
  const { auction, lot } = read;
  type BidRow = {
    ord: number;
    event_ord: number;
    organization_id: number;
    user_id: number | null;
    entered_by_user_id: number | null;
    on_behalf_note: string | null;
    amount_cents: number;
    kind: "manual" | "auto";
    rank: number;
    cause_ord: number | null;
    triggered_by_auto_bid_id: number | null;
    /** A lot priced by lines (issue 31): the bid's unit price per line, in the lines' order. */
    units: number[] | null;
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
        // A bid entered on the seller's behalf names who entered it, not a user of the seller (issue 21).
        user_id: bid.kind === "manual" && change.onBehalfNote === undefined ? change.userId : null,
        entered_by_user_id: bid.kind === "manual" && change.onBehalfNote !== undefined ? change.userId : null,
        on_behalf_note: bid.kind === "manual" ? (change.onBehalfNote ?? null) : null,
        amount_cents: bid.amount,
        kind: bid.kind,
        rank: bid.rank,
        cause_ord: bid.kind === "auto" ? manualOrd : null,
        triggered_by_auto_bid_id: bid.kind === "auto" && manualOrd === null ? (change.autoBidId ?? null) : null,
        units: round.sheet ? [...((bid as Partial<LineBid>).unitCents ?? [])] : null,
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
  const endsAt = round.lot.endsAt;
  const extended = round.lot.extensions - lot.extensions;
  const iso = at.toISOString();
  // The outbid, extension and on-behalf notices, owed from the commit on: one row for the round, if
  // anyone is owed one.
  const effects = effectsOfRound(round);
  const effectsWritten = effects
    ? sql`,
    effects_written as (
      insert into ${bidEffects} (auction_id, lot_id, outbid_organization_ids, extended, ends_at, on_behalf, created_at)
      select ${auction.id}, ${lot.id}, ${`{${effects.outbid.join(",")}}`}::int[], ${effects.extended},
        ${endsAt.toISOString()}::timestamptz, ${JSON.stringify(effects.onBehalf)}::jsonb, ${iso}::timestamptz
      from moved
    )`
    : sql``;
  const result = await db.execute(sql`
    with guard as (
      select id from ${auctions}
      where id = ${auction.id} and sequence = ${auction.sequence} and status = ${auction.status}
        and date_trunc('milliseconds', ends_at) = ${auction.endsAt.toISOString()}::timestamptz
        and exists (select from ${auctionLots} where ${auctionLots.id} = ${lot.id}
          and date_trunc('milliseconds', ${auctionLots.endsAt}) = ${lot.endsAt.toISOString()}::timestamptz)
      for no key update of ${auctions}
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
        user_id int, entered_by_user_id int, on_behalf_note text, amount_cents bigint, kind text, rank int,
        cause_ord int, triggered_by_auto_bid_id int, units bigint[])
        on bid.ord = taken.ord
    ),
    bid_caused as (
      select new_bid.*, cause.id as triggered_by_bid_id
      from new_bid left join new_bid as cause on cause.ord = new_bid.cause_ord
    ),
    bids_written as (
      insert into ${auctionBids} (id, auction_id, lot_id, organization_id, user_id, entered_by_user_id, on_behalf_note,
        amount_cents, unit_cents, kind, rank, triggered_by_bid_id, triggered_by_auto_bid_id, created_at)
      select id, ${auction.id}, ${lot.id}, organization_id, user_id, entered_by_user_id, on_behalf_note,
        amount_cents, units, kind, rank, triggered_by_bid_id, triggered_by_auto_bid_id, ${iso}::timestamptz
      from bid_caused order by ord
    ),
    moved as (
      update ${auctions} set sequence = ${auction.sequence + changes.length},
        status = ${auction.status === "scheduled" ? "open" : auction.status},
        bid_count = bid_count + ${rows.length},
        ends_at = greatest(ends_at, ${endsAt.toISOString()}::timestamptz),
        extensions = extensions + ${extended}, updated_at = ${iso}::timestamptz
      from guard where ${auctions.id} = guard.id
      returning ${auctions.id}
    ),
    lot_moved as (
      update ${auctionLots} set bid_count = bid_count + ${rows.length},
        ends_at = ${endsAt.toISOString()}::timestamptz, extensions = ${round.lot.extensions}
        ${leader}
      from guard where ${auctionLots.id} = ${lot.id}
    ),
    events_written as (
      insert into ${auctionEvents} (auction_id, kind, user_id, organization_id, data, created_at)
      select ${auction.id}, kind, user_id, organization_id, data, ${iso}::timestamptz from (
        select 'bid' as kind, coalesce(user_id, entered_by_user_id) as user_id, organization_id,
          jsonb_build_object('bidId', id, 'lotId', ${lot.id}::int, 'amountCents', amount_cents,
          'bidKind', kind, 'triggeredByBidId', triggered_by_bid_id,
          'triggeredByAutoBidId', triggered_by_auto_bid_id)
          || case when on_behalf_note is null then '{}'::jsonb
             else jsonb_build_object('onBehalf', true, 'onBehalfNote', on_behalf_note) end as data, event_ord
        from bid_caused
        union all
        select 'extended', null, null, extension.data || jsonb_build_object('lotId', ${lot.id}::int), extension.event_ord
        from guard, json_to_recordset(${JSON.stringify(extensions)}::json) as extension(event_ord int, data jsonb)
      ) as event order by event_ord
    )${effectsWritten}
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
