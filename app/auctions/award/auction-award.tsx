import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { rankedCandidates } from "~/evaluation/evaluation.server";
import { QUALIFICATION_TEXTS } from "~/evaluation/ranking";
import { ErrorSummary } from "~/forms/error-summary";
import { idField } from "~/forms/id-schema";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput } from "~/forms/text-input";
import { textField } from "~/forms/text-schema";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { BUYER_AUCTION_FEE_CENTS, formatCents } from "~/payments/fees";
import { appServicesContext } from "~/platform/app-context";
import { readFormBody } from "~/platform/request-body.server";
import { requireAuctionOwner } from "../auction-access.server";
import { statusAt } from "../auction-rules";
import type { Route } from "./+types/auction-award";
import { awardAuction, NOT_QUALIFIED, passOverMessage } from "./award.server";

// /auctions/{id}/award: after bidding closes the buyer awards the auction: the lowest bid, or another
// bidder's best bid with the reason recorded. A confirmation comes first; it happens once.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction } = await requireAuctionOwner(request, context, params.auctionId);
  const now = new Date();
  const status = statusAt(auction, now);
  // Nothing of the bids before the close (a sealed auction's stay unread until its deadline).
  const candidates =
    status === "closed" ? await rankedCandidates(context.get(appServicesContext).db, auction, now) : null;
  return {
    auctionId: auction.id,
    title: auction.title,
    status,
    hasCriteria: candidates?.hasCriteria ?? false,
    evaluationPending: Boolean(candidates?.hasCriteria && auction.kind === "sealed" && !auction.evaluationCompletedAt),
    bids: (candidates?.ranked ?? []).map((bid) => ({
      bidId: bid.id,
      name: bid.name,
      amountCents: bid.amountCents,
      technical: bid.technical,
      combined: bid.combined,
      qualified: bid.qualified,
      reason: bid.reason ? QUALIFICATION_TEXTS[bid.reason] : null,
      rank: bid.rank,
    })),
    feeCents: BUYER_AUCTION_FEE_CENTS,
  };
}

const awardForm = z.object({
  bid: idField("Please choose one of the bids"),
  reason: textField({ multiline: true }).max(2000).optional(),
  confirm: z.literal("yes").optional(),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const submitted = Object.fromEntries(await readFormBody(request));
  const parsed = awardForm.safeParse(submitted);
  const typedReason = typeof submitted.reason === "string" ? submitted.reason : "";
  const chooseOne = () =>
    data({ field: "bid" as const, error: "Please choose one of the bids", typedReason }, { status: 400 });
  if (!parsed.success) {
    const reasonIssue = parsed.error.issues.find((issue) => issue.path[0] === "reason");
    if (reasonIssue)
      return data({ field: "reason" as const, error: reasonIssue.message, typedReason }, { status: 400 });
    return chooseOne();
  }
  const { bid, reason, confirm } = parsed.data;
  if (confirm !== "yes") {
    // The question comes first; the award itself checks everything again under the lock.
    const candidates = await rankedCandidates(services.db, auction);
    const chosen = candidates?.ranked.find((row) => row.id === bid);
    if (!candidates || !chosen) return chooseOne();
    if (!chosen.qualified) return data({ field: "bid" as const, error: NOT_QUALIFIED, typedReason }, { status: 400 });
    if (chosen.id !== candidates.ranked[0]?.id && !reason) {
      return data(
        { field: "reason" as const, error: passOverMessage(candidates.hasCriteria), typedReason, chosen: bid },
        { status: 400 },
      );
    }
    return { confirm: { bidId: bid, name: chosen.name, amountCents: chosen.amountCents, reason: reason ?? "" } };
  }
  const awarded = await awardAuction(services, auction.id, actor, { bidId: bid, reason });
  if (awarded.kind === "refused") {
    const field = awarded.field === "reason" || awarded.field === "bid" ? awarded.field : undefined;
    return data({ field, error: awarded.message, typedReason }, { status: awarded.status });
  }
  return redirect(`/auctions/${auction.id}?awarded=1`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Award: ${loaderData.title}` : "Award") }];
}

export default function AwardAuction({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, status, bids, feeCents, hasCriteria, evaluationPending } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const error = actionData && "error" in actionData ? actionData : undefined;
  const awardable = bids.filter((bid) => bid.qualified);
  const chosen = error && "chosen" in error ? error.chosen : awardable[0]?.bidId;
  const firstBidId = awardable[0] ? `award-bid-${awardable[0].bidId}` : "award-bid";
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
      ) : evaluationPending ? (
        <p>
          {
            "The technical evaluation is not complete yet: the evaluator is told to finish it, and you are e-mailed when it is. "
          }
          <Link to={`/auctions/${auctionId}/evaluation`}>See the evaluation</Link>
        </p>
      ) : awardable.length === 0 ? (
        <p>
          No bid passed the technical evaluation, so there is nothing to award. You can cancel the auction from its
          page.
        </p>
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
          {hasCriteria ? <RankingTable bids={bids} /> : null}
          <fieldset className={error?.field === "bid" ? "fieldset field--error" : "fieldset"}>
            <legend className="fieldset__legend">
              {hasCriteria ? "The qualified bids, best-ranked first" : "Each bidder's best bid, lowest first"}
            </legend>
            {awardable.map((bid, index) => (
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
                  {`${bid.name}: ${formatCents(bid.amountCents)}${index === 0 ? (hasCriteria ? " (best-ranked)" : " (lowest)") : ""}`}
                </label>
              </div>
            ))}
          </fieldset>
          <TextAreaInput
            id="award-reason"
            name="reason"
            label={
              hasCriteria ? "Reason for passing over the best-ranked bid" : "Reason for passing over the lowest bid"
            }
            hint={`Required only when you award another bid than the ${hasCriteria ? "best-ranked" : "lowest"}. Recorded with the award.`}
            errors={error?.field === "reason" ? [error.error] : undefined}
            defaultValue={error?.typedReason}
          />
          <SubmitButton>Award</SubmitButton>
        </Form>
      )}
    </div>
  );
}

type AwardBid = Route.ComponentProps["loaderData"]["bids"][number];

/** Every bid with its price, technical and combined scores, and why a bid did not qualify. */
function RankingTable({ bids }: { bids: AwardBid[] }) {
  return (
    <TableRegion label="The ranking">
      <table className="table">
        <caption>The ranking</caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Seller</th>
            <th scope="col">Price</th>
            <th scope="col">Technical score</th>
            <th scope="col">Combined score</th>
          </tr>
        </thead>
        <tbody>
          {bids.map((bid) => (
            <tr key={bid.bidId}>
              <td>{bid.rank === null ? `Not ranked: ${bid.reason ?? ""}` : String(bid.rank)}</td>
              <th scope="row">{bid.name}</th>
              <td>{formatCents(bid.amountCents)}</td>
              <td>{bid.technical === null ? "Not scored" : String(bid.technical)}</td>
              <td>{bid.combined === null ? "None" : String(bid.combined)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
