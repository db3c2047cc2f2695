import { getFormProps } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { SubmitButton } from "~/forms/submit-button";
import { TextInput } from "~/forms/text-input";
import type { TimeTexts } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { pluralOf } from "~/shared/words";
import type { SellerView } from "../auction-views.server";
import { bidCommitment } from "../bidding/bid-commitment";
import { NO_MINIMUMS_IN_RANKS_ONLY } from "../bidding/bid-messages";
import { OwnBidsTable } from "../bidding/own-bids-table";
import { rankWords } from "../lots/lot-schedule";
import { lotName } from "../lots/lot-words";
import { LotsPanel } from "../lots/lots-panel";
import { PriceChart } from "../price-chart/price-chart";
import type { AuctionActionData } from "./auction-page.server";
import type { BoundForm } from "./page-forms";
import { SealedSellerPanel } from "./sealed-seller-panel";
import { Row } from "./summary-row";

/** An invited seller's side of the page: the outcome, the terms to accept, or where they stand and the bid forms. */
export function SellerPanel({
  view,
  answer,
  times,
  bid,
  minimum,
  practice,
}: {
  view: SellerView;
  answer?: AuctionActionData;
  times: TimeTexts;
  bid: BoundForm;
  minimum: BoundForm;
  /** A practice auction (issue 21): no buyer reviews it; its end offers another. */
  practice: boolean;
}) {
  const confirmBid = answer && "confirmBid" in answer ? answer.confirmBid : undefined;
  const biddingOpen = view.status === "open";
  // Ranks only (issue 31): the seller's place, no lowest price, no minimum.
  const ranksOnly = view.rank !== undefined;
  if (view.outcome?.awarded && view.terms.pricedByLots) {
    return (
      <>
        <Alert
          title={view.outcome.won ? "You won lots of this auction" : "Not awarded to you"}
          tone={view.outcome.won ? "success" : "error"}
        >
          <p>
            {view.outcome.won
              ? "The lots awarded to you are marked below. The buyer will contact you about the work."
              : "The lots were awarded to other sellers."}
          </p>
        </Alert>
        <LotsPanel view={view} times={times} />
      </>
    );
  }
  if (view.outcome?.awarded && view.terms.kind === "sealed" && view.lots.length > 1) {
    // A sealed auction awarded lot by lot (issue 31): which lots went to this seller.
    const won = view.lots.filter((lot) => lot.won);
    return (
      <Alert
        title={view.outcome.won ? "You won lots of this auction" : "Not awarded to you"}
        tone={view.outcome.won ? "success" : "error"}
      >
        {view.outcome.won ? (
          <>
            <p>{`The buyer awarded you ${pluralOf(won.length, "this lot", "these lots")}:`}</p>
            <ul>
              {won.map((lot) => (
                <li key={lot.id}>{lotName(lot)}</li>
              ))}
            </ul>
            <p>The buyer will contact you about the work.</p>
          </>
        ) : (
          <p>The lots were awarded to other sellers.</p>
        )}
      </Alert>
    );
  }
  if (view.outcome?.awarded) {
    return (
      <Alert
        title={view.outcome.won ? "You won this auction" : "Not awarded to you"}
        tone={view.outcome.won ? "success" : "error"}
      >
        <p>
          {view.outcome.won
            ? "The buyer will contact you about the work."
            : "The auction was awarded to another seller."}
        </p>
      </Alert>
    );
  }
  if (view.status === "cancelled") {
    return (
      <Alert title="Cancelled">
        <p>The buyer has cancelled this auction. No bid is binding any more.</p>
      </Alert>
    );
  }
  if (!view.termsAccepted) {
    return (
      <section aria-labelledby="accept" className="card">
        <h2 id="accept">Accept the terms to bid</h2>
        <p>
          {view.terms.kind === "sealed"
            ? "By accepting you agree that the bid you send is binding once the deadline passes, that the best-ranked qualified bid is expected to win, and that the buyer may pass over it with a recorded reason."
            : bidCommitment(practice).acceptReverse}
        </p>
        {view.status === "scheduled" || view.status === "open" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="accept-terms" />
            <SubmitButton>I accept these terms</SubmitButton>
          </Form>
        ) : null}
      </section>
    );
  }
  if (view.terms.kind === "sealed") return <SealedSellerPanel view={view} times={times} lastResult={bid.lastResult} />;
  if (view.terms.pricedByLots) {
    // Lots of line items (issue 31): each lot is bid on from its own page.
    return (
      <>
        {view.status === "closed" && practice ? <PracticeEnded kind="lots" /> : null}
        <LotsPanel view={view} times={times} />
        <OwnBids view={view} times={times} />
      </>
    );
  }
  return (
    <>
      <section aria-labelledby="standing" className="card">
        <h2 id="standing">Where you stand</h2>
        <dl className="summary-list">
          {ranksOnly ? null : (
            <Row label="Current lowest price">
              {view.lowestCents === null ? "No bids yet" : formatCents(view.lowestCents)}
            </Row>
          )}
          <Row label="You">
            <strong>
              {ranksOnly
                ? view.rank
                  ? rankWords(view.rank)
                  : "You have not bid"
                : view.leading
                  ? "You have the lowest bid"
                  : view.ownBids.length > 0
                    ? "You do not have the lowest bid"
                    : "You have not bid"}
            </strong>
          </Row>
          {ranksOnly ? null : (
            <Row label="Your secret minimum">
              {view.ownMinimumCents === null ? "Not set" : formatCents(view.ownMinimumCents)}
            </Row>
          )}
        </dl>
        {ranksOnly ? (
          <p className="field__hint">
            This auction shows each seller their rank only, never another seller's price. Each bid must beat your own
            last bid by the minimum decrement.
          </p>
        ) : null}
      </section>
      {view.priceChart ? (
        <PriceChart
          chart={view.priceChart}
          status={view.status}
          serverTime={view.serverTime}
          times={times}
          bidsLink={{ href: "#own-bids", text: "Your bids are listed under Your bids" }}
        />
      ) : null}
      {view.status === "closed" && practice ? (
        <PracticeEnded kind="one-price" />
      ) : view.status === "closed" ? (
        <p>
          <strong>Bidding has closed.</strong> The buyer is reviewing the bids; you will be e-mailed the result.
        </p>
      ) : null}
      {biddingOpen && confirmBid ? (
        <section aria-labelledby="confirm-bid" className="card">
          <h2 id="confirm-bid">{`Place a bid of ${formatCents(confirmBid.amountCents)}?`}</h2>
          <p>
            {`That is ${confirmBid.dropPercent} % under ${referenceName(view)} of ${formatCents(confirmBid.referenceCents)}. ${bidCommitment(practice).rule}`}
          </p>
          <Form method="post" className="button-row">
            <input type="hidden" name="intent" value="bid" />
            <input type="hidden" name="amount" value={confirmBid.amount} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, place this bid</SubmitButton>
            <Link to=".">No, change it</Link>
          </Form>
        </section>
      ) : null}
      {biddingOpen && !confirmBid ? (
        <section aria-labelledby="bid" className="card">
          <h2 id="bid">Bid</h2>
          {view.leading && !ranksOnly ? (
            <p>You have the lowest bid. You can still lower your secret minimum below.</p>
          ) : (
            <Form method="post" {...getFormProps(bid.form)} onSubmit={bid.onSubmit} className="stack">
              <input type="hidden" name="intent" value="bid" />
              <TextInput
                key={bid.fields.amount.key}
                id="auction-amount"
                name={bid.fields.amount.name}
                label="Your bid (CAD)"
                hint={`Allowed: up to ${formatCents(view.highestAllowedCents)}. Dollars and cents, e.g. ${(view.highestAllowedCents / 100).toFixed(2)}.`}
                errors={bid.fields.amount.errors}
                inputProps={{
                  inputMode: "decimal",
                  autoComplete: "off",
                  defaultValue: bid.fields.amount.initialValue,
                }}
              />
              <SubmitButton>{bidCommitment(practice).placeButton}</SubmitButton>
            </Form>
          )}
          {ranksOnly ? (
            <p>{NO_MINIMUMS_IN_RANKS_ONLY}</p>
          ) : (
            <Form method="post" {...getFormProps(minimum.form)} onSubmit={minimum.onSubmit} className="stack">
              <input type="hidden" name="intent" value="auto-bid" />
              <TextInput
                key={minimum.fields.minimum.key}
                id="auction-minimum"
                name={minimum.fields.minimum.name}
                label="Auto-bid: your secret minimum (CAD)"
                hint="We bid for you one decrement under the lowest bid, never below this amount. Nobody else sees it. If another seller enters the same minimum later, yours wins."
                errors={minimum.fields.minimum.errors}
                inputProps={{
                  inputMode: "decimal",
                  autoComplete: "off",
                  defaultValue: minimum.fields.minimum.initialValue,
                }}
              />
              <SubmitButton secondary>Save my minimum</SubmitButton>
            </Form>
          )}
        </section>
      ) : null}
      <OwnBids view={view} times={times} />
    </>
  );
}

/** A practice auction's end (issue 21): no buyer reviews it; another of the same kind starts from here. */
function PracticeEnded({ kind }: { kind: "one-price" | "lots" }) {
  return (
    <section aria-labelledby="practice-ended" className="card">
      <h2 id="practice-ended">This practice auction has ended</h2>
      <p>Nothing here was real: no buyer reviews these bids. Start another to try again.</p>
      <Form method="post" action="/auctions/practice">
        <input type="hidden" name="kind" value={kind} />
        <SubmitButton>Start another practice auction</SubmitButton>
      </Form>
    </section>
  );
}

/** What a bid far under the price is measured against: what the seller knows. */
function referenceName(view: SellerView): string {
  if (view.rank !== undefined) return view.ownBids.length > 0 ? "your own lowest bid" : "the reserve price";
  return view.lowestCents === null ? "the reserve price" : "the current lowest price";
}

/** The seller's own latest bids, with the way to all of them. */
function OwnBids({ view, times }: { view: SellerView; times: TimeTexts }) {
  return (
    <section aria-labelledby="own-bids">
      <h2 id="own-bids">Your bids</h2>
      {view.ownBids.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <>
          {view.ownBidCount > view.ownBids.length ? (
            <p>
              {`Your latest ${view.ownBids.length} of ${view.ownBidCount} bids. `}
              <Link to={`/auctions/${view.terms.id}/own-bids`}>See all your bids</Link>
            </p>
          ) : null}
          <OwnBidsTable bids={view.ownBids} times={times} lots={view.terms.pricedByLots ? view.lots : undefined} />
        </>
      )}
    </section>
  );
}
