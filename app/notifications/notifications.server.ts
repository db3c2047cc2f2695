import { and, desc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import type { MessageServices } from "~/messaging/messaging.server";
import type { Database, Transaction } from "~db/database.server";
import { auctions, type NotificationKind, notificationOptOuts, notifications, users } from "~db/schema";
import { OPTIONAL_NOTIFICATION_KINDS } from "./notification-kinds";
import { NOTIFICATIONS_PAGE_SIZE, RECENT_NOTIFICATIONS } from "./notification-pages";

// Notifications (issue 10): every event a user should know of is kept for them (listed on /account)
// and e-mailed, unless it is an optional kind they turned off, or an outbid notice within five
// minutes of the last one they were e-mailed for the same auction.

export type Notice = {
  kind: NotificationKind;
  auctionId?: number | null;
  subject: string;
  lines: string[];
};

/** Outbid e-mails: at most one per user and auction in this window. */
export const OUTBID_EMAIL_WINDOW_MS = 5 * 60_000;

/** The database, or the caller's transaction (the notices are then part of the change that causes them). */
export type NoticeExecutor = Database | Transaction;

async function isPracticeAuction(db: NoticeExecutor, auctionId: number) {
  const [row] = await db.select({ practice: auctions.practice }).from(auctions).where(eq(auctions.id, auctionId));
  return row?.practice === true;
}

/** The users of these organizations who have set up their account. */
async function usersOf(db: NoticeExecutor, organizationIds: number[]) {
  if (organizationIds.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.organizationId, [...new Set(organizationIds)]), isNotNull(users.passwordHash)));
}

/**
 * Keeps the notice for every user of the organizations and queues an e-mail to those who want it.
 * Given `executor` (the caller's transaction), all of it is part of that transaction.
 */
export async function notifyOrganizations(
  services: MessageServices,
  organizationIds: number[],
  notice: Notice,
  executor?: NoticeExecutor,
) {
  const db = executor ?? services.db;
  await notifyUsers(services, await usersOf(db, organizationIds), notice, new Date(), db);
}

/**
 * Each recipient's notification row and its e-mail (queued in the outbox) are written in one
 * transaction (a savepoint of the caller's `executor` when given), so a notice kept is a notice sent.
 */
export async function notifyUsers(
  services: MessageServices,
  recipients: { id: number; email: string }[],
  notice: Notice,
  now = new Date(),
  executor?: NoticeExecutor,
) {
  if (recipients.length === 0) return;
  const db = executor ?? services.db;
  // Nothing about a practice auction (issue 21) is ever notified or e-mailed: this is the one gate.
  if (notice.auctionId && (await isPracticeAuction(db, notice.auctionId))) return;
  const text = notice.lines.join("\n");
  const optedOut = OPTIONAL_NOTIFICATION_KINDS.includes(notice.kind)
    ? new Set(
        (
          await db
            .select({ userId: notificationOptOuts.userId })
            .from(notificationOptOuts)
            .where(
              and(
                eq(notificationOptOuts.kind, notice.kind),
                inArray(
                  notificationOptOuts.userId,
                  recipients.map((recipient) => recipient.id),
                ),
              ),
            )
        ).map((row) => row.userId),
      )
    : new Set<number>();
  for (const recipient of recipients) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notifications)
        .values({
          userId: recipient.id,
          kind: notice.kind,
          auctionId: notice.auctionId ?? null,
          subject: notice.subject,
          text,
          createdAt: now,
        })
        .returning({ id: notifications.id });
      if (!row || optedOut.has(recipient.id)) return;
      if (notice.kind === "outbid" && notice.auctionId) {
        // One at a time per user and auction, so two outbids at the same moment cannot both be e-mailed.
        await tx.execute(sql`select pg_advisory_xact_lock(${recipient.id}, ${notice.auctionId})`);
        const [recent] = await tx
          .select({ id: notifications.id })
          .from(notifications)
          .where(
            and(
              eq(notifications.userId, recipient.id),
              eq(notifications.auctionId, notice.auctionId),
              eq(notifications.kind, "outbid"),
              gt(notifications.emailedAt, new Date(now.getTime() - OUTBID_EMAIL_WINDOW_MS)),
            ),
          )
          .limit(1);
        if (recent) return;
      }
      await tx.update(notifications).set({ emailedAt: now }).where(eq(notifications.id, row.id));
      await queueMessage(tx, services.messaging, {
        channel: "email",
        kind: `${notice.kind} notification`,
        to: recipient.email,
        subject: notice.subject,
        text,
      });
    });
  }
}

/**
 * The user's notifications, newest first, from `offset` on. Read along notifications_user_idx
 * (user_id, id), so a page costs its rows plus the ones skipped, never the other users'.
 */
export function listNotifications(db: Database, userId: number, limit = RECENT_NOTIFICATIONS, offset = 0) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      auctionId: notifications.auctionId,
      subject: notifications.subject,
      createdAt: notifications.createdAt,
      emailed: isNotNull(notifications.emailedAt),
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(limit)
    .offset(offset);
}

/**
 * One page of the user's notifications (from 1) and whether there is an older one. Paged by number,
 * not by a `before=<id>` cursor: ids are counted across every user's notifications, so they would
 * tell a seller how busy an auction is (issue 17).
 */
export async function notificationsPage(db: Database, userId: number, page: number) {
  const rows = await listNotifications(db, userId, NOTIFICATIONS_PAGE_SIZE + 1, (page - 1) * NOTIFICATIONS_PAGE_SIZE);
  return { rows: rows.slice(0, NOTIFICATIONS_PAGE_SIZE), hasOlder: rows.length > NOTIFICATIONS_PAGE_SIZE };
}

/** The optional kinds the user has turned off. */
export async function optOutsOf(db: Database, userId: number): Promise<NotificationKind[]> {
  const rows = await db
    .select({ kind: notificationOptOuts.kind })
    .from(notificationOptOuts)
    .where(eq(notificationOptOuts.userId, userId));
  return rows.map((row) => row.kind);
}

/** Sets which optional kinds the user receives by e-mail: the others are turned off. */
export async function saveNotificationChoices(db: Database, userId: number, wanted: NotificationKind[]) {
  await db.transaction(async (tx) => {
    await tx.delete(notificationOptOuts).where(eq(notificationOptOuts.userId, userId));
    const off = OPTIONAL_NOTIFICATION_KINDS.filter((kind) => !wanted.includes(kind));
    if (off.length > 0) await tx.insert(notificationOptOuts).values(off.map((kind) => ({ userId, kind })));
  });
}
