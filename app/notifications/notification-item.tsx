import { Link } from "react-router";
import { utcMinute } from "~/shared/dates";

// One notification in a list, the same on /account and /account/notifications.

/** What the pages are given of a notification: no id (issue 17), the time as ISO text. */
export type NotificationView = {
  auctionId: number | null;
  subject: string;
  createdAt: string;
  emailed: boolean;
};

/** Without the ids, for the page (see NotificationView); `key` numbers the rows for React only. */
export function toNotificationViews(
  rows: { auctionId: number | null; subject: string; createdAt: Date; emailed: unknown }[],
): (NotificationView & { key: number })[] {
  return rows.map((row, index) => ({
    key: index,
    auctionId: row.auctionId,
    subject: row.subject,
    emailed: Boolean(row.emailed),
    createdAt: row.createdAt.toISOString(),
  }));
}

export function NotificationItem({ notification }: { notification: NotificationView }) {
  return (
    <li>
      <time dateTime={notification.createdAt}>{utcMinute(notification.createdAt)}</time>
      {": "}
      {notification.auctionId ? (
        <Link to={`/auctions/${notification.auctionId}`}>{notification.subject}</Link>
      ) : (
        notification.subject
      )}
      {notification.emailed ? "" : " (not e-mailed)"}
    </li>
  );
}
