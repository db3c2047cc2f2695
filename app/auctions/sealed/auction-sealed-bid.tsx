import type { SubmissionResult } from "@conform-to/react";
import { data, Link, redirect } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { readsOnly, requireAuction } from "../auction-access.server";
import { statusAt } from "../auction-rules";
import { MAX_SEALED_BID_BODY_BYTES, SEALED_BID_TOO_BIG } from "../documents/document-types";
import { discardBody, readLimitedForm } from "../documents/upload-body.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { bidRequirements } from "../lifecycle/auction-terms.server";
import type { Route } from "./+types/auction-sealed-bid";
import { requirementField, SEALED_MESSAGES } from "./sealed-bid-messages";
import { OwnSealedBid, requirementFieldId, SealedBidForm, sealedFieldId, useSealedBidForm } from "./sealed-bid-panels";
import { capTypedAmount, sealedBidSchema } from "./sealed-bid-schema";
import { ownSealedBids, type SealedBidFile, submitSealedBid } from "./sealed-bids.server";

// /auctions/{id}/sealed-bid: an invited seller sends or replaces their sealed bid (a multipart form:
// the amount and one file per required document). The auction page shows the same form; this page
// answers its refusals with the message at the field and the amount kept.

type Context = Route.LoaderArgs["context"];

/** Only an invited seller of a sealed auction reaches this page; others get the auction's 404 (or 403). */
async function requireSealedBidder(request: Request, context: Context, rawId: string | undefined) {
  const found = await requireAuction(request, context, rawId);
  if (found.auction.kind !== "sealed" || found.viewer.kind !== "seller") {
    await discardBody(request);
    throw data(null, { status: readsOnly(found.viewer) || found.viewer.kind === "owner" ? 403 : 404 });
  }
  return { ...found, organizationId: found.viewer.organizationId };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, organizationId, user } = await requireSealedBidder(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const [requirements, own] = await Promise.all([
    bidRequirements(db, auction.id),
    ownSealedBids(db, auction.id, [organizationId]),
  ]);
  const ownBid = own.get(organizationId) ?? null;
  return {
    // The form shows only while bids are taken.
    open: statusAt(auction, new Date()) === "open",
    auctionId: auction.id,
    title: auction.title,
    reserveCents: auction.reserveCents,
    requirements,
    ownBid,
    // Formatted here, in the user's zone: the browser shows these texts as they are.
    times: zonedTexts(ownBid, timezoneOf(user)),
  };
}

/** A body that could not be read: the message alone, nothing typed to keep. */
const unreadable = (status: number, message: string) =>
  data({ result: { status: "error", error: { "": [message] } } satisfies SubmissionResult<string[]> }, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, user, organizationId } = await requireSealedBidder(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const body = await readLimitedForm(request, MAX_SEALED_BID_BODY_BYTES);
  if (body.kind === "too-large") return unreadable(413, SEALED_BID_TOO_BIG);
  if (body.kind === "malformed") return unreadable(body.status, "Your bid could not be read. Please try again.");
  const form = capTypedAmount(body.form);
  const submission = parseSubmission(form, { schema: sealedBidSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const files: SealedBidFile[] = [];
  for (const requirement of await bidRequirements(db, auction.id)) {
    const file = form.get(requirementField(requirement.id));
    // An empty file input sends a nameless, empty file: nothing chosen.
    if (file === null || typeof file === "string" || (file.name === "" && file.size === 0)) continue;
    files.push({ requirementId: requirement.id, name: file.name, bytes: Buffer.from(await file.arrayBuffer()) });
  }
  const outcome = await submitSealedBid(db, {
    auctionId: auction.id,
    organizationId,
    userId: user.id,
    amountCents: submission.value.amount,
    files,
  });
  if (outcome.kind === "refused") {
    const reply = sealedFieldId(outcome.field)
      ? submission.reply({ fieldErrors: { [outcome.field ?? ""]: [outcome.message] } })
      : submission.reply({ formErrors: [outcome.message] });
    return data({ result: reply }, { status: outcome.status });
  }
  return redirect(`/auctions/${auction.id}?done=sealed&revision=${outcome.revision}`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Sealed bid: ${loaderData.title}` : "Sealed bid") }];
}

export default function SealedBidPage({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, reserveCents, requirements, ownBid, times, open } = loaderData;
  const [form, fields] = useSealedBidForm({ lastResult: actionData?.result, checkInBrowser: true });
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Sealed bid: ${title}`}</h1>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={[
          ...summaryLinks([fields.amount]),
          ...requirements.flatMap((requirement) =>
            (form.allErrors[requirementField(requirement.id)] ?? []).map((message) => ({
              fieldId: requirementFieldId(requirement.id),
              message,
            })),
          ),
        ]}
        submissionKey={actionData}
      />
      {ownBid ? <OwnSealedBid auctionId={auctionId} bid={ownBid} requirements={requirements} times={times} /> : null}
      {open ? (
        <SealedBidForm
          auctionId={auctionId}
          requirements={requirements}
          reserveCents={reserveCents}
          replacing={Boolean(ownBid)}
          form={form}
          fields={fields}
        />
      ) : (
        <p>{SEALED_MESSAGES.notOpen}</p>
      )}
    </div>
  );
}
