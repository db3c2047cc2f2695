// The kinds of notification (issue 10), shared by the schema and the pages (no database code here, so
// the browser bundle can use it).

export const NOTIFICATION_KINDS = [
  "invited",
  "opened",
  "outbid",
  "extended",
  "closed",
  "awarded",
  "not-awarded",
  "cancelled",
  "evaluation-complete",
  "subscription",
  "bid-on-behalf",
  "question",
  "answer",
  "terms-changed",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
