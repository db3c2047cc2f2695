import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { LinkedText } from "~/forms/linked-text";
import { utcDay } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import type { SubscriptionStatus } from "~db/subscription-statuses";
import { cardLabel } from "./card-label";
import { SELLER_FEES_TOTAL, SELLER_RENEWAL_CENTS } from "./fees";
import { blockedMessage, GRACE_NOTICE_TITLE, graceMessage, STATUS_LABELS, standingOf } from "./subscriptions/standing";

/** A seller's subscription as its pages show it (dates as ISO strings, amounts in cents). */
export type SubscriptionView = {
  status: SubscriptionStatus;
  trialEndsAt: string | null;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  failure: string | null;
  pastDueSince: string | null;
  graceEndsAt: string | null;
  cancelledAt: string | null;
  cardProblem: string | null;
  /** Decided by the loader at the time of the request: past due beyond the grace period, or cancelled. */
  blocked: "overdue" | "cancelled" | null;
};

export function toSubscriptionView(
  row: {
    status: SubscriptionStatus;
    trialEndsAt: Date | null;
    amountCents: number;
    cardBrand: string | null;
    cardLast4: string | null;
    failure: string | null;
    pastDueSince: Date | null;
    graceEndsAt: Date | null;
    cancelledAt: Date | null;
    cardProblem: string | null;
  },
  now = new Date(),
): SubscriptionView {
  const standing = standingOf(row, now);
  return {
    status: row.status,
    trialEndsAt: row.trialEndsAt?.toISOString() ?? null,
    amountCents: row.amountCents,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    failure: row.failure,
    pastDueSince: row.pastDueSince?.toISOString() ?? null,
    graceEndsAt: row.graceEndsAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    cardProblem: row.cardProblem,
    blocked: standing.mayBid ? null : standing.reason,
  };
}

/** The standing in words: "Past due: bidding blocked" once the grace period is over. */
export function standingText(subscription: Pick<SubscriptionView, "status" | "blocked">): string {
  return subscription.blocked === "overdue" ? "Past due: bidding blocked" : STATUS_LABELS[subscription.status];
}

/** What the seller (or staff) must know about a past-due or cancelled subscription. */
function StandingAlert({ subscription, audience }: { subscription: SubscriptionView; audience: "seller" | "staff" }) {
  const { status, blocked, graceEndsAt, pastDueSince } = subscription;
  if (status === "cancelled") {
    return (
      <Alert title="Subscription cancelled">
        <p>
          {audience === "seller" ? (
            <LinkedText text={blockedMessage("cancelled", "bid")} />
          ) : (
            "The subscription has been cancelled: the seller can no longer bid or accept invitations."
          )}
        </p>
        {subscription.failure ? (
          <p>
            {audience === "seller" ? "Renewing it on your card was refused:" : "Renewing it was refused:"}{" "}
            {subscription.failure}
          </p>
        ) : null}
      </Alert>
    );
  }
  if (status !== "past_due") return null;
  if (blocked) {
    return (
      <Alert title="Payment overdue">
        <p>
          {audience === "seller" ? (
            <LinkedText text={blockedMessage("overdue", "bid")} />
          ) : (
            `The renewal failed${pastDueSince ? ` on ${utcDay(pastDueSince)}` : ""} and the grace period is over: the seller can no longer bid or accept invitations.`
          )}
        </p>
        {audience === "seller" ? <p>Bids you have already placed stand.</p> : null}
      </Alert>
    );
  }
  // Within the grace period the seller still bids: the notice says so, and what to do before it ends.
  return (
    <Alert title={GRACE_NOTICE_TITLE}>
      <p>
        {audience === "seller" ? (
          <LinkedText text={graceMessage(pastDueSince, graceEndsAt)} />
        ) : (
          `The renewal failed${pastDueSince ? ` on ${utcDay(pastDueSince)}` : ""}; the grace period runs until ${graceEndsAt ? utcDay(graceEndsAt) : "now"}: the seller may still bid until then.`
        )}
      </p>
    </Alert>
  );
}

/** Standing, trial end, next charge and card; or why the subscription could not start. */
export function SubscriptionSummary({
  subscription,
  audience,
  cardAction,
}: {
  subscription: SubscriptionView;
  audience: "seller" | "staff";
  /** Shown next to the card (the seller's administrator: a link to replace it). */
  cardAction?: ReactNode;
}) {
  if (subscription.status === "failed") {
    return (
      <>
        <Alert title="Error!">
          <p>
            {audience === "seller"
              ? "Your subscription could not be started. Our staff have been told and will contact you."
              : "The subscription could not be started."}{" "}
            {subscription.failure ? `(${subscription.failure})` : null}
          </p>
        </Alert>
        {cardAction ? <p>{cardAction}</p> : null}
      </>
    );
  }
  const running = subscription.status === "trialing" || subscription.status === "active";
  return (
    <>
      <StandingAlert subscription={subscription} audience={audience} />
      <dl className="summary-list">
        <div>
          <dt>Standing</dt>
          <dd>{standingText(subscription)}</dd>
        </div>
        {subscription.status === "past_due" && subscription.graceEndsAt ? (
          <div>
            <dt>Grace period until</dt>
            <dd>
              <time dateTime={subscription.graceEndsAt}>{utcDay(subscription.graceEndsAt)}</time>
            </dd>
          </div>
        ) : null}
        {subscription.trialEndsAt && subscription.status === "trialing" ? (
          <div>
            <dt>Free trial until</dt>
            <dd>
              <time dateTime={subscription.trialEndsAt}>{utcDay(subscription.trialEndsAt)}</time>
            </dd>
          </div>
        ) : null}
        {running ? (
          <div>
            <dt>Next charge</dt>
            <dd>
              {/* The first charge after the trial includes the processing fee; every renewal after it does not. */}
              {subscription.status === "trialing" ? (
                <>
                  {formatCents(subscription.amountCents)}
                  {subscription.trialEndsAt ? ` on ${utcDay(subscription.trialEndsAt)}` : ""}{" "}
                  {subscription.amountCents === SELLER_FEES_TOTAL
                    ? "(yearly subscription, processing fee and GST)"
                    : "(yearly subscription and GST)"}
                </>
              ) : (
                `${formatCents(SELLER_RENEWAL_CENTS)} at the yearly renewal (yearly subscription and GST)`
              )}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Card</dt>
          <dd>
            {cardLabel(subscription.cardBrand, subscription.cardLast4) ?? "Card ending …"}
            {cardAction ? <> ({cardAction})</> : null}
            {subscription.cardProblem ? <strong className="field-error"> {subscription.cardProblem}</strong> : null}
          </dd>
        </div>
      </dl>
    </>
  );
}
