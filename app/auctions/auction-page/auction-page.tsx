import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { LinkedText } from "~/forms/linked-text";
import { pageTitle } from "~/layout/page-title";
import { formatDuration, timeText } from "~/platform/zoned-time";
import { STATUS_LABELS, termsEditable } from "../auction-rules";
import { bidCommitment } from "../bidding/bid-commitment";
import {
  AnnouncementsToggle,
  LiveRegions,
  useAnnouncementsEnabled,
  useLiveAnnouncements,
} from "../live/live-announcements";
import { useAuctionLiveView, useTimeLeft } from "../live/use-auction-live-view";
import { QuestionsPanel } from "../questions/questions-panel";
import { ReusePanel } from "../reuse/reuse-panel";
import type { Route } from "./+types/auction-page";
import { type AuctionActionData, loadAuctionPage, type Notice, submitAuctionPage } from "./auction-page.server";
import { Terms, TimeLine } from "./auction-terms";
import { OwnerPanel } from "./owner-panel";
import { type PageField, usePageForm } from "./page-forms";
import { SellerPanel } from "./seller-panel";

// /auctions/{id}: the buyer's live console, an invited seller's bidding page, or staff's read-only
// console. Everything works as plain forms and links; the time left is the server's.

export const loader = ({ request, params, context }: Route.LoaderArgs) =>
  loadAuctionPage(request, context, params.auctionId);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitAuctionPage(request, context, params.auctionId);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? loaderData.view.terms.title : "Auction") }];
}

const NOTICE_TEXTS: Record<Notice, string> = {
  placed: bidCommitment(false).placed,
  minimum: "Your minimum has been saved. We bid for you down to it; nobody else can see it.",
  accepted: "You have accepted the terms: you can bid once bidding opens.",
  published: "The auction is published: the invited sellers have been e-mailed.",
  withdrawn: "The auction is a draft again: sellers cannot see it until you publish it.",
  cancelled: "The auction has been cancelled; invited sellers have been told.",
  saved: "The terms have been saved.",
  awarded: "The auction has been awarded; the winner and the other bidders have been e-mailed.",
  sealed: "Your sealed bid has been received. Until the deadline you may replace it; nobody can read it before then.",
};

export default function AuctionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { notice, auctionId, biddingBlocked } = loaderData;
  // With JavaScript the view follows the server's event stream and the time left ticks down.
  const { view, live } = useAuctionLiveView(auctionId, loaderData.view);
  // Every view comes with its times formatted by the server, in the user's zone.
  const times = view.times;
  const timeLeftMs = useTimeLeft(view);
  // Spoken updates (issue 32): changes and time milestones, coalesced, in live regions of their own.
  const spoken = useLiveAnnouncements(view, useAnnouncementsEnabled(loaderData.liveAnnouncements));
  const answer = actionData as AuctionActionData | undefined;
  const [attempts, setAttempts] = useState(0);
  const attempt = () => setAttempts((count) => count + 1);
  const bid = usePageForm("auction-bid", "bid", answer, attempt);
  const minimum = usePageForm("auction-minimum-form", "auto-bid", answer, attempt);
  const cancel = usePageForm("auction-cancel", "cancel", answer, attempt);
  // The buttons without fields (publish, back to draft, accept the terms) have only the form's message.
  const otherErrors =
    answer && "result" in answer && !["bid", "auto-bid", "cancel"].includes(answer.intent ?? "")
      ? (answer.result.error?.[""] ?? [])
      : [];
  // A new key for each answer and each attempt, and only then: the summary takes focus when it changes.
  const submissionKey = useMemo(() => [answer, attempts], [answer, attempts]);
  const fieldLink = (field: PageField, fieldId: string) =>
    (field.errors ?? []).map((message) => ({ fieldId, message }));
  return (
    <div className="auction">
      <p>
        <Link to="/auctions">Auctions</Link>
      </p>
      <h1>{view.terms.title}</h1>
      <p className="lead">
        {`${view.terms.kind === "sealed" ? "Sealed-bid auction" : "Reverse auction"} · ${STATUS_LABELS[view.status]}`}
        {view.status === "open" ? ` · ${formatDuration(timeLeftMs)} left` : ""}
        {view.status === "scheduled" ? ` · opens in ${formatDuration(timeLeftMs)}` : ""}
      </p>
      <ReusePanel auctionId={auctionId} reuse={loaderData.reuse} />
      {notice && !answer ? (
        // After a bid or a minimum the result takes focus, as the error summary does on a refusal
        // (whose answer makes the notice in the address out of date).
        <Alert title="Done" tone="success" focus>
          <p>{notice === "placed" ? bidCommitment(loaderData.reuse.practice).placed : NOTICE_TEXTS[notice]}</p>
        </Alert>
      ) : null}
      {biddingBlocked && view.status !== "closed" ? (
        <Alert title="Bidding blocked">
          <p>
            <LinkedText text={biddingBlocked} />
          </p>
        </Alert>
      ) : null}
      <ErrorSummary
        formErrors={[
          ...otherErrors,
          ...(bid.form.errors ?? []),
          ...(minimum.form.errors ?? []),
          ...(cancel.form.errors ?? []),
        ]}
        fieldErrors={[
          ...fieldLink(bid.fields.amount, "auction-amount"),
          ...fieldLink(minimum.fields.minimum, "auction-minimum"),
          ...fieldLink(cancel.fields.reason, "auction-reason"),
        ]}
        submissionKey={submissionKey}
      />
      <TimeLine view={view} times={times} />
      <LiveRegions {...spoken} />
      <p>
        {live ? (
          <span className="field__hint">Updating live.</span>
        ) : (
          <>
            <Link to={`/auctions/${auctionId}`} reloadDocument>
              Refresh
            </Link>{" "}
            <span className="field__hint">{`(as of ${timeText(times, view.serverTime)})`}</span>
          </>
        )}
      </p>
      {view.status === "open" || view.status === "scheduled" ? (
        <AnnouncementsToggle enabled={loaderData.liveAnnouncements} returnTo={`/auctions/${auctionId}`} />
      ) : null}
      {view.kind === "seller" ? (
        <SellerPanel
          view={view}
          answer={answer}
          times={times}
          bid={bid}
          minimum={minimum}
          practice={loaderData.reuse.practice}
        />
      ) : (
        <OwnerPanel
          view={view}
          answer={answer}
          times={times}
          auctionId={auctionId}
          cancel={cancel}
          onBehalf={loaderData.onBehalf}
        />
      )}
      <Terms view={view} auctionId={auctionId} />
      {loaderData.questions ? (
        <QuestionsPanel
          auctionId={auctionId}
          questions={loaderData.questions}
          termsEditable={view.kind === "owner" && view.viewer === "owner" && termsEditable(view.status)}
        />
      ) : null}
    </div>
  );
}
