import type { Submission, SubmissionResult } from "@conform-to/react";
import { data, type RouterContextProvider, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import type { MessageServices } from "~/messaging/messaging.server";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { sellerMayBid } from "~/payments/subscriptions/standing.server";
import { readFormBody } from "~/platform/request-body.server";
import { zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { parseId } from "~/shared/ids";
import { Role } from "~/shared/roles";
import { readsOnly, requireAuction } from "../auction-access.server";
import { viewForUser } from "../auction-views.server";
import { tellBidEffectsSoon } from "../bidding/bid-notices.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import type { BidderRequest } from "../bidding/bid-round.server";
import { acceptAuctionTerms } from "../invitations/invitations.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { cancelAuction, publishAuction, withdrawAuction } from "../lifecycle/publish-and-cancel.server";
import { mayEnterOnBehalf } from "../on-behalf/on-behalf-rules";
import { hasQuestions, questionsFor } from "../questions/questions.server";
import { reuseOf } from "../reuse/reuse-panel.server";
import {
  type AuctionPageForm,
  type AuctionPageIntent,
  auctionPageSchema,
  intentOf,
  oneAuctionPageError,
  TYPED_FIELDS,
} from "./auction-page-schema";

// Loader and action of /auctions/{id}: the buyer's console, a seller's bidding page, or staff's
// read-only console, all built from the party's view. Every change is a plain form post answered
// with a redirect (POST/redirect/GET), or with the page and the message at the field.

type Context = Readonly<RouterContextProvider>;

const NOTICES = [
  "placed",
  "minimum",
  "accepted",
  "published",
  "withdrawn",
  "cancelled",
  "saved",
  "awarded",
  "sealed",
] as const;
export type Notice = (typeof NOTICES)[number];

export async function loadAuctionPage(request: Request, context: Context, rawId: string | undefined) {
  const user = requireUser(request, context);
  const auctionId = parseId(rawId);
  if (!auctionId) throw data(null, { status: 404 });
  const { db } = context.get(appServicesContext);
  // The auction read once: who may see it, and the view, from the same snapshot.
  const found = await viewForUser(db, auctionId, user, request.signal);
  if (!found) throw data(null, { status: 404 });
  const { auction, viewer, view } = found;
  // The rest of the page's queries: none of them for a client that has gone already.
  request.signal.throwIfAborted();
  const [standing, reuse, questions] = await Promise.all([
    // A seller held back by its subscription (issue 19) is told before it tries to bid.
    viewer.kind === "seller" ? sellerMayBid(db, viewer.organizationId) : undefined,
    reuseOf(db, auction, viewer),
    // A practice auction has none (nothing to read, no panel).
    hasQuestions(auction) ? questionsFor(db, auction, viewer, timezoneOf(user)) : null,
  ]);
  const params = new URL(request.url).searchParams;
  const notice = NOTICES.find((name) => params.get("done") === name);
  // Times are formatted here, in the user's zone, and shown as they are (the event stream's views carry theirs too).
  return {
    auctionId: auction.id,
    view: { ...view, times: zonedTexts(view, timezoneOf(user)) },
    notice: notice ?? null,
    biddingBlocked: standing && !standing.mayBid ? blockedMessage(standing.reason, "bid") : null,
    reuse,
    /** Whether the console links to /auctions/{id}/on-behalf (issue 21). */
    onBehalf: auction.kind === "reverse" && mayEnterOnBehalf(user, viewer, auction),
    questions,
    /** Spoken updates of bids and time with JavaScript (issue 32), as the user last chose. */
    liveAnnouncements: user.liveAnnouncements,
  };
}

export type AuctionActionData =
  /** A refusal, for the form of that intent (none when the intent could not be read). */
  | { intent?: AuctionPageIntent; result: SubmissionResult<string[]> }
  | { confirmBid: { amount: string; amountCents: number; referenceCents: number; dropPercent: number } }
  | { confirmCancel: { reason: string } };

type PageSubmission = Submission<Record<string, unknown>, string[], AuctionPageForm>;

/** A refusal at a field (what was typed shown back) or for the whole form (nothing typed shown back). */
function refuse(
  submission: PageSubmission,
  status: number,
  refusal: { field?: string; message: string },
  intent?: AuctionPageIntent,
) {
  const result = refusal.field
    ? submission.reply({ fieldErrors: { [refusal.field]: [refusal.message] } })
    : submission.reply({ formErrors: [refusal.message], hideFields: TYPED_FIELDS });
  return data<AuctionActionData>({ intent, result }, { status });
}

export async function submitAuctionPage(request: Request, context: Context, rawId: string | undefined) {
  const user = requireUser(request, context);
  const services = context.get(appServicesContext);
  const submission = parseSubmission(await readFormBody(request), { schema: auctionPageSchema });
  if (submission.status !== "success") {
    await requireAuction(request, context, rawId); // an auction this user may not see is a 404 first
    const formWide = oneAuctionPageError(submission.error);
    return data<AuctionActionData>(
      {
        intent: intentOf(submission.payload.intent),
        result: submission.reply(formWide ? { hideFields: TYPED_FIELDS } : {}),
      },
      { status: 400 },
    );
  }
  const form = submission.value;
  // A seller's bid or minimum goes straight to the auction's next round of bids, which checks the
  // invitation, the terms and the time on the state it decides on (one read for every bid waiting):
  // busy auctions are not held up by a read of their own per bid.
  if ((form.intent === "bid" || form.intent === "auto-bid") && user.role === Role.Seller && user.organizationId) {
    const auctionId = parseId(rawId);
    if (!auctionId) throw data(null, { status: 404 });
    return submitBidding(
      services,
      { auctionId, organizationId: user.organizationId, userId: user.id },
      submission,
      form,
    );
  }

  const { auction, viewer } = await requireAuction(request, context, rawId);
  const back = (notice: Notice) => redirect(`/auctions/${auction.id}?done=${notice}`);
  if (form.intent === "publish" || form.intent === "withdraw" || form.intent === "cancel") {
    if (viewer.kind !== "owner") throw data(null, { status: readsOnly(viewer) ? 403 : 404 });
    const actor = { userId: user.id, organizationId: viewer.organizationId };
    if (form.intent === "cancel" && form.confirm !== "yes") return { confirmCancel: { reason: form.reason } };
    const changed =
      form.intent === "publish"
        ? await publishAuction(services, auction.id, actor)
        : form.intent === "withdraw"
          ? await withdrawAuction(services.db, auction.id, actor)
          : await cancelAuction(services, auction.id, actor, form.reason);
    if (changed.kind === "refused")
      return refuse(submission, changed.status, { message: changed.message }, form.intent);
    return back(form.intent === "publish" ? "published" : form.intent === "withdraw" ? "withdrawn" : "cancelled");
  }

  // The rest is for invited sellers only.
  if (viewer.kind !== "seller") throw data(null, { status: readsOnly(viewer) || viewer.kind === "owner" ? 403 : 404 });
  const bidder = { auctionId: auction.id, organizationId: viewer.organizationId, userId: user.id };
  if (form.intent === "accept-terms") {
    const accepted = await acceptAuctionTerms(services.db, auction.id, bidder);
    if (accepted.kind === "refused") {
      return refuse(submission, accepted.status, { message: accepted.message }, form.intent);
    }
    return back("accepted");
  }
  return submitBidding(services, bidder, submission, form);
}

type BiddingForm = Extract<AuctionPageForm, { intent: "bid" | "auto-bid" }>;

/** A bid (binding once placed) or a secret minimum: redirect with the notice, or the page with the message at the field. */
async function submitBidding(
  services: MessageServices,
  bidder: BidderRequest,
  submission: PageSubmission,
  form: BiddingForm,
) {
  const field = form.intent === "bid" ? "amount" : "minimum";
  const cents = form.intent === "bid" ? form.amount : form.minimum;
  const outcome =
    form.intent === "bid"
      ? await placeManualBid(services.db, { ...bidder, amountCents: cents, confirmed: form.confirm === "yes" })
      : await setAutoBidMinimum(services.db, { ...bidder, minimumCents: cents });
  switch (outcome.kind) {
    case "unconfirmed": {
      // The typo guard: a bid far under the price is asked about once more before it binds the seller.
      const { referenceCents, dropPercent } = outcome;
      // What was typed, as typed: the confirmation sends it again.
      const amount = String(submission.payload.amount ?? "");
      return { confirmBid: { amount, amountCents: cents, referenceCents, dropPercent } };
    }
    case "refused":
      // Not invited, a draft, or no such auction: the same 404 as the page.
      if (outcome.status === 404) throw data(null, { status: 404 });
      return refuse(submission, outcome.status, { field, message: outcome.message }, form.intent);
    case "accepted": {
      // The outbid and extension notices, stored with the bid, go out after the answer (the sweep
      // sends them if this process stops first): the bid stands whatever happens to them.
      const leadLost = outcome.previousLeaderId !== null && outcome.previousLeaderId !== outcome.leaderId;
      if (outcome.extended || leadLost) {
        void tellBidEffectsSoon(services, bidder.auctionId);
      }
      // No bid id in the address: the auction's bid ids would count the other sellers' bids (issue 17).
      const notice = form.intent === "bid" ? "placed" : "minimum";
      return redirect(`/auctions/${bidder.auctionId}?done=${notice}`);
    }
  }
}
