import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The app machines serving now (issue 33, decision 028), each renewing its row every few seconds and
 * deleting it when it stops: from them each machine works out which one takes an auction's bids.
 */
export const appMachines = pgTable("app_machines", {
  /** Fly's machine id, or host, process and a random part elsewhere. */
  id: text("id").primaryKey(),
  /** Where the other machines reach it (on Fly its private 6PN address). */
  url: text("url").notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
});
