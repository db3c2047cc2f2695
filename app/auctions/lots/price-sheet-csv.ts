import { data } from "react-router";
import { appServicesContext } from "~/server/app-context";
import { csvResponse } from "~/shared/csv";
import { parseId } from "~/shared/ids";
import { requireAuction } from "../auction-access.server";
import { ownSealedBids, sealedLots } from "../sealed/sealed-bids.server";
import type { Route } from "./+types/price-sheet-csv";
import { priceSheetCsv } from "./line-items-csv.server";
import { sellerLotStanding } from "./lot-bid.server";

// GET /auctions/:auctionId/lots/:lotId/price-sheet.csv: a lot's lines for an invited seller to fill
// in (issue 31), with their latest unit prices where they have bid (on a sealed auction priced by
// lines, the unit prices of their own sealed bid). Nobody else's prices.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, viewer } = await requireAuction(request, context, params.auctionId);
  const lot = auction.lots.find((row) => row.id === parseId(params.lotId));
  if (!lot || viewer.kind !== "seller") throw data(null, { status: 404 });
  const { db } = context.get(appServicesContext);
  if (auction.kind === "sealed") {
    const sealedLot = (await sealedLots(db, auction.id)).find((row) => row.id === lot.id);
    if (!sealedLot || sealedLot.oneAmount) throw data(null, { status: 404 });
    const own = (await ownSealedBids(db, auction.id, [viewer.organizationId])).get(viewer.organizationId);
    const units = own?.lots.find((row) => row.lotId === lot.id)?.unitCents ?? undefined;
    const name = auction.lots.length > 1 ? `lot-${lot.position}-price-sheet` : "price-sheet";
    return csvResponse(priceSheetCsv(sealedLot.lines, units), `auction-${auction.id}-${name}.csv`);
  }
  const standing = await sellerLotStanding(db, auction, lot, viewer.organizationId);
  const units = standing.latestUnits.length === standing.lines.length ? standing.latestUnits : undefined;
  return csvResponse(priceSheetCsv(standing.lines, units), `auction-${auction.id}-lot-${lot.position}-price-sheet.csv`);
}
