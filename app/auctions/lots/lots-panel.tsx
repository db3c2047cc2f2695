import { Link } from "react-router";
import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { STATUS_LABELS } from "../auction-rules";
import type { AuctionView } from "../auction-views.server";
import { rankWords } from "./lot-schedule";
import { lotName } from "./lot-words";

// A lotted auction's lots on its page (issue 31): each lot's closing, status and lowest total; for a
// seller whether they have it and the way to bid on it, for the auction's side who leads is on the
// lot's bids. An auction of one lot bid on as one amount shows none of this.

export function LotsPanel({ view, times }: { view: AuctionView; times: TimeTexts }) {
  const seller = view.kind === "seller";
  const awarded = view.status === "awarded";
  // Ranks only (issue 31): a seller sees their place on each lot, never a price of others.
  const ranksOnly = view.kind === "seller" && view.rank !== undefined;
  return (
    <section aria-labelledby="lots" className="card">
      <h2 id="lots">Lots</h2>
      <p>
        {seller
          ? "Each lot is bid on and awarded on its own, and closes at its own time. Bid on any lot you choose: a unit price for every line."
          : "Each lot is bid on and awarded on its own, and closes at its own time."}
      </p>
      <table className="table">
        <caption className="visually-hidden">The auction's lots</caption>
        <thead>
          <tr>
            <th scope="col">Lot</th>
            <th scope="col">Closes</th>
            <th scope="col">Status</th>
            {ranksOnly ? null : <th scope="col">Lowest total</th>}
            {seller ? <th scope="col">You</th> : null}
            {awarded ? <th scope="col">Awarded</th> : null}
          </tr>
        </thead>
        <tbody>
          {view.lots.map((lot) => (
            <tr key={lot.id}>
              <th scope="row">
                {seller && lot.status === "open" && view.termsAccepted ? (
                  <Link to={`/auctions/${view.terms.id}/lots/${lot.id}/bid`}>{`Bid on ${lotName(lot)}`}</Link>
                ) : seller ? (
                  <Link to={`/auctions/${view.terms.id}/lots/${lot.id}/bid`}>{lotName(lot)}</Link>
                ) : (
                  <Link to={`/auctions/${view.terms.id}/lots/${lot.id}/bids`}>{`Bids on ${lotName(lot)}`}</Link>
                )}
              </th>
              <td>{timeText(times, lot.endsAt)}</td>
              <td>{STATUS_LABELS[lot.status]}</td>
              {ranksOnly ? null : <td>{lot.lowestCents === null ? "No bids yet" : formatCents(lot.lowestCents)}</td>}
              {"rank" in lot && lot.rank !== undefined ? (
                <td>{lot.rank === null ? "You have not bid" : rankWords(lot.rank)}</td>
              ) : "leading" in lot ? (
                <td>{lot.leading ? "You have the lowest bid" : "—"}</td>
              ) : null}
              {awarded ? (
                <td>
                  {"won" in lot
                    ? lot.won
                      ? "Awarded to you"
                      : "Not awarded to you"
                    : "awarded" in lot && lot.awarded
                      ? `${lot.awarded.organizationName} at ${formatCents(lot.awarded.amountCents)}${lot.awarded.reason ? ` (lowest passed over: ${lot.awarded.reason})` : ""}`
                      : "Not awarded"}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
