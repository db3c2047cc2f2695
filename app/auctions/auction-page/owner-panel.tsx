import { getFormProps } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput } from "~/forms/text-input";
import type { TimeTexts } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { termsEditable } from "../auction-rules";
import type { OwnerView } from "../auction-views.server";
import { ConsoleBidsTable } from "../bidding/console-bids-table";
import { lotName } from "../lots/lot-words";
import { LotsPanel } from "../lots/lots-panel";
import { PriceChart } from "../price-chart/price-chart";
import { SealedBidsSide } from "../sealed/sealed-bid-panels";
import type { AuctionActionData } from "./auction-page.server";
import type { BoundForm } from "./page-forms";
import { Row } from "./summary-row";

/** The buyer's console (also the evaluator's and staff's, read-only): award, management, and the bids. */
export function OwnerPanel({
  view,
  answer,
  times,
  auctionId,
  cancel,
  onBehalf,
}: {
  view: OwnerView;
  answer?: AuctionActionData;
  times: TimeTexts;
  auctionId: number;
  cancel: BoundForm;
  /** Whether this user may enter bids on a seller's behalf (issue 21). */
  onBehalf: boolean;
}) {
  const isOwner = view.viewer === "owner";
  const confirmCancel = answer && "confirmCancel" in answer ? answer.confirmCancel : undefined;
  const editable = termsEditable(view.status) && view.bidCount === 0;
  const awardedBid = view.award
    ? view.sealed
      ? view.sealed.bids?.find((bid) => bid.id === view.award?.bidId)
      : view.awardedBid
    : undefined;
  return (
    <>
      {view.award && awardedBid ? (
        <Alert title="Awarded" tone="success">
          <p>
            {`Awarded to ${awardedBid.organizationName} at ${formatCents(awardedBid.amountCents)}.`}
            {view.award.reason ? ` The first-ranked bid was passed over: ${view.award.reason}` : ""}
            {view.award.buyerFeeCents !== null ? ` Buyer fee recorded: ${formatCents(view.award.buyerFeeCents)}.` : ""}
          </p>
        </Alert>
      ) : null}
      {view.sealed && view.sealed.lotAwards.length > 0 ? (
        <Alert title="Awarded lot by lot" tone="success">
          <ul>
            {view.sealed.lotAwards.map((award) => {
              const name = view.sealed?.lotNames.find((lot) => lot.id === award.lotId)?.name ?? "Lot";
              return (
                <li key={award.lotId}>
                  {`${name}: ${award.organizationName} at ${formatCents(award.amountCents)}.${award.reason ? ` The lowest bid was passed over: ${award.reason}` : ""}`}
                </li>
              );
            })}
          </ul>
        </Alert>
      ) : null}
      {view.status === "cancelled" && view.cancelReason ? (
        <Alert title="Cancelled">
          <p>{view.cancelReason}</p>
        </Alert>
      ) : null}
      {isOwner ? (
        <section aria-labelledby="manage" className="card">
          <h2 id="manage">Manage</h2>
          <ul className="link-list">
            {editable ? (
              <li>
                <Link to={`/auctions/${auctionId}/edit`}>Edit the terms</Link>
              </li>
            ) : null}
            {view.terms.kind === "reverse" || view.lots.length > 1 ? (
              <li>
                <Link to={`/auctions/${auctionId}/lots`}>Lots and line items</Link>
                {` (${view.lots.length})`}
              </li>
            ) : (
              <li>
                <Link to={`/auctions/${auctionId}/lots`}>Line items (price schedule)</Link>
                {` (${view.lots[0]?.lineCount ?? 1})`}
              </li>
            )}
            <li>
              <Link to={`/auctions/${auctionId}/sellers`}>Invited sellers</Link>
              {` (${view.invitedCount})`}
            </li>
            <li>
              <Link to={`/auctions/${auctionId}/documents`}>Documents</Link>
            </li>
            {view.status === "closed" ? (
              <li>
                <Link to={`/auctions/${auctionId}/award`}>Award the auction</Link>
              </li>
            ) : null}
          </ul>
          {view.status === "draft" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="publish" />
              <SubmitButton>Publish and e-mail the invited sellers</SubmitButton>
            </Form>
          ) : null}
          {view.status === "scheduled" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="withdraw" />
              <SubmitButton secondary>Back to draft</SubmitButton>
            </Form>
          ) : null}
          {view.status !== "awarded" && view.status !== "cancelled" ? (
            confirmCancel ? (
              <div className="stack">
                <h3>Cancel this auction?</h3>
                <p className="preserve-lines">{`Invited sellers are e-mailed this reason: "${confirmCancel.reason}". This cannot be undone.`}</p>
                <Form method="post" className="button-row">
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="reason" value={confirmCancel.reason} />
                  <input type="hidden" name="confirm" value="yes" />
                  <SubmitButton>Yes, cancel the auction</SubmitButton>
                  <Link to=".">No, go back</Link>
                </Form>
              </div>
            ) : (
              <Form method="post" {...getFormProps(cancel.form)} onSubmit={cancel.onSubmit} className="stack">
                <input type="hidden" name="intent" value="cancel" />
                <TextAreaInput
                  key={cancel.fields.reason.key}
                  id="auction-reason"
                  name={cancel.fields.reason.name}
                  label="Reason for cancelling"
                  hint="Invited sellers are e-mailed this."
                  rows={2}
                  errors={cancel.fields.reason.errors}
                  defaultValue={cancel.fields.reason.initialValue}
                />
                <SubmitButton secondary>Cancel the auction</SubmitButton>
              </Form>
            )
          ) : null}
        </section>
      ) : null}
      <p>
        <Link to={`/auctions/${auctionId}/evaluation`}>Technical evaluation</Link>
        {view.viewer === "evaluator" ? " (you evaluate this auction)" : ""}
      </p>
      {view.priceChart && !view.terms.pricedByLots ? (
        <PriceChart
          chart={view.priceChart}
          status={view.status}
          serverTime={view.serverTime}
          times={times}
          bidsLink={{ href: "#console", text: "Every bid is listed under Bids, with the bid history to download" }}
        />
      ) : null}
      {view.sealed ? (
        <SealedBidsSide
          auctionId={auctionId}
          sealed={view.sealed}
          requirements={view.terms.requirements}
          times={times}
        />
      ) : (
        <section aria-labelledby="console">
          <h2 id="console">Bids</h2>
          {view.terms.pricedByLots ? (
            <>
              <LotsPanel view={view} times={times} />
              <dl className="summary-list">
                <Row label="Bids placed">{String(view.bidCount)}</Row>
              </dl>
            </>
          ) : (
            <dl className="summary-list">
              <Row label="Lowest bid">
                {view.lowest
                  ? `${formatCents(view.lowest.amountCents)} by ${view.lowest.organizationName}`
                  : "No bids yet"}
              </Row>
              <Row label="Bids placed">{String(view.bidCount)}</Row>
            </dl>
          )}
          {onBehalf && (view.status === "open" || view.status === "scheduled") ? (
            <p>
              <Link to={`/auctions/${auctionId}/on-behalf`}>Bid on a seller's behalf</Link> (a seller who phoned)
            </p>
          ) : null}
          {view.bids.length > 0 ? (
            <>
              <p>
                <a href={`/auctions/${auctionId}/bids.csv`} download>
                  Download the bid history (CSV)
                </a>
              </p>
              <ConsoleBidsTable
                bids={view.bids}
                total={view.bidCount}
                lowestBidIds={view.lots.map((lot) => lot.lowestBidId)}
                times={times}
                lotNames={view.terms.pricedByLots ? new Map(view.lots.map((lot) => [lot.id, lotName(lot)])) : undefined}
              />
            </>
          ) : null}
        </section>
      )}
    </>
  );
}
