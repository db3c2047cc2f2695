import { data } from "react-router";
import { csvResponse } from "~/shared/csv";
import { requireAuctionViewer } from "../documents/auction-documents.server";
import type { Route } from "./+types/auction-bids-csv";
import { bidHistoryCsv, bidHistoryRows } from "./bid-history-csv.server";

// GET /auctions/:auctionId/bids.csv: the whole bid history with sellers' names, for the auction's
// own side and staff. Sellers get the 404 of an auction they may not see: they never see competitors.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer, db } = await requireAuctionViewer(request, context, params.auctionId);
  if (viewer.kind === "seller") throw data(null, { status: 404 });
  return csvResponse(
    bidHistoryCsv(await bidHistoryRows(db, auction.id), { lotted: auction.pricedByLots }),
    `auction-${auction.id}-bids.csv`,
  );
}
