import { type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "~db/database.server";
import { auctionBids, auctionEvents, auctionInvitations, organizations } from "~db/schema";
import type { AuctionRow } from "../auction-rules";
import {
  type BidPoint,
  type Extension,
  MAX_POINTS,
  MAX_STEPS,
  type PriceChartData,
  type Step,
} from "./price-chart-geometry";

// The price chart's series (issue 21) in ONE query however many bids: the console lists only the
// latest bids, the chart needs the whole history, compacted by the database. The lowest price is
// taken per round of bids (one round's bids share their time), so a seller's chart shows the lowest
// price as a seller watching the page saw it, never the automatic bids within a round; each seller
// gets their own bids only, never another's, nor an alias. Steps and points past MAX_STEPS and
// MAX_POINTS are downsampled (every Nth kept, the first and last always).
//
// Sealed auctions have no chart: their bids are sealed until the deadline (decision 008) and after
// it there is no price over time, only one bid per seller, ranked on the award page.

type Row = {
  row_kind: "step" | "bid" | "extended";
  organization_id: number | null;
  at_ms: number;
  /** A step's or a bid's amount; an extension's former end (ms). */
  cents: number;
  /** An extension's new end; a bid's id (to keep bids in order; never sent on). */
  to_ms: number | null;
  total: number | null;
  alias: string | null;
  name: string | null;
};

/** Both drivers' answer to `execute`: postgres.js gives the rows, PGlite an object holding them. */
function rowsOf<R>(result: unknown): R[] {
  return Array.isArray(result) ? (result as R[]) : ((result as { rows?: R[] }).rows ?? []);
}

const epochMs = (column: SQL) => sql`round(extract(epoch from ${column}) * 1000)::float8`;

/** Rows n of total kept when at most `max` are drawn: every Nth, and the first and the last. */
const kept = (max: number) => sql`(n = 1 or n = total or n % ceil(total / ${max}::float8)::int = 0)`;

/**
 * The rows already read, by the auction's version. Bids are never changed or removed, and the write
 * that adds a round of bids also raises the auction's sequence and bid count, and an extension moves
 * its end: rows read for a version stay right for it, and any later version is another key. At the
 * close of a busy auction everyone reloads between two rounds of bids; without this each reload read
 * and ranked the whole bid history again (most of the console's database time, and on PGlite most of
 * the page's). Concurrent reloads of one version share one read. The time limit only bounds how long a
 * renamed seller keeps its former name in the legend.
 */
const seriesRead = new WeakMap<Database, LRUCache<string, Promise<Row[]>>>();

function seriesCacheOf(db: Database) {
  let cache = seriesRead.get(db);
  if (!cache) {
    cache = new LRUCache<string, Promise<Row[]>>({ max: 300, ttl: 60_000 });
    seriesRead.set(db, cache);
  }
  return cache;
}

/** One lot of a lotted auction (issue 31): its own bids, end and extensions. */
export type ChartLot = { id: number; endsAt: Date };

/** The auction's series for its side (`sellerIds` null) or these sellers, read once per version of the auction. */
function cachedSeries(db: Database, auction: AuctionRow, sellerIds: number[] | null, lot?: ChartLot): Promise<Row[]> {
  // The live hub reads many sellers' charts at once, once per change: nothing to share with a reload.
  if (sellerIds && sellerIds.length > 1) return readSeries(db, auction, sellerIds, lot);
  const cache = seriesCacheOf(db);
  const key = [
    auction.id,
    auction.sequence,
    auction.bidCount,
    auction.endsAt.getTime(),
    sellerIds?.[0] ?? "all",
    lot?.id ?? "auction",
  ].join(":");
  let rows = cache.get(key);
  if (!rows) {
    rows = readSeries(db, auction, sellerIds, lot);
    cache.set(key, rows);
    // A failed read is not kept: the next reload reads again.
    rows.catch(() => cache.delete(key));
  }
  return rows;
}

async function readSeries(
  db: Database,
  auction: AuctionRow,
  sellerIds: number[] | null,
  lot?: ChartLot,
): Promise<Row[]> {
  // One lot's: its bids and the extensions of its end (each extension names its lot).
  const ofLot = lot ? sql` and lot_id = ${lot.id}` : sql``;
  const lotExtensions = lot ? sql` and (data->>'lotId')::int = ${lot.id}` : sql``;
  // The auction's side: every bid, numbered across the auction. A seller: their own, numbered per seller.
  const own = sellerIds
    ? sql`where organization_id in (${sql.join(
        sellerIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const partition = sellerIds ? sql`partition by organization_id` : sql``;
  const names = sellerIds
    ? sql`null::text as alias, null::text as name`
    : sql`(select alias from ${auctionInvitations} where ${auctionInvitations.auctionId} = ${auction.id}
          and ${auctionInvitations.organizationId} = drawn.organization_id) as alias,
        (select name from ${organizations} where ${organizations.id} = drawn.organization_id) as name`;
  const result = await db.execute(sql`
    with bid as (
      select id, created_at, amount_cents, organization_id from ${auctionBids} where auction_id = ${auction.id}${ofLot}
    ),
    round as (select created_at, min(amount_cents) as low from bid group by created_at),
    running as (
      select created_at, lowest, lag(lowest) over (order by created_at) as before
      from (select created_at, min(low) over (order by created_at) as lowest from round) as r
    ),
    step as (
      select created_at, lowest, row_number() over (order by created_at) as n, count(*) over () as total
      from running where before is null or lowest < before
    ),
    drawn as (
      select id, created_at, amount_cents, organization_id,
        row_number() over (${partition} order by id) as n, count(*) over (${partition}) as total
      from bid ${own}
    )
    select 'step' as row_kind, null::int as organization_id, ${epochMs(sql`created_at`)} as at_ms,
      lowest::float8 as cents, null::float8 as to_ms, null::int as total, null::text as alias, null::text as name
    from step where ${kept(MAX_STEPS)}
    union all
    select 'bid', organization_id, ${epochMs(sql`created_at`)}, amount_cents::float8, id::float8, total::int, ${names}
    from drawn where ${kept(MAX_POINTS)}
    union all
    select 'extended', null, ${epochMs(sql`created_at`)}, ${epochMs(sql`(data->>'from')::timestamptz`)},
      ${epochMs(sql`(data->>'to')::timestamptz`)}, null, null, null
    from ${auctionEvents} where auction_id = ${auction.id} and kind = 'extended'${lotExtensions}
  `);
  return rowsOf<Row>(result).map((row) => ({
    ...row,
    organization_id: row.organization_id === null ? null : Number(row.organization_id),
    at_ms: Number(row.at_ms),
    cents: Number(row.cents),
    to_ms: row.to_ms === null ? null : Number(row.to_ms),
    total: row.total === null ? null : Number(row.total),
  }));
}

const byTime = <T extends readonly number[]>(a: T, b: T) => (a[0] as number) - (b[0] as number);

/**
 * What every viewer's chart shares: the lowest price, the end's moves, when the first and the latest
 * round of bids came (each round lowers the price, so these are the first and last steps).
 */
function shared(auction: AuctionRow, rows: Row[], lot?: ChartLot) {
  const steps: Step[] = rows.filter((row) => row.row_kind === "step").map((row) => [row.at_ms, row.cents] as const);
  const extensions: Extension[] = rows
    .filter((row) => row.row_kind === "extended")
    .map((row) => [row.at_ms, row.cents, row.to_ms ?? row.cents] as const);
  steps.sort(byTime);
  const first = steps[0];
  const last = steps[steps.length - 1];
  return {
    startMs: auction.startsAt.getTime(),
    endMs: (lot ?? auction).endsAt.getTime(),
    steps,
    extensions: extensions.sort(byTime),
    firstAt: first ? new Date(first[0]).toISOString() : null,
    lastAt: last ? new Date(last[0]).toISOString() : null,
  };
}

/** The chart of the auction's side, its evaluator and staff: every seller's bids, by alias. Null for a sealed auction. */
export async function fullPriceChart(
  db: Database,
  auction: AuctionRow,
  lot?: ChartLot,
): Promise<PriceChartData | null> {
  if (auction.kind === "sealed") return null;
  const rows = await cachedSeries(db, auction, null, lot);
  const bids = rows.filter((row) => row.row_kind === "bid");
  // One series per seller who bid, in alias order (Seller A, Seller B, …).
  const sellers = new Map<number, string>();
  for (const bid of bids) {
    if (bid.organization_id === null || sellers.has(bid.organization_id)) continue;
    sellers.set(bid.organization_id, bid.alias ? `${bid.alias} (${bid.name ?? ""})` : (bid.name ?? "A seller"));
  }
  const order = [...sellers.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const seriesOf = new Map(order.map(([organizationId], index) => [organizationId, index]));
  return {
    ...shared(auction, rows, lot),
    points: bids
      .sort((a, b) => (a.to_ms ?? 0) - (b.to_ms ?? 0))
      .map((bid): BidPoint => [bid.at_ms, bid.cents, seriesOf.get(bid.organization_id ?? 0) ?? 0]),
    series: order.map(([, label]) => label),
    pointCount: bids[0]?.total ?? 0,
    audience: "full",
  };
}

/**
 * Each of these sellers' chart: the lowest price and the end's moves (which they see anyway) and
 * their own bids; nothing of the others. Empty for a sealed auction.
 */
export async function sellerPriceCharts(
  db: Database,
  auction: AuctionRow,
  organizationIds: number[],
): Promise<Map<number, PriceChartData>> {
  const charts = new Map<number, PriceChartData>();
  if (auction.kind === "sealed" || organizationIds.length === 0) return charts;
  const rows = await cachedSeries(db, auction, organizationIds);
  const common = shared(auction, rows);
  for (const organizationId of organizationIds) {
    const own = rows
      .filter((row) => row.row_kind === "bid" && row.organization_id === organizationId)
      .sort((a, b) => (a.to_ms ?? 0) - (b.to_ms ?? 0));
    charts.set(organizationId, {
      ...common,
      points: own.map((bid): BidPoint => [bid.at_ms, bid.cents, 0]),
      series: ["Your bids"],
      pointCount: own[0]?.total ?? 0,
      audience: "seller",
    });
  }
  return charts;
}
