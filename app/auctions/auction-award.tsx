import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { BUYER_AUCTION_FEE_CENTS, formatCents } from "~/payments/fees";
import { appServicesContext } from "~/platform/app-context";
import type { Route } from "./+types/auction-award";
import { requireAuctionOwner } from "./auction-access.server";
import { statusAt } from "./auction-rules";
import { awardAuction, bestBidPerSeller, PASS_OVER_REASON_REQUIRED } from "./auctions.server";

// /auctions/{id}/award: after bidding closes the buyer awards the auction: the lowest bid, or another
// bidder's best bid with the reason recorded. A confirmation comes first; it happens once.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction } = await requireAuctionOwner(request, context, params.auctionId);
  const bids = await bestBidPerSeller(context.get(appServicesContext).db, auction.id);
  return {
    auctionId: auction.id,
    title: auction.title,
    status: statusAt(auction, new Date()),
    bids: bids.map((bid) => ({ bidId: bid.bidId, name: bid.name, amountCents: bid.amountCents })),
    feeCents: BUYER_AUCTION_FEE_CENTS,
  };
}

const awardForm = z.object({
  bid: z.coerce.number().int().positive(),
  reason: z.string().trim().max(2000).optional(),
  confirm: z.literal("yes").optional(),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const submitted = Object.fromEntries(await request.formData());
  const parsed = awardForm.safeParse(submitted);
  const typedReason = typeof submitted.reason === "string" ? submitted.reason : "";
  if (!parsed.success)
    return data({ field: "bid" as const, error: "Please choose one of the bids", typedReason }, { status: 400 });
  const { bid, reason, confirm } = parsed.data;
  const best = await bestBidPerSeller(services.db, auction.id);
  const chosen = best.find((row) => row.bidId === bid);
  if (!chosen)
    return data({ field: "bid" as const, error: "Please choose one of the bids", typedReason }, { status: 400 });
  if (chosen.bidId !== best[0]?.bidId && !reason) {
    return data(
      { field: "reason" as const, error: PASS_OVER_REASON_REQUIRED, typedReason, chosen: bid },
      { status: 400 },
    );
  }
  if (confirm !== "yes") {
    return { confirm: { bidId: bid, name: chosen.name, amountCents: chosen.amountCents, reason: reason ?? "" } };
  }
  const awarded = await awardAuction(services, auction.id, actor, { bidId: bid, reason });
  if (awarded.kind === "refused")
    return data({ field: undefined, error: awarded.message, typedReason }, { status: awarded.status });
  return redirect(`/auctions/${auction.id}?awarded=1`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Award: ${loaderData.title}` : "Award") }];
}

export default function AwardAuction({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, status, bids, feeCents } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const error = actionData && "error" in actionData ? actionData : undefined;
  const chosen = error && "chosen" in error ? error.chosen : bids[0]?.bidId;
  const firstBidId = bids[0] ? `award-bid-${bids[0].bidId}` : "award-bid";
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Award: ${title}`}</h1>
      <ErrorSummary
        formErrors={error && !error.field ? [error.error] : []}
        fieldErrors={
          error?.field
            ? [{ fieldId: error.field === "reason" ? "award-reason" : firstBidId, message: error.error }]
            : []
        }
        submissionKey={actionData}
      />
      {status !== "closed" ? (
        <p>{status === "awarded" ? "This auction has been awarded." : "An auction is awarded after bidding closes."}</p>
      ) : bids.length === 0 ? (
        <p>Nobody bid, so there is nothing to award. You can cancel the auction from its page.</p>
      ) : confirm ? (
        <section aria-labelledby="confirm-award" className="card">
          <h2 id="confirm-award">{`Award the auction to ${confirm.name} at ${formatCents(confirm.amountCents)}?`}</h2>
          <p>
            {`The winner and the other bidders are e-mailed, and the buyer fee of ${formatCents(feeCents)} is recorded. This cannot be undone.`}
          </p>
          <Form method="post" className="button-row">
            <input type="hidden" name="bid" value={confirm.bidId} />
            <input type="hidden" name="reason" value={confirm.reason} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, award</SubmitButton>
            <Link to=".">No, go back</Link>
          </Form>
        </section>
      ) : (
        <Form method="post" className="stack">
          <fieldset className={error?.field === "bid" ? "fieldset field--error" : "fieldset"}>
            <legend className="fieldset__legend">Each bidder's best bid, lowest first</legend>
            {bids.map((bid, index) => (
              <div className="checkbox" key={bid.bidId}>
                <input
                  className="checkbox__input"
                  type="radio"
                  name="bid"
                  id={`award-bid-${bid.bidId}`}
                  value={bid.bidId}
                  defaultChecked={bid.bidId === chosen}
                />
                <label className="checkbox__label" htmlFor={`award-bid-${bid.bidId}`}>
                  {`${bid.name}: ${formatCents(bid.amountCents)}${index === 0 ? " (lowest)" : ""}`}
                </label>
              </div>
            ))}
          </fieldset>
          <TextAreaInput
            id="award-reason"
            name="reason"
            label="Reason for passing over the lowest bid"
            hint="Required only when you award another bid than the lowest. Recorded with the award."
            errors={error?.field === "reason" ? [error.error] : undefined}
            defaultValue={error?.typedReason}
          />
          <SubmitButton>Award</SubmitButton>
        </Form>
      )}
    </div>
  );
}
