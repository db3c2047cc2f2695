import type { SubmissionResult } from "@conform-to/react";
import type { TimeTexts } from "~/platform/zoned-time";
import type { SellerView } from "../auction-views.server";
import { OwnSealedBid, SealedBidForm, useSealedBidForm } from "../sealed/sealed-bid-panels";

/** A sealed auction for an invited seller who accepted the terms: their bid, and the form while bids are taken. */
export function SealedSellerPanel({
  view,
  times,
  lastResult,
}: {
  view: SellerView;
  times: TimeTexts;
  /** A reverse bid's refusal (a sealed auction takes none) shows at the sealed form's amount, as it always has. */
  lastResult: SubmissionResult<string[]>;
}) {
  // The form posts to the sealed-bid page, which answers any refusal.
  const [form, fields] = useSealedBidForm({ lastResult, checkInBrowser: false });
  const own = view.ownSealedBid;
  return (
    <>
      {own ? (
        <OwnSealedBid auctionId={view.terms.id} bid={own} requirements={view.terms.requirements} times={times} />
      ) : view.status === "open" ? null : (
        <p>{view.status === "scheduled" ? "Bids are accepted once bidding starts." : "You did not send a bid."}</p>
      )}
      {view.status === "open" ? (
        <SealedBidForm
          auctionId={view.terms.id}
          requirements={view.terms.requirements}
          reserveCents={view.terms.reserveCents}
          replacing={Boolean(own)}
          form={form}
          fields={fields}
        />
      ) : null}
      {view.status === "closed" ? (
        <p>
          <strong>The deadline has passed.</strong> The buyer is reviewing the bids; you will be e-mailed the result.
        </p>
      ) : null}
    </>
  );
}
