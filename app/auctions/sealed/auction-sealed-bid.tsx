import { data, Link, redirect } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/platform/app-context";
import { zonedTexts } from "~/platform/zoned-time";
import { readsOnly, requireAuction } from "../auction-access.server";
import { statusAt } from "../auction-rules";
import { MAX_SEALED_BID_BODY_BYTES, SEALED_BID_TOO_BIG } from "../documents/document-types";
import { discardBody, readLimitedForm } from "../documents/upload-body.server";
import { parseDollars } from "../lifecycle/auction-form";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { bidRequirements } from "../lifecycle/auction-terms.server";
import type { Route } from "./+types/auction-sealed-bid";
import { requirementField, SEALED_MESSAGES } from "./sealed-bid-messages";
import { OwnSealedBid, type SealedBidAnswer, SealedBidForm, sealedFieldId } from "./sealed-bid-panels";
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

const answer = (status: number, body: SealedBidAnswer) => data(body, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, user, organizationId } = await requireSealedBidder(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const body = await readLimitedForm(request, MAX_SEALED_BID_BODY_BYTES);
  if (body.kind === "too-large") return answer(413, { error: SEALED_BID_TOO_BIG });
  if (body.kind === "malformed") return answer(body.status, { error: "Your bid could not be read. Please try again." });
  const form = body.form;
  const typedValue = form.get("amount");
  const typed = typeof typedValue === "string" ? typedValue.slice(0, 40) : "";
  const amountCents = parseDollars(typed);
  if (amountCents === null || amountCents < 1) {
    const error = typed.trim() ? SEALED_MESSAGES.amountFormat : SEALED_MESSAGES.amountMissing;
    return answer(400, { error, field: "amount", typed });
  }
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
    amountCents,
    files,
  });
  if (outcome.kind === "refused")
    return answer(outcome.status, { error: outcome.message, field: outcome.field, typed });
  return redirect(`/auctions/${auction.id}?sealed=${outcome.revision}`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Sealed bid: ${loaderData.title}` : "Sealed bid") }];
}

export default function SealedBidPage({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, reserveCents, requirements, ownBid, times, open } = loaderData;
  const refusal = actionData as SealedBidAnswer | undefined;
  const fieldId = sealedFieldId(refusal?.field);
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Sealed bid: ${title}`}</h1>
      <ErrorSummary
        formErrors={refusal && !fieldId ? [refusal.error] : []}
        fieldErrors={refusal && fieldId ? [{ fieldId, message: refusal.error }] : []}
        submissionKey={refusal}
      />
      {ownBid ? <OwnSealedBid auctionId={auctionId} bid={ownBid} requirements={requirements} times={times} /> : null}
      {open ? (
        <SealedBidForm
          auctionId={auctionId}
          requirements={requirements}
          reserveCents={reserveCents}
          replacing={Boolean(ownBid)}
          answer={refusal}
        />
      ) : (
        <p>{SEALED_MESSAGES.notOpen}</p>
      )}
    </div>
  );
}
