import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { rankedCandidates } from "~/auctions/evaluation/evaluation.server";
import { QUALIFICATION_TEXTS } from "~/auctions/evaluation/ranking";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { TextAreaField } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { BUYER_AUCTION_FEE_CENTS } from "~/payments/fees";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import { requireAuctionOwner } from "../auction-access.server";
import { statusAt } from "../auction-rules";
import { RankingTable } from "../evaluation/ranking-table";
import { LotsAwardForm } from "../lots/lots-award-form";
import { awardedByLots, loadLotsAward, submitLotsAward } from "../lots/lots-award-page.server";
import { sealedSchedules } from "../sealed/sealed-bids.server";
import { SealedSchedules } from "../sealed/sealed-schedules";
import type { Route } from "./+types/auction-award";
import { awardAuction, NOT_QUALIFIED, passOverMessage } from "./award.server";
import { type AwardFormFields, awardFormSchema, CHOOSE_A_BID, oneAwardError } from "./award-schema";

// /auctions/{id}/award: after bidding closes the buyer awards the auction: the lowest bid, or another
// bidder's best bid with the reason recorded. A confirmation comes first; it happens once.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction } = await requireAuctionOwner(request, context, params.auctionId);
  const now = new Date();
  const status = statusAt(auction, now);
  if (awardedByLots(auction)) {
    // Lots are awarded each on its own (issue 31); a sealed auction's with its schedules side by side.
    const seller = parseId(new URL(request.url).searchParams.get("seller"));
    const { db } = context.get(appServicesContext);
    const lotted = status === "closed" ? await loadLotsAward(db, auction, seller) : null;
    return {
      auctionId: auction.id,
      title: auction.title,
      status,
      hasCriteria: false,
      evaluationPending: lotted?.evaluationPending ?? false,
      bids: [],
      feeCents: BUYER_AUCTION_FEE_CENTS,
      schedules: status === "closed" && auction.kind === "sealed" ? await sealedSchedules(db, auction, now) : null,
      lotted,
    };
  }
  // Nothing of the bids before the close (a sealed auction's stay unread until its deadline).
  const { db } = context.get(appServicesContext);
  const candidates = status === "closed" ? await rankedCandidates(db, auction, now) : null;
  return {
    schedules: status === "closed" ? await sealedSchedules(db, auction, now) : null,
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
    lotted: null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  if (awardedByLots(auction)) {
    const answer = await submitLotsAward(services, auction, actor, await readFormBody(request));
    if (answer.kind === "done") return redirect(`/auctions/${auction.id}?done=awarded`);
    return data({ lots: answer }, { status: answer.kind === "refused" ? answer.status : 200 });
  }
  const submission = parseSubmission(await readFormBody(request), { schema: awardFormSchema });
  const refuse = (status: number, fieldErrors: Record<string, string[]>, formErrors: string[] = []) =>
    data({ result: submission.reply({ fieldErrors, formErrors }) }, { status });
  if (submission.status !== "success") {
    oneAwardError(submission.error);
    return data({ result: submission.reply() }, { status: 400 });
  }
  const { bid, reason, confirm } = submission.value;
  if (confirm !== "yes") {
    // The question comes first; the award itself checks everything again under the lock.
    const candidates = await rankedCandidates(services.db, auction);
    const chosen = candidates?.ranked.find((row) => row.id === bid);
    if (!candidates || !chosen) return refuse(400, { bid: [CHOOSE_A_BID] });
    if (!chosen.qualified) return refuse(400, { bid: [NOT_QUALIFIED] });
    if (chosen.id !== candidates.ranked[0]?.id && !reason) {
      // The only refusal that keeps the chosen bid ticked: the choice stands, the reason is missing.
      return data(
        {
          result: submission.reply({ fieldErrors: { reason: [passOverMessage(candidates.hasCriteria)] } }),
          chosen: bid,
        },
        { status: 400 },
      );
    }
    return { confirm: { bidId: bid, name: chosen.name, amountCents: chosen.amountCents, reason: reason ?? "" } };
  }
  const awarded = await awardAuction(services, auction.id, actor, { bidId: bid, reason });
  if (awarded.kind === "refused") {
    const field = awarded.field === "reason" || awarded.field === "bid" ? awarded.field : undefined;
    return field
      ? refuse(awarded.status, { [field]: [awarded.message] })
      : refuse(awarded.status, {}, [awarded.message]);
  }
  return redirect(`/auctions/${auction.id}?done=awarded`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Award: ${loaderData.title}` : "Award") }];
}

export default function AwardAuction({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, status, bids, feeCents, hasCriteria, evaluationPending } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  const [form, fields] = useForm<AwardFormFields, z.output<typeof awardFormSchema>>({
    id: "award",
    lastResult,
    // The server's answer to the same form, without a round trip.
    ...validatedBy(awardFormSchema, { constraint: false, adjustErrors: oneAwardError }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, actionData);
  const awardable = bids.filter((bid) => bid.qualified);
  const chosen = actionData && "chosen" in actionData ? actionData.chosen : awardable[0]?.bidId;
  const firstBidId = awardable[0] ? `award-bid-${awardable[0].bidId}` : "award-bid";
  const bidInvalid = Boolean(fields.bid.errors?.length);
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Award: ${title}`}</h1>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={[
          ...(fields.bid.errors ?? []).map((message) => ({ fieldId: firstBidId, message })),
          ...(fields.reason.errors ?? []).map((message) => ({ fieldId: fields.reason.id, message })),
        ]}
        submissionKey={submissionKey}
      />
      {loaderData.schedules ? <SealedSchedules schedules={loaderData.schedules} /> : null}
      {loaderData.lotted && status === "closed" && evaluationPending ? (
        <p>
          {
            "The technical evaluation is not complete yet: the evaluator is told to finish it, and you are e-mailed when it is. "
          }
          <Link to={`/auctions/${auctionId}/evaluation`}>See the evaluation</Link>
        </p>
      ) : loaderData.lotted && status === "closed" ? (
        <LotsAwardForm
          data={loaderData.lotted}
          answer={actionData && "lots" in actionData ? actionData.lots : undefined}
          feeCents={feeCents}
        />
      ) : status !== "closed" ? (
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
        <Form method="post" {...formProps} className="stack">
          {hasCriteria ? (
            <RankingTable
              label="The ranking"
              caption="The ranking"
              captionShown
              rows={bids.map((bid) => ({ ...bid, id: bid.bidId }))}
            />
          ) : null}
          <fieldset className={bidInvalid ? "fieldset field--error" : "fieldset"}>
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
          <TextAreaField
            field={fields.reason}
            label={
              hasCriteria ? "Reason for passing over the best-ranked bid" : "Reason for passing over the lowest bid"
            }
            hint={`Required only when you award another bid than the ${hasCriteria ? "best-ranked" : "lowest"}. Recorded with the award.`}
          />
          <SubmitButton>Award</SubmitButton>
        </Form>
      )}
    </div>
  );
}
