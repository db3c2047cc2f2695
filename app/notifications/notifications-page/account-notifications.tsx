import { Link } from "react-router";
import { PageLinks } from "~/layout/page-links";
import { pageTitle } from "~/layout/page-title";
import { pageOf } from "~/layout/pager";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { NotificationItem, toNotificationViews } from "../notification-item";
import { NOTIFICATIONS_PAGE_SIZE } from "../notification-pages";
import { notificationsPage } from "../notifications.server";
import type { Route } from "./+types/account-notifications";

// /account/notifications (issue 20): every notification of the signed-in user, newest first, 50 a
// page; /account shows the latest 20.

const PATH = "/account/notifications";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const page = pageOf(new URL(request.url));
  const { rows, hasOlder } = await notificationsPage(context.get(appServicesContext).db, user.id, page);
  return { page, hasOlder, notifications: toNotificationViews(rows) };
}

export function meta() {
  return [{ title: pageTitle("Notifications") }];
}

export default function AccountNotifications({ loaderData }: Route.ComponentProps) {
  const { notifications, page, hasOlder } = loaderData;
  return (
    <div className="prose">
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Notifications</h1>
      {notifications.length === 0 ? (
        <p>{page === 1 ? "Nothing yet." : "No older notifications."}</p>
      ) : (
        <>
          <p>{`Newest first${page > 1 ? `, page ${page}` : ""}.`}</p>
          <ul>
            {notifications.map((notification) => (
              <NotificationItem key={notification.key} notification={notification} />
            ))}
          </ul>
        </>
      )}
      <PageLinks
        label="Pages of notifications"
        newer={page === 2 ? PATH : page > 2 ? `${PATH}?page=${page - 1}` : null}
        older={hasOlder ? `${PATH}?page=${page + 1}` : null}
      />
      <p className="field__hint">{`${NOTIFICATIONS_PAGE_SIZE} a page. Times are in UTC.`}</p>
    </div>
  );
}
