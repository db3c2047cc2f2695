import { date, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./accounts";

/**
 * Expiry reminders already sent (issue 8): one row per organization, document, expiry date and
 * threshold (30 or 7 days), so running the daily job twice sends nothing twice.
 */
export const expiryReminders = pgTable(
  "expiry_reminders",
  {
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Which document: "insurance:in_pollution", "wcb:3", "certification:12", … */
    document: text("document").notNull(),
    expiresOn: date("expires_on", { mode: "string" }).notNull(),
    daysBefore: smallint("days_before").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.document, table.expiresOn, table.daysBefore] })],
);
