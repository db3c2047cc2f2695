import { data, Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import { requireAuction } from "../auction-access.server";
import { decrementOf, describeDecrement, STATUS_LABELS } from "../auction-rules";
import { ConsoleBidsTable } from "../bidding/console-bids-table";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { PriceChart } from "../price-chart/price-chart";
import type { Route } from "./+types/lot-console";
import { lotConsole } from "./lot-console.server";
import { lotName } from "./lot-words";
import { PriceSchedules } from "./price-schedules";

// /auctions/{id}/lots/{lot}/bids: one lot's bids for the auction's side, its evaluator and staff
// (issue 31): the lot's lowest and closing, its price over time, each seller's standing bid line by
// line, and its latest bids. Sellers get the 404 of a page they may not see: never a competitor.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction, viewer } = await requireAuction(request, context, params.auctionId);
  const lot = auction.lots.find((row) => row.id === parseId(params.lotId));
  if (!lot || viewer.kind === "seller" || auction.kind !== "reverse") throw data(null, { status: 404 });
  const { db } = context.get(appServicesContext);
  const now = new Date();
  const view = await lotConsole(db, auction, lot, now);
  const texts = {
    serverTime: now.toISOString(),
    endsAt: lot.endsAt.toISOString(),
    bids: view.bids,
    priceChart: view.priceChart,
  };
  return {
    auctionId: auction.id,
    auctionTitle: auction.title,
    name: lotName(lot),
    lotted: auction.lots.length > 1,
    reserveCents: lot.reserveCents,
    lowestBidId: lot.lowestBidId,
    decrement: describeDecrement(decrementOf(lot), formatCents),
    ...texts,
    ...view,
    statusLabel: STATUS_LABELS[view.status],
    times: zonedTexts(texts, timezoneOf(user)),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Bids on ${loaderData.name}: ${loaderData.auctionTitle}` : "A lot's bids") }];
}

export default function LotConsole({ loaderData }: Route.ComponentProps) {
  const { auctionId, name, times, lines, standing } = loaderData;
  return (
    <div>
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Bids on ${name}: ${loaderData.auctionTitle}`}</h1>
      <section aria-labelledby="lot-summary" className="card">
        <h2 id="lot-summary">The lot</h2>
        <dl className="summary-list">
          <div className="summary-list__row">
            <dt>Bidding</dt>
            <dd>{`${loaderData.statusLabel}; closes ${times[loaderData.endsAt] ?? loaderData.endsAt}`}</dd>
          </div>
          <div className="summary-list__row">
            <dt>Lowest total</dt>
            <dd>
              {loaderData.lowest
                ? `${formatCents(loaderData.lowest.amountCents)} by ${loaderData.lowest.name}`
                : "No bids yet"}
            </dd>
          </div>
          <div className="summary-list__row">
            <dt>Bids placed</dt>
            <dd>{String(loaderData.bidCount)}</dd>
          </div>
          <div className="summary-list__row">
            <dt>Reserve and decrement</dt>
            <dd>{`${formatCents(loaderData.reserveCents)}; each bid beats the lowest by at least ${loaderData.decrement}`}</dd>
          </div>
        </dl>
        <p>
          <a href={`/auctions/${auctionId}/bids.csv`} download>
            Download the bid history (CSV)
          </a>
          {" (every lot, with each bid's unit prices)"}
        </p>
      </section>
      {loaderData.priceChart ? (
        <PriceChart
          chart={loaderData.priceChart}
          status={loaderData.status}
          serverTime={loaderData.serverTime}
          times={times}
          bidsLink={{ href: "#lot-bids", text: "The lot's bids are listed under Bids" }}
        />
      ) : null}
      {standing.length > 0 ? (
        <section aria-labelledby="lot-standing">
          <h2 id="lot-standing">Each seller's best bid, line by line</h2>
          <p>Lowest total first. Each line's total is its quantity × unit price, rounded to the cent.</p>
          <PriceSchedules
            lines={lines}
            bids={standing}
            caption="Each seller's best bid on the lot, line by line, lowest total first"
            label="Unit prices by seller"
          />
        </section>
      ) : null}
      <section aria-labelledby="lot-bids">
        <h2 id="lot-bids">Bids</h2>
        {loaderData.bids.length > 0 ? (
          <ConsoleBidsTable
            bids={loaderData.bids}
            total={loaderData.bidCount}
            lowestBidIds={[loaderData.lowestBidId]}
            times={times}
          />
        ) : (
          <p>No bids yet.</p>
        )}
      </section>
    </div>
  );
}
