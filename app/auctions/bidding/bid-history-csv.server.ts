import { asc, eq } from "drizzle-orm";
import { csvText } from "~/shared/csv";
import { dollars } from "~/shared/money";
import type { Database } from "~db/database.server";
import { auctionBids, organizations } from "~db/schema";
import { enteredBySql } from "../on-behalf/entered-by.server";

// The bid history as CSV for the auction's own side and staff (issue 9): every bid, oldest first,
// with the seller's real name, written by the one CSV writer (app/shared/csv.ts).

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
};

export function bidHistoryCsv(rows: readonly BidRow[]): string {
  return csvText(
    BID_HISTORY_COLUMNS,
    rows.map((row) => [
      String(row.id),
      row.createdAt.toISOString(),
      row.seller,
      dollars(row.amountCents),
      row.kind,
      row.triggeredByBidId === null ? "" : String(row.triggeredByBidId),
      row.enteredBy ?? "",
      row.onBehalfNote ?? "",
    ]),
  );
}

/** Every bid of the auction with its seller's name, oldest first. */
export async function bidHistoryRows(db: Database, auctionId: number): Promise<BidRow[]> {
  return db
    .select({
      id: auctionBids.id,
      createdAt: auctionBids.createdAt,
      seller: organizations.name,
      amountCents: auctionBids.amountCents,
      kind: auctionBids.kind,
      triggeredByBidId: auctionBids.triggeredByBidId,
      enteredBy: enteredBySql(),
      onBehalfNote: auctionBids.onBehalfNote,
    })
    .from(auctionBids)
    .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
    .where(eq(auctionBids.auctionId, auctionId))
    .orderBy(asc(auctionBids.id));
}
