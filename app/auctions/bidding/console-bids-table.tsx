import { TableRegion } from "~/layout/table-region";
import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";

// The bids as the auction's side reads them (the console, and a lot's bids, issue 31): amount, when,
// who, and how each came; the lowest marked. Newest first, the latest only when there are many.

export type ConsoleBid = {
  id: number;
  lotId: number;
  amountCents: number;
  kind: "manual" | "auto";
  createdAt: string;
  organizationName: string;
  enteredBy: string | null;
  onBehalfNote: string | null;
};

export function ConsoleBidsTable({
  bids,
  total,
  lowestBidIds,
  times,
  lotNames,
}: {
  bids: ConsoleBid[];
  /** How many bids there are in all (more than `bids` when only the latest are listed). */
  total: number;
  /** The standing lowest bid (a lotted auction: each lot's), marked in the list. */
  lowestBidIds: readonly (number | null)[];
  times: TimeTexts;
  /** A lotted auction's bids (issue 31): each lot's name, by id, for a column naming the bid's lot. */
  lotNames?: ReadonlyMap<number, string>;
}) {
  const latest = bids.length < total;
  return (
    <>
      {latest ? (
        <p>
          {lotNames
            ? `The latest ${bids.length} of ${total} bids are shown; each lot's page lists its own, and the bid history has every one.`
            : `The latest ${bids.length} of ${total} bids are shown; the bid history has every one.`}
        </p>
      ) : null}
      <TableRegion label={latest ? "Latest bids" : "Every bid"}>
        <table className="table">
          <caption className="visually-hidden">
            {latest ? "Latest bids, newest first" : "Every bid, newest first"}
          </caption>
          <thead>
            <tr>
              {lotNames ? <th scope="col">Lot</th> : null}
              <th scope="col">Amount</th>
              <th scope="col">Placed</th>
              <th scope="col">Seller</th>
              <th scope="col">How</th>
            </tr>
          </thead>
          <tbody>
            {bids.map((bid) => (
              <tr key={bid.id}>
                {lotNames ? <td>{lotNames.get(bid.lotId) ?? ""}</td> : null}
                <td>
                  {formatCents(bid.amountCents)}
                  {lowestBidIds.includes(bid.id) ? <strong> (lowest)</strong> : null}
                </td>
                <td>
                  <time dateTime={bid.createdAt}>{timeText(times, bid.createdAt)}</time>
                </td>
                <td>{bid.organizationName}</td>
                <td>
                  {bid.kind === "auto"
                    ? "Automatic"
                    : bid.enteredBy === null
                      ? "Manual"
                      : `Entered on the seller's behalf by ${bid.enteredBy} (${bid.onBehalfNote ?? ""})`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}
