import { asc, eq } from "drizzle-orm";
import { csvText } from "~/shared/csv";
import { dollars } from "~/shared/money";
import type { Database } from "~db/database.server";
import { auctionBids, auctionLots, organizations } from "~db/schema";
import { lotName } from "../lots/lot-words";
import { enteredBySql } from "../on-behalf/entered-by.server";

// The bid history as CSV for the auction's own side and staff (issue 9): every bid, oldest first,
// with the seller's real name, written by the one CSV writer (app/shared/csv.ts). A lotted auction's
// (issue 31) also names each bid's lot and its unit prices, line by line.

export const BID_HISTORY_COLUMNS = [
  "bid_id",
  "placed_at_utc",
  "seller",
  "amount",
  "kind",
  "triggered_by_bid_id",
  "entered_on_behalf_by",
  "on_behalf_note",
] as const;

export type BidRow = {
  id: number;
  createdAt: Date;
  seller: string;
  amountCents: number;
  kind: string;
  triggeredByBidId: number | null;
  /** Entered on the seller's behalf (issue 21): by whom, and the note of who phoned; null otherwise. */
  enteredBy?: string | null;
  onBehalfNote?: string | null;
  /** A lotted auction's: the lot ("Lot 2: Rig move") and the unit prices in the lines' order. */
  lot?: string;
  unitCents?: number[] | null;
};

/** A lotted auction's columns: the lot after the seller, the unit prices after the amount. */
const LOTTED_COLUMNS = [
  ...BID_HISTORY_COLUMNS.slice(0, 3),
  "lot",
  "amount",
  "unit_prices",
  ...BID_HISTORY_COLUMNS.slice(4),
] as const;

export function bidHistoryCsv(rows: readonly BidRow[], { lotted = false }: { lotted?: boolean } = {}): string {
  return csvText(
    lotted ? LOTTED_COLUMNS : BID_HISTORY_COLUMNS,
    rows.map((row) => [
      String(row.id),
      row.createdAt.toISOString(),
      row.seller,
      ...(lotted ? [row.lot ?? ""] : []),
      dollars(row.amountCents),
      // One cell: the unit prices separated by semicolons, as spreadsheets split them.
      ...(lotted ? [(row.unitCents ?? []).map((cents) => dollars(cents)).join(";")] : []),
      row.kind,
      row.triggeredByBidId === null ? "" : String(row.triggeredByBidId),
      row.enteredBy ?? "",
      row.onBehalfNote ?? "",
    ]),
  );
}

/** Every bid of the auction with its seller's name and its lot, oldest first. */
export async function bidHistoryRows(db: Database, auctionId: number): Promise<BidRow[]> {
  const rows = await db
    .select({
      id: auctionBids.id,
      createdAt: auctionBids.createdAt,
      seller: organizations.name,
      amountCents: auctionBids.amountCents,
      kind: auctionBids.kind,
      triggeredByBidId: auctionBids.triggeredByBidId,
      enteredBy: enteredBySql(),
      onBehalfNote: auctionBids.onBehalfNote,
      unitCents: auctionBids.unitCents,
      lotPosition: auctionLots.position,
      lotTitle: auctionLots.title,
    })
    .from(auctionBids)
    .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
    .innerJoin(auctionLots, eq(auctionLots.id, auctionBids.lotId))
    .where(eq(auctionBids.auctionId, auctionId))
    .orderBy(asc(auctionBids.id));
  return rows.map(({ lotPosition, lotTitle, ...row }) => ({
    ...row,
    lot: lotName({ position: lotPosition, title: lotTitle }),
  }));
}
