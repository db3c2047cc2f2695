import {
  type FieldMetadata,
  type FormMetadata,
  getFormProps,
  type Submission,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type FormEvent, type ReactNode, useMemo, useState } from "react";
import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { useAnswerOnThisPage } from "~/forms/answer-on-this-page";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput, TextInput } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { formatDuration, type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { describeDecrement, STATUS_LABELS, termsEditable } from "../auction-rules";
import type { OwnerView, SellerView } from "../auction-views.server";
import { OwnBidsTable } from "../bidding/own-bids-table";
import { useAuctionLiveView, useTimeLeft } from "../live/use-auction-live-view";
import { PriceChart } from "../price-chart/price-chart";
import { QuestionsPanel } from "../questions/questions-panel";
import { ReusePanel } from "../reuse/reuse-panel";
import { OwnSealedBid, SealedBidForm, SealedBidsSide, useSealedBidForm } from "../sealed/sealed-bid-panels";
import type { Route } from "./+types/auction-page";
import { type AuctionActionData, loadAuctionPage, type Notice, submitAuctionPage } from "./auction-page.server";
import { type AuctionPageIntent, auctionPageSchema, oneAuctionPageError } from "./auction-page-form";

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
  placed: "Your bid has been placed. It is binding and cannot be retracted.",
  minimum: "Your minimum has been saved. We bid for you down to it; nobody else can see it.",
  accepted: "You have accepted the terms: you can bid once bidding opens.",
  published: "The auction is published: the invited sellers have been e-mailed.",
  withdrawn: "The auction is a draft again: sellers cannot see it until you publish it.",
  cancelled: "The auction has been cancelled; invited sellers have been told.",
  saved: "The terms have been saved.",
  awarded: "The auction has been awarded; the winner and the other bidders have been e-mailed.",
  sealed: "Your sealed bid has been received. Until the deadline you may replace it; nobody can read it before then.",
};

/** The fields of the page's forms as the browser sends them (each form sends its own). */
type PageFields = { intent: string; amount: string; minimum: string; reason: string; confirm: string };
type PageForm = FormMetadata<PageFields, string[]>;
type PageField = FieldMetadata<string, PageFields, string[]>;
/** A page form's Conform state and its submit handler (which counts the attempt, for the summary's focus). */
type BoundForm = {
  form: PageForm;
  fields: Record<keyof PageFields, PageField>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  lastResult: SubmissionResult<string[]>;
};

/** A refusal goes back to the form of its intent; any other answer or a new page clears a form's errors. */
function usePageForm(
  id: string,
  intent: AuctionPageIntent,
  answer: AuctionActionData | undefined,
  onAttempt: () => void,
) {
  const lastResult = useAnswerOnThisPage(
    answer && "result" in answer && answer.intent === intent ? answer.result : undefined,
  );
  const [form, fields] = useForm<PageFields>({
    id,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      // The server's answer to the same form, without a round trip.
      const submission = parseWithZod(formData, { schema: auctionPageSchema });
      if (submission.status === "error") oneAuctionPageError(submission.error);
      return submission as unknown as Submission<PageFields, string[]>;
    },
  });
  const formProps = getFormProps(form);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    onAttempt();
    formProps.onSubmit(event);
  };
  return { form, fields, onSubmit, lastResult } as BoundForm;
}

export default function AuctionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { notice, auctionId, biddingBlocked } = loaderData;
  // With JavaScript the view follows the server's event stream and the time left ticks down.
  const { view, live } = useAuctionLiveView(auctionId, loaderData.view);
  // Every view comes with its times formatted by the server, in the user's zone.
  const times = view.times;
  const timeLeftMs = useTimeLeft(view);
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
      {notice ? (
        <Alert title="Done" tone="success">
          <p>{NOTICE_TEXTS[notice]}</p>
        </Alert>
      ) : null}
      {biddingBlocked && view.status !== "closed" ? (
        <Alert title="Bidding blocked">
          <p>{biddingBlocked}</p>
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

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function TimeLine({ view, times }: { view: OwnerView | SellerView; times: TimeTexts }) {
  const { terms } = view;
  return (
    <dl className="summary-list">
      <Row label="Bidding starts">
        <time dateTime={terms.startsAt}>{timeText(times, terms.startsAt)}</time>
      </Row>
      <Row label={terms.kind === "sealed" ? "Submission deadline" : "Bidding ends"}>
        <time dateTime={terms.endsAt}>{timeText(times, terms.endsAt)}</time>
        {terms.extensions > 0
          ? ` (extended ${terms.extensions} ${terms.extensions === 1 ? "time" : "times"} by late bids; scheduled for ${timeText(times, terms.scheduledEndsAt)})`
          : ""}
      </Row>
    </dl>
  );
}

function Terms({ view, auctionId }: { view: OwnerView | SellerView; auctionId: number }) {
  const { terms } = view;
  return (
    <section aria-labelledby="terms">
      <h2 id="terms">Terms</h2>
      <p className="preserve-lines">{terms.description}</p>
      <dl className="summary-list">
        <Row label="Service category">{terms.serviceName}</Row>
        <Row label="Service area">{terms.serviceAreaName}</Row>
        <Row label="Reserve price (the buyer's maximum)">{formatCents(terms.reserveCents)}</Row>
        {terms.kind === "sealed" ? (
          <>
            <Row label="Each bid must carry">
              <ul>
                {terms.requirements.map((requirement) => (
                  <li key={requirement.id}>{requirement.name}</li>
                ))}
              </ul>
            </Row>
            <Row label="Bids">
              Sealed: one bid per seller, replaceable until the deadline. Nobody, the buyer and staff included, can read
              a bid before the deadline; then the buyer and the evaluator see all bids side by side.
            </Row>
          </>
        ) : (
          <>
            <Row label="Each bid must beat the lowest by at least">
              {describeDecrement(terms.decrement, formatCents)}
            </Row>
            <Row label="Soft close">
              {terms.softCloseWindowMinutes > 0 && terms.softCloseExtensionMinutes > 0
                ? `A bid in the last ${terms.softCloseWindowMinutes} minutes moves the end ${terms.softCloseExtensionMinutes} minutes later, at most ${terms.softCloseCapMinutes} minutes in all.`
                : "None: bidding ends at the scheduled time."}
            </Row>
            <Row label="Bids">Binding: a bid cannot be retracted. Sellers never see each other's names or bids.</Row>
          </>
        )}
        {terms.priceWeightPercent < 100 || terms.technicalPassMark !== null ? (
          <Row label="Ranking">
            {`Price counts for ${terms.priceWeightPercent} % and the technical score for ${100 - terms.priceWeightPercent} %.`}
            {terms.technicalPassMark !== null
              ? ` Bids under a technical score of ${terms.technicalPassMark} cannot win.`
              : ""}
          </Row>
        ) : null}
      </dl>
      {terms.documents.length > 0 ? (
        <>
          <h3>Documents</h3>
          <ul>
            {terms.documents.map((document) => (
              <li key={document.id}>
                <a href={`/auctions/${auctionId}/documents/${document.id}`}>{document.fileName}</a>
                {` (${Math.max(1, Math.round(document.sizeBytes / 1024))} KB)`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function SellerPanel({
  view,
  answer,
  times,
  bid,
  minimum,
  practice,
}: {
  view: SellerView;
  answer?: AuctionActionData;
  times: TimeTexts;
  bid: BoundForm;
  minimum: BoundForm;
  /** A practice auction (issue 21): no buyer reviews it; its end offers another. */
  practice: boolean;
}) {
  const confirmBid = answer && "confirmBid" in answer ? answer.confirmBid : undefined;
  const biddingOpen = view.status === "open";
  if (view.outcome?.awarded) {
    return (
      <Alert
        title={view.outcome.won ? "You won this auction" : "Not awarded to you"}
        tone={view.outcome.won ? "success" : "error"}
      >
        <p>
          {view.outcome.won
            ? "The buyer will contact you about the work."
            : "The auction was awarded to another seller."}
        </p>
      </Alert>
    );
  }
  if (view.status === "cancelled") {
    return (
      <Alert title="Cancelled">
        <p>The buyer has cancelled this auction. No bid is binding any more.</p>
      </Alert>
    );
  }
  if (!view.termsAccepted) {
    return (
      <section aria-labelledby="accept" className="card">
        <h2 id="accept">Accept the terms to bid</h2>
        <p>
          {view.terms.kind === "sealed"
            ? "By accepting you agree that the bid you send is binding once the deadline passes, that the best-ranked qualified bid is expected to win, and that the buyer may pass over it with a recorded reason."
            : "By accepting you agree that every bid you place is binding and cannot be retracted, that the best-ranked qualified bid (the lowest, unless the auction also ranks technical merit) is expected to win, and that the buyer may pass over it with a recorded reason."}
        </p>
        {view.status === "scheduled" || view.status === "open" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="accept-terms" />
            <SubmitButton>I accept these terms</SubmitButton>
          </Form>
        ) : null}
      </section>
    );
  }
  if (view.terms.kind === "sealed") return <SealedSellerPanel view={view} times={times} lastResult={bid.lastResult} />;
  return (
    <>
      <section aria-labelledby="standing" className="card">
        <h2 id="standing">Where you stand</h2>
        <dl className="summary-list" aria-live="polite">
          <Row label="Current lowest price">
            {view.lowestCents === null ? "No bids yet" : formatCents(view.lowestCents)}
          </Row>
          <Row label="You">
            <strong>
              {view.leading
                ? "You have the lowest bid"
                : view.ownBids.length > 0
                  ? "You do not have the lowest bid"
                  : "You have not bid"}
            </strong>
          </Row>
          <Row label="Your secret minimum">
            {view.ownMinimumCents === null ? "Not set" : formatCents(view.ownMinimumCents)}
          </Row>
        </dl>
      </section>
      {view.priceChart ? (
        <PriceChart
          chart={view.priceChart}
          status={view.status}
          serverTime={view.serverTime}
          times={times}
          bidsLink={{ href: "#own-bids", text: "Your bids are listed under Your bids" }}
        />
      ) : null}
      {view.status === "closed" && practice ? (
        <section aria-labelledby="practice-ended" className="card">
          <h2 id="practice-ended">This practice auction has ended</h2>
          <p>Nothing here was real: no buyer reviews these bids. Start another to try again.</p>
          <Form method="post" action="/auctions/practice">
            <SubmitButton>Start another practice auction</SubmitButton>
          </Form>
        </section>
      ) : view.status === "closed" ? (
        <p>
          <strong>Bidding has closed.</strong> The buyer is reviewing the bids; you will be e-mailed the result.
        </p>
      ) : null}
      {biddingOpen && confirmBid ? (
        <section aria-labelledby="confirm-bid" className="card">
          <h2 id="confirm-bid">{`Place a bid of ${formatCents(confirmBid.amountCents)}?`}</h2>
          <p>
            {`That is ${confirmBid.dropPercent} % under ${view.lowestCents === null ? "the reserve price" : "the current lowest price"} of ${formatCents(confirmBid.referenceCents)}. Bids are binding and cannot be retracted.`}
          </p>
          <Form method="post" className="button-row">
            <input type="hidden" name="intent" value="bid" />
            <input type="hidden" name="amount" value={confirmBid.amount} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, place this bid</SubmitButton>
            <Link to=".">No, change it</Link>
          </Form>
        </section>
      ) : null}
      {biddingOpen && !confirmBid ? (
        <section aria-labelledby="bid" className="card">
          <h2 id="bid">Bid</h2>
          {view.leading ? (
            <p>You have the lowest bid. You can still lower your secret minimum below.</p>
          ) : (
            <Form method="post" {...getFormProps(bid.form)} onSubmit={bid.onSubmit} className="stack">
              <input type="hidden" name="intent" value="bid" />
              <TextInput
                key={bid.fields.amount.key}
                id="auction-amount"
                name={bid.fields.amount.name}
                label="Your bid (CAD)"
                hint={`Allowed: up to ${formatCents(view.highestAllowedCents)}. Dollars and cents, e.g. ${(view.highestAllowedCents / 100).toFixed(2)}.`}
                errors={bid.fields.amount.errors}
                inputProps={{
                  inputMode: "decimal",
                  autoComplete: "off",
                  defaultValue: bid.fields.amount.initialValue,
                }}
              />
              <SubmitButton>Place binding bid</SubmitButton>
            </Form>
          )}
          <Form method="post" {...getFormProps(minimum.form)} onSubmit={minimum.onSubmit} className="stack">
            <input type="hidden" name="intent" value="auto-bid" />
            <TextInput
              key={minimum.fields.minimum.key}
              id="auction-minimum"
              name={minimum.fields.minimum.name}
              label="Auto-bid: your secret minimum (CAD)"
              hint="We bid for you one decrement under the lowest bid, never below this amount. Nobody else sees it. If another seller enters the same minimum later, yours wins."
              errors={minimum.fields.minimum.errors}
              inputProps={{
                inputMode: "decimal",
                autoComplete: "off",
                defaultValue: minimum.fields.minimum.initialValue,
              }}
            />
            <SubmitButton secondary>Save my minimum</SubmitButton>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="own-bids">
        <h2 id="own-bids">Your bids</h2>
        {view.ownBids.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <>
            {view.ownBidCount > view.ownBids.length ? (
              <p>
                {`Your latest ${view.ownBids.length} of ${view.ownBidCount} bids. `}
                <Link to={`/auctions/${view.terms.id}/own-bids`}>See all your bids</Link>
              </p>
            ) : null}
            <OwnBidsTable bids={view.ownBids} times={times} />
          </>
        )}
      </section>
    </>
  );
}

function OwnerPanel({
  view,
  answer,
  times,
  auctionId,
  cancel,
  onBehalf,
}: {
  view: OwnerView;
  answer?: AuctionActionData;
  times: TimeTexts;
  auctionId: number;
  cancel: BoundForm;
  /** Whether this user may enter bids on a seller's behalf (issue 21). */
  onBehalf: boolean;
}) {
  const isOwner = view.viewer === "owner";
  const confirmCancel = answer && "confirmCancel" in answer ? answer.confirmCancel : undefined;
  const editable = termsEditable(view.status) && view.bidCount === 0;
  const awardedBid = view.award
    ? view.sealed
      ? view.sealed.bids?.find((bid) => bid.id === view.award?.bidId)
      : view.awardedBid
    : undefined;
  return (
    <>
      {view.award && awardedBid ? (
        <Alert title="Awarded" tone="success">
          <p>
            {`Awarded to ${awardedBid.organizationName} at ${formatCents(awardedBid.amountCents)}.`}
            {view.award.reason ? ` The first-ranked bid was passed over: ${view.award.reason}` : ""}
            {view.award.buyerFeeCents !== null ? ` Buyer fee recorded: ${formatCents(view.award.buyerFeeCents)}.` : ""}
          </p>
        </Alert>
      ) : null}
      {view.status === "cancelled" && view.cancelReason ? (
        <Alert title="Cancelled">
          <p>{view.cancelReason}</p>
        </Alert>
      ) : null}
      {isOwner ? (
        <section aria-labelledby="manage" className="card">
          <h2 id="manage">Manage</h2>
          <ul className="link-list">
            {editable ? (
              <li>
                <Link to={`/auctions/${auctionId}/edit`}>Edit the terms</Link>
              </li>
            ) : null}
            <li>
              <Link to={`/auctions/${auctionId}/sellers`}>Invited sellers</Link>
              {` (${view.invitedCount})`}
            </li>
            <li>
              <Link to={`/auctions/${auctionId}/documents`}>Documents</Link>
            </li>
            {view.status === "closed" ? (
              <li>
                <Link to={`/auctions/${auctionId}/award`}>Award the auction</Link>
              </li>
            ) : null}
          </ul>
          {view.status === "draft" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="publish" />
              <SubmitButton>Publish and e-mail the invited sellers</SubmitButton>
            </Form>
          ) : null}
          {view.status === "scheduled" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="withdraw" />
              <SubmitButton secondary>Back to draft</SubmitButton>
            </Form>
          ) : null}
          {view.status !== "awarded" && view.status !== "cancelled" ? (
            confirmCancel ? (
              <div className="stack">
                <h3>Cancel this auction?</h3>
                <p className="preserve-lines">{`Invited sellers are e-mailed this reason: "${confirmCancel.reason}". This cannot be undone.`}</p>
                <Form method="post" className="button-row">
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="reason" value={confirmCancel.reason} />
                  <input type="hidden" name="confirm" value="yes" />
                  <SubmitButton>Yes, cancel the auction</SubmitButton>
                  <Link to=".">No, go back</Link>
                </Form>
              </div>
            ) : (
              <Form method="post" {...getFormProps(cancel.form)} onSubmit={cancel.onSubmit} className="stack">
                <input type="hidden" name="intent" value="cancel" />
                <TextAreaInput
                  key={cancel.fields.reason.key}
                  id="auction-reason"
                  name={cancel.fields.reason.name}
                  label="Reason for cancelling"
                  hint="Invited sellers are e-mailed this."
                  rows={2}
                  errors={cancel.fields.reason.errors}
                  defaultValue={cancel.fields.reason.initialValue}
                />
                <SubmitButton secondary>Cancel the auction</SubmitButton>
              </Form>
            )
          ) : null}
        </section>
      ) : null}
      <p>
        <Link to={`/auctions/${auctionId}/evaluation`}>Technical evaluation</Link>
        {view.viewer === "evaluator" ? " (you evaluate this auction)" : ""}
      </p>
      {view.priceChart ? (
        <PriceChart
          chart={view.priceChart}
          status={view.status}
          serverTime={view.serverTime}
          times={times}
          bidsLink={{ href: "#console", text: "Every bid is listed under Bids, with the bid history to download" }}
        />
      ) : null}
      {view.sealed ? (
        <SealedBidsSide
          auctionId={auctionId}
          sealed={view.sealed}
          requirements={view.terms.requirements}
          times={times}
        />
      ) : (
        <section aria-labelledby="console">
          <h2 id="console">Bids</h2>
          <dl className="summary-list" aria-live="polite">
            <Row label="Lowest bid">
              {view.lowest
                ? `${formatCents(view.lowest.amountCents)} by ${view.lowest.organizationName}`
                : "No bids yet"}
            </Row>
            <Row label="Bids placed">{String(view.bidCount)}</Row>
          </dl>
          {onBehalf && (view.status === "open" || view.status === "scheduled") ? (
            <p>
              <Link to={`/auctions/${auctionId}/on-behalf`}>Bid on a seller's behalf</Link> (a seller who phoned)
            </p>
          ) : null}
          {view.bids.length > 0 ? (
            <>
              <p>
                <a href={`/auctions/${auctionId}/bids.csv`} download>
                  Download the bid history (CSV)
                </a>
              </p>
              {view.bids.length < view.bidCount ? (
                <p>{`The latest ${view.bids.length} of ${view.bidCount} bids are shown; the bid history has every one.`}</p>
              ) : null}
              <TableRegion label={view.bids.length < view.bidCount ? "Latest bids" : "Every bid"}>
                <table className="table">
                  <caption className="visually-hidden">
                    {view.bids.length < view.bidCount ? "Latest bids, newest first" : "Every bid, newest first"}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Amount</th>
                      <th scope="col">Placed</th>
                      <th scope="col">Seller</th>
                      <th scope="col">How</th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.bids.map((bid) => (
                      <tr key={bid.id}>
                        <td>
                          {formatCents(bid.amountCents)}
                          {bid.id === view.lowest?.bidId ? <strong> (lowest)</strong> : null}
                        </td>
                        <td>
                          <time dateTime={bid.createdAt}>{timeText(times, bid.createdAt)}</time>
                        </td>
                        <td>{bid.organizationName}</td>
                        <td>
                          {bid.kind === "auto"
                            ? "Automatic"
                            : bid.enteredBy === null
                              ? "Manual"
                              : `Entered on the seller's behalf by ${bid.enteredBy} (${bid.onBehalfNote ?? ""})`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            </>
          ) : null}
        </section>
      )}
    </>
  );
}

/** A sealed auction for an invited seller who accepted the terms: their bid, and the form while bids are taken. */
function SealedSellerPanel({
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
  return (
    <>
      {own ? (
        <OwnSealedBid auctionId={view.terms.id} bid={own} requirements={view.terms.requirements} times={times} />
      ) : view.status === "open" ? null : (
        <p>{view.status === "scheduled" ? "Bids are accepted once bidding starts." : "You did not send a bid."}</p>
      )}
      {view.status === "open" ? (
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
