import { Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { Pager, pageCountOf, pageOf } from "~/layout/pager";
import { TableRegion } from "~/layout/table-region";
import { timeText, zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { Role } from "~/shared/roles";
import { STATUS_LABELS, statusAt } from "../auction-rules";
import { AUCTIONS_PAGE_SIZE, listAuctionsFor } from "../auction-views.server";
import type { Route } from "./+types/auction-list";
import { timezoneOf } from "./auction-form.server";

// /auctions: a buyer's or consultant's own auctions, the auctions a seller is invited to, or (staff) all.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const page = pageOf(url);
  const { rows, total } = await listAuctionsFor(context.get(appServicesContext).db, user, page);
  const now = new Date();
  const auctions = rows.map((row) => ({
    id: row.id,
    title: row.title,
    organizationName: row.organizationName,
    kind: row.kind,
    status: statusAt(row, now),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
  }));
  return {
    canCreate: (user.role === Role.Buyer || user.role === Role.Consultant) && user.organizationId !== null,
    isSeller: user.role === Role.Seller,
    // Formatted here, in the user's zone: the browser shows these texts as they are.
    times: zonedTexts(auctions, timezoneOf(user)),
    auctions,
    page,
    pageCount: pageCountOf(total, AUCTIONS_PAGE_SIZE),
    search: url.search,
  };
}

export function meta() {
  return [{ title: pageTitle("Auctions") }];
}

export default function AuctionList({ loaderData }: Route.ComponentProps) {
  const { auctions, canCreate, isSeller, times, page, pageCount, search } = loaderData;
  return (
    <div>
      <h1>Auctions</h1>
      {canCreate ? (
        <p>
          <Link className="button" to="/auctions/new">
            New auction
          </Link>
        </p>
      ) : null}
      {isSeller ? (
        <p>
          New to bidding? <Link to="/auctions/practice">Try a practice auction</Link>: simulated bidders, nothing real.
        </p>
      ) : null}
      {auctions.length === 0 ? (
        <p>{isSeller ? "You have not been invited to an auction yet." : "No auctions yet."}</p>
      ) : (
        <TableRegion label="Auctions">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Auction</th>
                <th scope="col">Kind</th>
                <th scope="col">Buyer</th>
                <th scope="col">Status</th>
                <th scope="col">Bidding</th>
              </tr>
            </thead>
            <tbody>
              {auctions.map((auction) => (
                <tr key={auction.id}>
                  <th scope="row">
                    <Link to={`/auctions/${auction.id}`}>{auction.title}</Link>
                  </th>
                  <td>{auction.kind === "sealed" ? "Sealed bids" : "Reverse"}</td>
                  <td>{auction.organizationName}</td>
                  <td>{STATUS_LABELS[auction.status]}</td>
                  <td>
                    <time dateTime={auction.startsAt}>{timeText(times, auction.startsAt)}</time>
                    {" to "}
                    <time dateTime={auction.endsAt}>{timeText(times, auction.endsAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager page={page} pageCount={pageCount} search={search} label="Auction pages" />
    </div>
  );
}
