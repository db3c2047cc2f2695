import { useForm } from "@conform-to/react";
import { asc, eq } from "drizzle-orm";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { prequalification } from "~/auctions/evaluation/assessments.server";
import { QUALIFICATION_TEXTS } from "~/auctions/evaluation/ranking";
import { Alert } from "~/forms/alert";
import { useAnswerOnThisPage } from "~/forms/answer-on-this-page";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { parseSubmission } from "~/forms/parse-submission.server";
import { RowActionForm } from "~/forms/row-action-form";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { auctionInvitations, organizations } from "~db/schema";
import { requireAuctionOwner } from "../auction-access.server";
import { statusAt, termsEditable } from "../auction-rules";
import type { Route } from "./+types/auction-sellers";
import { eligibleSellers, latestEndDate } from "./eligibility.server";
import { inviteSellersSchema, removeInvitationSchema } from "./invitation-schema";
import { inviteSellers, removeInvitation } from "./invitations.server";

// /auctions/{id}/sellers: the buyer chooses which pre-qualified sellers are invited: approved
// sellers offering the category in the area, with insurance and WCB valid through the latest end.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction } = await requireAuctionOwner(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const [eligible, invited, prequalified] = await Promise.all([
    eligibleSellers(db, auction),
    db
      .select({
        organizationId: auctionInvitations.organizationId,
        name: organizations.name,
        alias: auctionInvitations.alias,
        termsAcceptedAt: auctionInvitations.termsAcceptedAt,
      })
      .from(auctionInvitations)
      .innerJoin(organizations, eq(organizations.id, auctionInvitations.organizationId))
      .where(eq(auctionInvitations.auctionId, auction.id))
      .orderBy(asc(auctionInvitations.alias)),
    prequalification(db, auction),
  ]);
  // With technical criteria, each candidate's pre-qualification result is shown with its name.
  const technicalResult = (organizationId: number) => {
    if (!prequalified.gated) return null;
    const verdict = prequalified.verdict(organizationId);
    return verdict.qualified ? `technically qualified (${verdict.technical})` : QUALIFICATION_TEXTS[verdict.reason];
  };
  const invitedIds = new Set(invited.map((row) => row.organizationId));
  return {
    auctionId: auction.id,
    title: auction.title,
    status: auction.status,
    editable: termsEditable(statusAt(auction, new Date())),
    through: latestEndDate(auction),
    created: new URL(request.url).searchParams.get("done") === "created",
    candidates: eligible
      .filter((seller) => !invitedIds.has(seller.organizationId))
      .map((seller) => ({ ...seller, technical: technicalResult(seller.organizationId) })),
    gated: prequalified.gated,
    invited: invited.map((row) => ({ ...row, termsAcceptedAt: row.termsAcceptedAt?.toISOString() ?? null })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const form = await readFormBody(request);
  if (form.get("intent") === "remove") {
    const submission = parseSubmission(form, { schema: removeInvitationSchema });
    const organizationId = submission.status === "success" ? submission.value.organizationId : 0;
    const removed = await removeInvitation(services.db, auction.id, actor, organizationId);
    if (removed.kind === "refused") {
      return data({ removal: submission.reply({ formErrors: [removed.message] }) }, { status: removed.status });
    }
    return redirect(`/auctions/${auction.id}/sellers`);
  }
  const submission = parseSubmission(form, { schema: inviteSellersSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const invited = await inviteSellers(services, auction.id, actor, submission.value.sellers);
  if (invited.kind === "refused") {
    const reply =
      invited.field === "sellers"
        ? submission.reply({ fieldErrors: { sellers: [invited.message] } })
        : submission.reply({ formErrors: [invited.message] });
    return data({ result: reply }, { status: invited.status });
  }
  return redirect(`/auctions/${auction.id}/sellers?done=invited`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Sellers: ${loaderData.title}` : "Sellers") }];
}

export default function AuctionSellers({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, editable, candidates, invited, through, created, status } = loaderData;
  // The invitation form's answer; another answer or a new page (the redirect after a success) clears its errors.
  const lastResult = useAnswerOnThisPage(actionData && "result" in actionData ? actionData.result : undefined);
  const [form, fields] = useForm<{ sellers: string[] }, z.output<typeof inviteSellersSchema>>({
    id: "invite",
    lastResult,
    ...validatedBy(inviteSellersSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, actionData);
  const removalErrors = actionData && "removal" in actionData ? (actionData.removal.error?.[""] ?? []) : [];
  const sellersError = fields.sellers.errors?.join(" ");
  const firstCandidateId = candidates[0] ? `seller-${candidates[0].organizationId}` : "sellers";
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Sellers: ${title}`}</h1>
      {created ? (
        <Alert title="Draft saved" tone="success" focus>
          <p>Now choose the sellers to invite. Then publish the auction from its page.</p>
        </Alert>
      ) : null}
      <ErrorSummary
        formErrors={[...removalErrors, ...(form.errors ?? [])]}
        fieldErrors={(fields.sellers.errors ?? []).map((message) => ({ fieldId: firstCandidateId, message }))}
        submissionKey={submissionKey}
      />
      <section aria-labelledby="invited">
        <h2 id="invited">Invited</h2>
        {invited.length === 0 ? (
          <p>Nobody yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Seller</th>
                <th scope="col">Known to other sellers as</th>
                <th scope="col">Terms</th>
                {status === "draft" ? <th scope="col">Action</th> : null}
              </tr>
            </thead>
            <tbody>
              {invited.map((seller) => (
                <tr key={seller.organizationId}>
                  <th scope="row">{seller.name}</th>
                  <td>{seller.alias}</td>
                  <td>{seller.termsAcceptedAt ? "Accepted" : "Not yet accepted"}</td>
                  {status === "draft" ? (
                    <td>
                      <RowActionForm intent="remove" name="organizationId" value={seller.organizationId}>
                        {`Remove ${seller.name}`}
                      </RowActionForm>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {editable ? (
        <section aria-labelledby="eligible">
          <h2 id="eligible">Eligible sellers</h2>
          {loaderData.gated ? (
            <p>
              {"This auction has technical criteria: only sellers qualified on the "}
              <Link to={`/auctions/${auctionId}/evaluation`}>evaluation page</Link>
              {" can be invited."}
            </p>
          ) : null}
          <p>
            {`Approved sellers that offer this category (or a service under it) in this area, with their insurance and WCB valid through ${through}, the latest the auction can end.`}
          </p>
          {candidates.length === 0 ? (
            <p>No other seller qualifies.</p>
          ) : (
            <Form method="post" {...formProps} className="stack">
              <fieldset
                className={sellersError ? "fieldset field--error" : "fieldset"}
                aria-describedby={sellersError ? "sellers-error" : undefined}
              >
                <legend className="fieldset__legend">Choose the sellers to invite</legend>
                {sellersError ? (
                  <p className="field__error" id="sellers-error">
                    <span className="visually-hidden">Error:</span> {sellersError}
                  </p>
                ) : null}
                {candidates.map((seller) => (
                  <div className="checkbox" key={seller.organizationId}>
                    <input
                      className="checkbox__input"
                      type="checkbox"
                      id={`seller-${seller.organizationId}`}
                      name={fields.sellers.name}
                      value={seller.organizationId}
                    />
                    <label className="checkbox__label" htmlFor={`seller-${seller.organizationId}`}>
                      {`${seller.name}, ${seller.city}${seller.technical ? `: ${seller.technical}` : ""}`}
                    </label>
                  </div>
                ))}
              </fieldset>
              <SubmitButton>Invite the chosen sellers</SubmitButton>
            </Form>
          )}
        </section>
      ) : (
        <p>Bidding has started: no more sellers can be invited.</p>
      )}
    </div>
  );
}
