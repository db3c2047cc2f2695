import { and, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~db/database.server";
import { auctions, provinces, serviceAreas, services } from "~db/schema";
import type { AwardFigures } from "./savings";

// The awarded auctions a report reads (issue 21), one row each with its figures. Every sum is done
// in savings.ts on these rows, in integer cents, so the page, the chart and the CSV agree.
//
// Opening price: a reverse auction's first bid (the lowest bid id, i.e. the first placed); a sealed
// auction's highest sealed bid received (each seller's final revision): the worst price on the table
// when the bids were opened. Bidders: sellers with at least one bid (reverse) or a sealed bid.

export type ReportRow = AwardFigures & {
  auctionId: number;
  title: string;
  kind: "reverse" | "sealed";
  awardedAt: Date;
  category: string;
  area: string;
};

/** Whose auctions: one organization's (it ran them: buyer or consultant), or the marketplace's (staff). */
export type ReportScope = { organizationId: number } | "marketplace";

const parent = alias(services, "parent_service");
const grandparent = alias(services, "grandparent_service");

const bigintNumber = (expression: SQL) =>
  sql<number | null>`${expression}`.mapWith((value) => (value === null ? null : Number(value)));

export async function awardedAuctions(
  db: Database,
  scope: ReportScope,
  range: { fromUtc: Date | null; toUtc: Date | null },
): Promise<ReportRow[]> {
  // Practice auctions are never awarded; the filter says so for the next reader (decision 022).
  const conditions = [eq(auctions.status, "awarded"), eq(auctions.practice, false)];
  if (scope !== "marketplace") conditions.push(eq(auctions.organizationId, scope.organizationId));
  if (range.fromUtc) conditions.push(gte(auctions.awardedAt, range.fromUtc));
  if (range.toUtc) conditions.push(lt(auctions.awardedAt, range.toUtc));
  const rows = await db
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
    })
    .from(auctions)
    .innerJoin(services, eq(services.id, auctions.serviceId))
    .leftJoin(parent, eq(parent.id, services.parentId))
    .leftJoin(grandparent, eq(grandparent.id, parent.parentId))
    .innerJoin(serviceAreas, eq(serviceAreas.id, auctions.serviceAreaId))
    .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
    .where(and(...conditions))
    .orderBy(auctions.awardedAt, auctions.id);
  return rows.map((row) => ({
    ...row,
    awardedAt: row.awardedAt ?? new Date(0),
    // An awarded auction always has its awarded bid; 0 would only hide a broken row, so say so.
    awardCents: row.awardCents ?? failMissing(row.auctionId),
    invitedCount: Number(row.invitedCount),
    bidderCount: Number(row.bidderCount),
  }));
}

function failMissing(auctionId: number): never {
  throw new Error(`awarded auction ${auctionId} has no awarded bid`);
}
