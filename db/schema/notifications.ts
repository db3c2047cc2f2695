import { bigserial, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { NOTIFICATION_KINDS } from "../notification-kinds";
import { users } from "./accounts";
import { auctions } from "./auctions";

// Notifications (issue 10): what happened, per user, listed on /account and e-mailed unless turned off.

export { NOTIFICATION_KINDS, type NotificationKind } from "../notification-kinds";

export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    auctionId: integer("auction_id").references(() => auctions.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** When it was e-mailed; null when the user turned that kind off or it was held back (outbid, 5 minutes). */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("notifications_user_idx").on(table.userId, table.id),
    index("notifications_outbid_idx").on(table.userId, table.auctionId, table.kind, table.emailedAt),
  ],
);

/** The optional kinds a user turned off (e-mail only: every notification is still listed on /account). */
export const notificationOptOuts = pgTable(
  "notification_opt_outs",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);
