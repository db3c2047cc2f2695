import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { cardLabel } from "./card-label";
import { formatCents } from "./fees";

/** A seller's subscription as its pages show it (dates as ISO strings, amounts in cents). */
export type SubscriptionView = {
  status: "trialing" | "active" | "failed";
  trialEndsAt: string | null;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  failure: string | null;
};

export function toSubscriptionView(row: {
  status: SubscriptionView["status"];
  trialEndsAt: Date | null;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  failure: string | null;
}): SubscriptionView {
  return { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null };
}

const day = (iso: string) => iso.slice(0, 10);

/** Trial end, next charge and card; or why the subscription could not start. */
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
  return (
    <dl className="summary-list">
      {subscription.trialEndsAt ? (
        <div>
          <dt>Free trial until</dt>
          <dd>
            <time dateTime={subscription.trialEndsAt}>{day(subscription.trialEndsAt)}</time>
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Next charge</dt>
        <dd>
          {formatCents(subscription.amountCents)}
          {subscription.trialEndsAt ? ` on ${day(subscription.trialEndsAt)}` : ""} (yearly subscription, processing fee
          and GST)
        </dd>
      </div>
      <div>
        <dt>Card</dt>
        <dd>
          {cardLabel(subscription.cardBrand, subscription.cardLast4) ?? "Card ending …"}
          {cardAction ? <> ({cardAction})</> : null}
        </dd>
      </div>
    </dl>
  );
}
