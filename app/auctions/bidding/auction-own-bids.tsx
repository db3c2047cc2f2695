import { and, desc, eq } from "drizzle-orm";
import { data, Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { capitalized, countedInWords } from "~/shared/words";
import { auctionBids } from "~db/schema";
import { requireAuction } from "../auction-access.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { enteredBySql } from "../on-behalf/entered-by.server";
import type { Route } from "./+types/auction-own-bids";
import { bidCommitment } from "./bid-commitment";
import { OwnBidsTable } from "./own-bids-table";

// /auctions/{id}/own-bids: every bid an invited seller has placed on the auction (their page lists the
// latest ones). Only their own: nobody else's bids, names or count. Anyone else gets the page's 404.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction, viewer } = await requireAuction(request, context, params.auctionId);
  if (viewer.kind !== "seller") throw data(null, { status: 404 });
  const { db } = context.get(appServicesContext);
  const bids = await db
    .select({
      amountCents: auctionBids.amountCents,
      kind: auctionBids.kind,
      createdAt: auctionBids.createdAt,
      enteredBy: enteredBySql(),
      onBehalfNote: auctionBids.onBehalfNote,
      lotId: auctionBids.lotId,
    })
    .from(auctionBids)
    .where(and(eq(auctionBids.auctionId, auction.id), eq(auctionBids.organizationId, viewer.organizationId)))
    .orderBy(desc(auctionBids.id));
  // Numbered among the seller's own bids: the auction's bid ids would count the others' bids too.
  const ownBids = bids.map((bid, index) => ({
    ...bid,
    number: bids.length - index,
    createdAt: bid.createdAt.toISOString(),
  }));
  // Times formatted here, in the user's zone: the browser shows these texts as they are.
  return {
    auctionId: auction.id,
    title: auction.title,
    practice: auction.practice,
    times: zonedTexts(ownBids, timezoneOf(user)),
    bids: ownBids,
    // An auction shown as lots (issue 31): each bid's lot.
    lots: auction.pricedByLots
      ? auction.lots.map((lot) => ({ id: lot.id, position: lot.position, title: lot.title }))
      : undefined,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Your bids: ${loaderData.title}` : "Your bids") }];
}

export default function AuctionOwnBids({ loaderData }: Route.ComponentProps) {
  const { auctionId, title, practice, times, bids, lots } = loaderData;
  return (
    <>
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>Your bids on {title}</h1>
      {bids.length === 0 ? (
        <p>You have not placed a bid on this auction.</p>
      ) : (
        <>
          <p>
            {`${capitalized(countedInWords(bids.length, "bid", "bids"))}, newest first. ${bidCommitment(practice).rule}`}
          </p>
          <OwnBidsTable bids={bids} times={times} lots={lots} />
        </>
      )}
    </>
  );
}
