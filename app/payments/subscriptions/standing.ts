import { utcDay } from "~/shared/dates";
import type { SubscriptionStatus } from "~db/subscription-statuses";

// A seller's standing (issue 19) as a pure function of its subscription row and the time, shared by
// the enforcement (standing.server.ts) and the pages that show it. No database code: the browser
// bundle uses the labels.

export type { SubscriptionStatus } from "~db/subscription-statuses";

export type StandingRow = { status: SubscriptionStatus; graceEndsAt: Date | null };

/**
 * What a seller may do. `overdue`: past due and the grace period is over; `cancelled`: the
 * subscription ended. A seller with no subscription row (approved before subscriptions existed) or
 * one that could not start (failed, which staff follow up) is not held back by this.
 */
export type Standing = { mayBid: true } | { mayBid: false; reason: "overdue" | "cancelled" };

export function standingOf(row: StandingRow | undefined, now: Date): Standing {
  if (!row) return { mayBid: true };
  if (row.status === "cancelled") return { mayBid: false, reason: "cancelled" };
  if (row.status === "past_due" && (!row.graceEndsAt || row.graceEndsAt.getTime() <= now.getTime())) {
    return { mayBid: false, reason: "overdue" };
  }
  return { mayBid: true };
}

/** Why the seller is held back now, or null. */
export function standingReason(row: StandingRow | undefined, now: Date): "overdue" | "cancelled" | null {
  const standing = standingOf(row, now);
  return standing.mayBid ? null : standing.reason;
}

/** The refusal, in the same words wherever a blocked seller tries to bid or accept an invitation. */
export function blockedMessage(reason: "overdue" | "cancelled", action: "bid" | "accept"): string {
  const what = action === "bid" ? "bid" : "accept invitations";
  return reason === "overdue"
    ? `Your subscription payment is overdue. Update your card at /account/card to ${what} again.`
    : `Your subscription has been cancelled, so you can no longer ${what}. Update your card at /account/card to renew it.`;
}

/** The title of the notice a seller past due but still within the grace period reads. */
export const GRACE_NOTICE_TITLE = "Subscription payment failed";

/**
 * What a seller past due within the grace period is told (issue 32): what is true now (the payment
 * failed, bidding goes on until the grace period ends) and what to do (update the card before then).
 * Dates as the other subscription dates are shown: the UTC day.
 */
export function graceMessage(pastDueSince: Date | string | null, graceEndsAt: Date | string | null): string {
  const failed = pastDueSince ? ` on ${utcDay(pastDueSince)}` : "";
  const until = graceEndsAt ? `until ${utcDay(graceEndsAt)}` : "for now";
  return `Your subscription payment failed${failed}. You can still bid and accept invitations ${until}. Update your card at /account/card before then to keep bidding: after that date bidding stops until the payment goes through.`;
}

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: "Free trial",
  active: "Active",
  past_due: "Past due",
  cancelled: "Cancelled",
  failed: "Could not start",
};
