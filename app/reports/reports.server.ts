import { and, asc, eq, gte, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { lineItemColumns } from "~/auctions/lots/lots.server";
import type { Database } from "~db/database.server";
import {
  auctionBids,
  auctionLineItems,
  auctionLots,
  auctions,
  provinces,
  sealedBidLots,
  serviceAreas,
  services,
} from "~db/schema";
import { auctionOfLots, type CeilingLine, type LotFigures } from "./lot-savings";
import type { AwardFigures } from "./savings";

// The awarded auctions a report reads (issue 21), one row each with its figures. Every sum is done
// in savings.ts on these rows, in integer cents, so the page, the chart and the CSV agree.
//
// Opening price: a reverse auction's first bid (the lowest bid id, i.e. the first placed); a sealed
// auction's highest sealed bid received (each seller's final revision): the worst price on the table
// when the bids were opened. Bidders: sellers with at least one bid (reverse) or a sealed bid.
//
// An auction awarded lot by lot (issue 31: its award is on its lots, none on its row) is measured
// over its awarded lots only (lot-savings.ts): its reserve, opening and award prices are the sums of
// those lots' reserves, first bids and awarded bids; a lot nobody bid on, never awarded, counts in
// none of them. Its bidders are the sellers who bid on any of its lots.

export type ReportRow = AwardFigures & {
  auctionId: number;
  title: string;
  kind: "reverse" | "sealed";
  awardedAt: Date;
  category: string;
  area: string;
  /** How many lots the auction has, awarded or not (1: every auction before lots). */
  lotCount: number;
  /** Awarded lot by lot: its awarded lots, in order; none: awarded as one amount (its award on its row). */
  lots: ReportLot[];
};

export type ReportLot = LotFigures & {
  /** How many of the lot's lines have a ceiling. */
  ceilingLineCount: number;
  /** Those lines with the awarded unit price on each, when asked for (`withLines`); otherwise none. */
  ceilingLines: CeilingLine[];
};

/** Whose auctions: one organization's (it ran them: buyer or consultant), or the marketplace's (staff). */
export type ReportScope = { organizationId: number } | "marketplace";

const parent = alias(services, "parent_service");
const grandparent = alias(services, "grandparent_service");

const bigintNumber = (expression: SQL) =>
  sql<number | null>`${expression}`.mapWith((value) => (value === null ? null : Number(value)));

export type ReportOptions = {
  /** One auction only (a report's page of one auction). */
  auctionId?: number;
  /** Read the awarded lots' lines with a ceiling too (`ReportLot.ceilingLines`). */
  withLines?: boolean;
};

export async function awardedAuctions(
  db: Database,
  scope: ReportScope,
  range: { fromUtc: Date | null; toUtc: Date | null },
  options: ReportOptions = {},
): Promise<ReportRow[]> {
  // Practice auctions are never awarded; the filter says so for the next reader (decision 022).
  const conditions = [eq(auctions.status, "awarded"), eq(auctions.practice, false)];
  if (scope !== "marketplace") conditions.push(eq(auctions.organizationId, scope.organizationId));
  if (range.fromUtc) conditions.push(gte(auctions.awardedAt, range.fromUtc));
  if (range.toUtc) conditions.push(lt(auctions.awardedAt, range.toUtc));
  if (options.auctionId !== undefined) conditions.push(eq(auctions.id, options.auctionId));
  const where = and(...conditions) as SQL;
  // Three reads, whatever the number of auctions: the auctions, their awarded lots, and (when asked)
  // those lots' lines with a ceiling.
  const [rows, lots] = await Promise.all([auctionRows(db, where), awardedLots(db, where, options.withLines === true)]);
  return rows.map((row) => {
    const awarded = lots.get(row.auctionId) ?? [];
    const figures = awarded.length
      ? auctionOfLots(awarded)
      : {
          reserveCents: row.reserveCents,
          openingCents: row.openingCents,
          // An awarded auction always has its awarded bid; 0 would only hide a broken row, so say so.
          awardCents: row.awardCents ?? failMissing(row.auctionId),
        };
    return {
      ...row,
      ...figures,
      awardedAt: row.awardedAt ?? new Date(0),
      invitedCount: Number(row.invitedCount),
      bidderCount: Number(row.bidderCount),
      lotCount: Number(row.lotCount),
      lots: awarded,
    };
  });
}

/** One row per auction; the prices as its row has them (an auction awarded lot by lot has no award there). */
function auctionRows(db: Database, where: SQL) {
  return db
    .select({
      auctionId: auctions.id,
      title: auctions.title,
      kind: auctions.kind,
      awardedAt: auctions.awardedAt,
      reserveCents: auctions.reserveCents,
      awardCents: bigintNumber(sql`case when ${auctions.kind} = 'sealed'
        then (select sb.amount_cents from sealed_bids sb where sb.id = ${auctions.awardedBidId})
        else (select ab.amount_cents from auction_bids ab where ab.id = ${auctions.awardedBidId}) end`),
      openingCents: bigintNumber(sql`case when ${auctions.kind} = 'sealed'
        then (select max(sb.amount_cents) from sealed_bids sb where sb.auction_id = ${auctions.id})
        else (select ab.amount_cents from auction_bids ab where ab.auction_id = ${auctions.id} order by ab.id limit 1) end`),
      invitedCount: sql<number>`(select count(*) from auction_invitations ai where ai.auction_id = ${auctions.id})::int`,
      bidderCount: sql<number>`(case when ${auctions.kind} = 'sealed'
        then (select count(*) from sealed_bids sb where sb.auction_id = ${auctions.id})
        else (select count(distinct ab.organization_id) from auction_bids ab where ab.auction_id = ${auctions.id}) end)::int`,
      // The category is the top of the service's branch (depth 1), whatever depth the auction chose.
      category: sql<string>`coalesce(${grandparent.name}, ${parent.name}, ${services.name})`,
      area: sql<string>`${serviceAreas.city} || ', ' || ${provinces.code}`,
      lotCount: sql<number>`(select count(*) from auction_lots al where al.auction_id = ${auctions.id})::int`,
    })
    .from(auctions)
    .innerJoin(services, eq(services.id, auctions.serviceId))
    .leftJoin(parent, eq(parent.id, services.parentId))
    .leftJoin(grandparent, eq(grandparent.id, parent.parentId))
    .innerJoin(serviceAreas, eq(serviceAreas.id, auctions.serviceAreaId))
    .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
    .where(where)
    .orderBy(auctions.awardedAt, auctions.id);
}

const awardedBid = alias(auctionBids, "awarded_bid");

/**
 * The awarded lots of the auctions `where` picks, by auction, in order: each with its reserve, first
 * and awarded bids, bidders and lines with a ceiling (only auctions awarded lot by lot have any).
 */
async function awardedLots(db: Database, where: SQL, withLines: boolean): Promise<Map<number, ReportLot[]>> {
  const sameLot = sql`ab.auction_id = ${auctionLots.auctionId} and ab.lot_id = ${auctionLots.id}`;
  // A sealed auction awarded lot by lot (issue 31): its lots' awarded, first (highest, as for a whole
  // sealed auction) and bidders come from the sealed bids' lots.
  const sealed = sql`${auctions.kind} = 'sealed'`;
  const [lots, lines] = await Promise.all([
    db
      .select({
        auctionId: auctionLots.auctionId,
        lotId: auctionLots.id,
        position: auctionLots.position,
        title: auctionLots.title,
        reserveCents: auctionLots.reserveCents,
        awardCents: bigintNumber(sql`coalesce(${awardedBid.amountCents}, ${sealedBidLots.amountCents})`),
        unitCents: sql<(number | string)[] | null>`coalesce(${awardedBid.unitCents}, ${sealedBidLots.unitCents})`,
        openingCents: bigintNumber(
          sql`case when ${sealed}
            then (select max(sl.amount_cents) from sealed_bid_lots sl where sl.lot_id = ${auctionLots.id})
            else (select ab.amount_cents from auction_bids ab where ${sameLot} order by ab.id limit 1) end`,
        ),
        bidderCount: sql<number>`(case when ${sealed}
          then (select count(*) from sealed_bid_lots sl where sl.lot_id = ${auctionLots.id})
          else (select count(distinct ab.organization_id) from auction_bids ab where ${sameLot}) end)::int`,
        ceilingLineCount: sql<number>`(select count(*) from auction_line_items li
          where li.lot_id = ${auctionLots.id} and li.ceiling_cents is not null)::int`,
      })
      .from(auctionLots)
      .innerJoin(auctions, eq(auctions.id, auctionLots.auctionId))
      // The awarded bid is a reverse auction's bid, or a sealed bid's lot: each joined within its own auction.
      .leftJoin(
        awardedBid,
        and(eq(awardedBid.id, auctionLots.awardedBidId), eq(awardedBid.auctionId, auctionLots.auctionId)),
      )
      .leftJoin(
        sealedBidLots,
        and(eq(sealedBidLots.sealedBidId, auctionLots.awardedBidId), eq(sealedBidLots.lotId, auctionLots.id)),
      )
      .where(and(where, isNotNull(auctionLots.awardedBidId)))
      .orderBy(asc(auctionLots.auctionId), asc(auctionLots.position)),
    withLines
      ? db
          .select({
            lotId: auctionLineItems.lotId,
            ...lineItemColumns,
          })
          .from(auctionLineItems)
          .innerJoin(auctionLots, eq(auctionLots.id, auctionLineItems.lotId))
          .innerJoin(auctions, eq(auctions.id, auctionLots.auctionId))
          .where(and(where, isNotNull(auctionLots.awardedBidId), isNotNull(auctionLineItems.ceilingCents)))
          .orderBy(asc(auctionLineItems.lotId), asc(auctionLineItems.position))
      : Promise.resolve([]),
  ]);
  const linesByLot = new Map<number, typeof lines>();
  for (const line of lines) linesByLot.set(line.lotId, [...(linesByLot.get(line.lotId) ?? []), line]);
  const byAuction = new Map<number, ReportLot[]>();
  for (const { auctionId, unitCents, ...lot } of lots) {
    const ceilingLines = (linesByLot.get(lot.lotId) ?? []).map((line) => ({
      ...line,
      quantity: Number(line.quantity),
      ceilingCents: Number(line.ceilingCents),
      // The lines' order is the unit prices' order; a lot bid on as one amount has no ceiling.
      unitCents: Number(unitCents?.[line.position - 1] ?? failMissing(auctionId)),
    }));
    const row = {
      ...lot,
      awardCents: Number(lot.awardCents),
      reserveCents: Number(lot.reserveCents),
      bidderCount: Number(lot.bidderCount),
      ceilingLineCount: Number(lot.ceilingLineCount),
      ceilingLines,
    };
    byAuction.set(auctionId, [...(byAuction.get(auctionId) ?? []), row]);
  }
  return byAuction;
}

function failMissing(auctionId: number): never {
  throw new Error(`awarded auction ${auctionId} has no awarded bid (or unit price)`);
}
