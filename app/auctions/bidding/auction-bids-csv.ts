import { data } from "react-router";
import { requireAuctionViewer } from "../documents/auction-documents.server";
import type { Route } from "./+types/auction-bids-csv";
import { bidHistoryCsv, bidHistoryRows } from "./bid-history-csv.server";

// GET /auctions/:auctionId/bids.csv: the whole bid history with sellers' names, for the auction's
// own side and staff. Sellers get the 404 of an auction they may not see: they never see competitors.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer, db } = await requireAuctionViewer(request, context, params.auctionId);
  if (viewer.kind === "seller") throw data(null, { status: 404 });
  const csv = bidHistoryCsv(await bidHistoryRows(db, auction.id));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="auction-${auction.id}-bids.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
