import type { SubmissionResult } from "@conform-to/react";
import { Link } from "react-router";
import type { TimeTexts } from "~/platform/zoned-time";
import { counted } from "~/shared/words";
import type { SellerView } from "../auction-views.server";
import { lotName } from "../lots/lot-words";
import { OwnSealedBid, SealedBidForm, sealedBidPath, useSealedBidForm } from "../sealed/sealed-bid-panels";

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
  // A lot priced by lines, or several lots (issue 31): the bid is entered on the sealed-bid page.
  const several = view.lots.length > 1;
  const byLines = several || view.lots[0]?.oneAmount === false;
  const lotNames = several ? view.lots.map((lot) => ({ id: lot.id, name: lotName(lot) })) : undefined;
  return (
    <>
      {own ? (
        <OwnSealedBid
          auctionId={view.terms.id}
          bid={own}
          requirements={view.terms.requirements}
          times={times}
          lotNames={lotNames}
        />
      ) : view.status === "open" ? null : (
        <p>{view.status === "scheduled" ? "Bids are accepted once bidding starts." : "You did not send a bid."}</p>
      )}
      {view.status === "open" && byLines ? (
        <section aria-labelledby="sealed-bid-form" className="card">
          <h2 id="sealed-bid-form">{own ? "Replace your sealed bid" : "Send your sealed bid"}</h2>
          <p>
            {several
              ? `This auction has ${counted(view.lots.length, "lot", "lots")}: bid on any of them, at least one, with the documents listed. `
              : "This auction takes a price schedule: a unit price for every line, with the documents listed. "}
            <Link to={sealedBidPath(view.terms.id)}>
              {several
                ? own
                  ? "Replace your sealed bid on the lots"
                  : "Bid on the lots and send your sealed bid"
                : own
                  ? "Replace your sealed bid and price schedule"
                  : "Enter your price schedule and send your sealed bid"}
            </Link>
          </p>
        </section>
      ) : view.status === "open" ? (
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
