import type { NotificationKind } from "~db/notification-kinds";

// The kinds of notification (issue 10) in words; the optional ones can be turned off on /account.

export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  invited: "Invited to an auction",
  opened: "An auction opens",
  outbid: "Outbid (at most one e-mail every 5 minutes per auction)",
  extended: "An auction's end is extended",
  closed: "An auction closes",
  awarded: "Awarded",
  "not-awarded": "Not awarded",
  cancelled: "An auction is cancelled",
  "evaluation-complete": "Technical evaluation complete",
  subscription: "Your subscription and card",
  "bid-on-behalf": "A bid or minimum entered on your behalf",
  question: "A seller asks a question about your auction",
  answer: "A question about an auction is answered",
  "terms-changed": "An auction's terms change",
};

/** What a user may turn off; the others concern their own bids and decisions, and always come. */
export const OPTIONAL_NOTIFICATION_KINDS: readonly NotificationKind[] = ["opened", "outbid", "extended"];
