import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { requireUser } from "~/accounts/sessions/auth.server";
import { parseId } from "~/catalogue/catalogue-schemas";
import { DISALLOWED_CHARACTERS, textField } from "~/forms/text-schema";
import { appServicesContext } from "~/platform/app-context";
import { readFormBody } from "~/platform/request-body.server";
import { zonedTexts } from "~/platform/zoned-time";
import { readsOnly, requireAuction } from "../auction-access.server";
import type { AuctionServices } from "../auction-notices.server";
import { viewFor } from "../auction-views.server";
import { tellBidEffectsSoon } from "../bidding/bid-notices.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import type { BidderRequest } from "../bidding/bid-round.server";
import { acceptAuctionTerms } from "../invitations/invitations.server";
import { parseDollars } from "../lifecycle/auction-form";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { cancelAuction, publishAuction, withdrawAuction } from "../lifecycle/publish-and-cancel.server";

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
  const { user, auction, viewer } = await requireAuction(request, context, rawId);
  const { db } = context.get(appServicesContext);
  const view = await viewFor(db, auction, viewer);
  const params = new URL(request.url).searchParams;
  const notice = NOTICES.find((name) => params.has(name));
  // Times are formatted here, in the user's zone, and shown as they are (the event stream's views carry theirs too).
  return {
    auctionId: auction.id,
    view: { ...view, times: zonedTexts(view, timezoneOf(user)) },
    notice: notice ?? null,
  };
}

const CANCEL_REASON_REQUIRED = "Please say why the auction is cancelled";
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("publish") }),
  z.object({ intent: z.literal("withdraw") }),
  z.object({
    intent: z.literal("cancel"),
    reason: textField({ error: CANCEL_REASON_REQUIRED, multiline: true }).min(1, CANCEL_REASON_REQUIRED).max(2000),
    confirm: z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("accept-terms") }),
  z.object({ intent: z.literal("bid"), amount: z.string().max(40).default(""), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("auto-bid"), minimum: z.string().max(40).default("") }),
]);

export type AuctionActionData =
  | { error: string; field?: "amount" | "minimum" | "reason"; typed?: string }
  | { confirmBid: { amount: string; amountCents: number; referenceCents: number; dropPercent: number } }
  | { confirmCancel: { reason: string } };

const refuse = (status: number, body: AuctionActionData) => data(body, { status });

export async function submitAuctionPage(request: Request, context: Context, rawId: string | undefined) {
  const user = requireUser(request, context);
  const services = context.get(appServicesContext);
  const submitted = Object.fromEntries(await readFormBody(request));
  const parsed = actionSchema.safeParse(submitted);
  if (!parsed.success) {
    await requireAuction(request, context, rawId); // an auction this user may not see is a 404 first
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "reason") {
      const error = issue.message === DISALLOWED_CHARACTERS ? issue.message : CANCEL_REASON_REQUIRED;
      return refuse(400, { error, field: "reason", typed: String(submitted.reason ?? "") });
    }
    return refuse(400, { error: "Please choose what to do." });
  }
  const form = parsed.data;
  // A seller's bid or minimum goes straight to the auction's next round of bids, which checks the
  // invitation, the terms and the time on the state it decides on (one read for every bid waiting):
  // busy auctions are not held up by a read of their own per bid.
  if ((form.intent === "bid" || form.intent === "auto-bid") && user.role === 3 && user.organizationId) {
    const auctionId = parseId(rawId);
    if (!auctionId) throw data(null, { status: 404 });
    return submitBidding(services, { auctionId, organizationId: user.organizationId, userId: user.id }, form);
  }

  const { auction, viewer } = await requireAuction(request, context, rawId);
  const back = (notice: Notice) => redirect(`/auctions/${auction.id}?${notice}=1`);
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
    if (changed.kind === "refused") return refuse(changed.status, { error: changed.message });
    return back(form.intent === "publish" ? "published" : form.intent === "withdraw" ? "withdrawn" : "cancelled");
  }

  // The rest is for invited sellers only.
  if (viewer.kind !== "seller") throw data(null, { status: readsOnly(viewer) || viewer.kind === "owner" ? 403 : 404 });
  const bidder = { auctionId: auction.id, organizationId: viewer.organizationId, userId: user.id };
  if (form.intent === "accept-terms") {
    const accepted = await acceptAuctionTerms(services.db, auction.id, bidder);
    if (accepted.kind === "refused") return refuse(accepted.status, { error: accepted.message });
    return back("accepted");
  }
  return submitBidding(services, bidder, form);
}

type BiddingForm = Extract<z.infer<typeof actionSchema>, { intent: "bid" | "auto-bid" }>;

/** A bid (binding once placed) or a secret minimum: redirect with the notice, or the page with the message at the field. */
async function submitBidding(services: AuctionServices, bidder: BidderRequest, form: BiddingForm) {
  const field = form.intent === "bid" ? "amount" : "minimum";
  const typed = form.intent === "bid" ? form.amount : form.minimum;
  const cents = parseDollars(typed);
  if (cents === null || cents < 1) {
    const message = typed.trim()
      ? "Please enter an amount in dollars and cents, like 12500.00"
      : form.intent === "bid"
        ? "Please enter your bid"
        : "Please enter your minimum";
    return refuse(400, { error: message, field, typed });
  }
  const outcome =
    form.intent === "bid"
      ? await placeManualBid(services.db, { ...bidder, amountCents: cents, confirmed: form.confirm === "yes" })
      : await setAutoBidMinimum(services.db, { ...bidder, minimumCents: cents });
  switch (outcome.kind) {
    case "unconfirmed": {
      // The typo guard: a bid far under the price is asked about once more before it binds the seller.
      const { referenceCents, dropPercent } = outcome;
      return { confirmBid: { amount: typed, amountCents: cents, referenceCents, dropPercent } };
    }
    case "refused":
      // Not invited, a draft, or no such auction: the same 404 as the page.
      if (outcome.status === 404) throw data(null, { status: 404 });
      return refuse(outcome.status, { error: outcome.message, field, typed });
    case "accepted": {
      // The outbid and extension notices go out after the answer: the bid stands whatever happens to them.
      tellBidEffectsSoon(services, bidder.auctionId, outcome);
      // No bid id in the address: the auction's bid ids would count the other sellers' bids (issue 17).
      const notice = form.intent === "bid" ? "placed=1" : "minimum=1";
      return redirect(`/auctions/${bidder.auctionId}?${notice}`);
    }
  }
}
