import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { lotName } from "../lots/lot-words";

/** `number` counts the seller's own bids (1 the first): never an id that counts the other sellers' bids too. */
export type OwnBid = {
  number: number;
  amountCents: number;
  kind: "manual" | "auto";
  createdAt: string;
  /** Entered on the seller's behalf (issue 21): by whom, and the note of who phoned. */
  enteredBy: string | null;
  onBehalfNote: string | null;
  /** The lot it is on (issue 31). */
  lotId?: number;
};

/** How a bid came: the seller's minimum, the seller, or someone entering it on their behalf. */
export function ownBidHow(bid: OwnBid): string {
  if (bid.kind === "auto") return "Automatic (your minimum)";
  if (bid.enteredBy === null) return "By you";
  return `Entered on your behalf by ${bid.enteredBy}${bid.onBehalfNote ? ` (${bid.onBehalfNote})` : ""}`;
}

/**
 * A seller's own bids, newest first: the amount, when, and whether their minimum placed it; on an
 * auction shown as lots (`lots`), each bid's lot.
 */
export function OwnBidsTable({
  bids,
  times,
  lots,
}: {
  bids: OwnBid[];
  times: TimeTexts;
  lots?: readonly { id: number; position: number; title: string }[];
}) {
  const lotOf = (lotId: number | undefined) => {
    const lot = lots?.find((row) => row.id === lotId);
    return lot ? lotName(lot) : "";
  };
  return (
    <table className="table">
      <thead>
        <tr>
          {lots ? <th scope="col">Lot</th> : null}
          <th scope="col">Amount</th>
          <th scope="col">Placed</th>
          <th scope="col">How</th>
        </tr>
      </thead>
      <tbody>
        {bids.map((bid) => (
          <tr key={bid.number}>
            {lots ? <td>{lotOf(bid.lotId)}</td> : null}
            <td>{formatCents(bid.amountCents)}</td>
            <td>
              <time dateTime={bid.createdAt}>{timeText(times, bid.createdAt)}</time>
            </td>
            <td>{ownBidHow(bid)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
