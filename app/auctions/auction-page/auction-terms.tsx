import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { capitalized, howOften } from "~/shared/words";
import { describeDecrement, describeSoftClose } from "../auction-rules";
import type { OwnerView, SellerView } from "../auction-views.server";
import { bidCommitment } from "../bidding/bid-commitment";
import { Row } from "./summary-row";

// What every viewer of an auction sees: when bidding runs, and the terms with their documents.

export function TimeLine({ view, times }: { view: OwnerView | SellerView; times: TimeTexts }) {
  const { terms } = view;
  return (
    <dl className="summary-list">
      <Row label="Bidding starts">
        <time dateTime={terms.startsAt}>{timeText(times, terms.startsAt)}</time>
      </Row>
      <Row label={terms.kind === "sealed" ? "Submission deadline" : "Bidding ends"}>
        <time dateTime={terms.endsAt}>{timeText(times, terms.endsAt)}</time>
        {terms.extensions > 0
          ? ` (extended ${howOften(terms.extensions)} by late bids; scheduled for ${timeText(times, terms.scheduledEndsAt)})`
          : ""}
      </Row>
    </dl>
  );
}

/** The soft close row: "A bid in the last 5 minutes moves the end 2 minutes later, …", or none. */
export function softCloseText(terms: OwnerView["terms"] | SellerView["terms"]): string {
  const softClose = describeSoftClose(terms, terms.sellerView === "rank" ? "new lowest bid" : "bid");
  return softClose ? `${capitalized(softClose)}.` : "None: bidding ends at the scheduled time.";
}

export function Terms({ view, auctionId }: { view: OwnerView | SellerView; auctionId: number }) {
  const { terms } = view;
  return (
    <section aria-labelledby="terms">
      <h2 id="terms">Terms</h2>
      <p className="preserve-lines">{terms.description}</p>
      <dl className="summary-list">
        <Row label="Service category">{terms.serviceName}</Row>
        <Row label="Service area">{terms.serviceAreaName}</Row>
        <Row label="Reserve price (the buyer's maximum)">{formatCents(terms.reserveCents)}</Row>
        {terms.kind === "sealed" ? (
          <>
            <Row label="Each bid must carry">
              <ul>
                {terms.requirements.map((requirement) => (
                  <li key={requirement.id}>{requirement.name}</li>
                ))}
              </ul>
            </Row>
            <Row label="Bids">
              Sealed: one bid per seller, replaceable until the deadline. Nobody, the buyer and staff included, can read
              a bid before the deadline; then the buyer and the evaluator see all bids side by side.
            </Row>
          </>
        ) : (
          <>
            <Row
              label={
                terms.sellerView === "rank"
                  ? "Each bid must beat the seller's own last bid by at least"
                  : "Each bid must beat the lowest by at least"
              }
            >
              {describeDecrement(terms.decrement, formatCents)}
            </Row>
            {terms.sellerView === "rank" ? (
              <Row label="What sellers see">
                Their rank only (1st, 2nd, …), never another seller's price. No secret minimums.
              </Row>
            ) : null}
            <Row label="Soft close">{softCloseText(terms)}</Row>
            <Row label="Bids">{bidCommitment(terms.practice).termsRow}</Row>
          </>
        )}
        {terms.priceWeightPercent < 100 || terms.technicalPassMark !== null ? (
          <Row label="Ranking">
            {`Price counts for ${terms.priceWeightPercent} % and the technical score for ${100 - terms.priceWeightPercent} %.`}
            {terms.technicalPassMark !== null
              ? ` Bids under a technical score of ${terms.technicalPassMark} cannot win.`
              : ""}
          </Row>
        ) : null}
      </dl>
      {terms.documents.length > 0 ? (
        <>
          <h3>Documents</h3>
          <ul>
            {terms.documents.map((document) => (
              <li key={document.id}>
                <a href={`/auctions/${auctionId}/documents/${document.id}`}>{document.fileName}</a>
                {` (${Math.max(1, Math.round(document.sizeBytes / 1024))} KB)`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
