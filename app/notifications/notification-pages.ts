// How many notifications the pages show (no server code here: the pages' components read it).

/** Notifications on /account: the latest; the rest are on /account/notifications. */
export const RECENT_NOTIFICATIONS = 20;

/** Notifications a page on /account/notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 50;
