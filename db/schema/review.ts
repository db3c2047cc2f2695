import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations, users } from "./accounts";
import { registrations } from "./registration";

// Staff review (issue 8): the history of a registration, for the audit log staff read: each decision
// (approve, reject, ask for changes, with who and why) and each resubmission by the applicant.

export const registrationDecisions = pgTable(
  "registration_decisions",
  {
    id: serial("id").primaryKey(),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    /** Null for the applicant's resubmission (and once a staff user is deleted). */
    staffUserId: integer("staff_user_id").references(() => users.id, { onDelete: "set null" }),
    decision: text("decision", { enum: ["approved", "rejected", "changes_requested", "resubmitted"] }).notNull(),
    /** The reason for a rejection, or the message asking for changes. */
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "registration_decisions_decision_check",
      sql`${table.decision} in ('approved', 'rejected', 'changes_requested', 'resubmitted')`,
    ),
    // One final decision per registration: the database refuses a second even if two staff race.
    uniqueIndex("registration_decisions_final_idx")
      .on(table.registrationId)
      .where(sql`${table.decision} in ('approved', 'rejected')`),
    index("registration_decisions_registration_idx").on(table.registrationId, table.createdAt),
  ],
);

/**
 * The link that reopens an application whose changes staff asked for (issue 8): stored as a hash,
 * expiring, spent by the resubmission. A new request for changes replaces an unspent one.
 */
export const registrationChangeTokens = pgTable(
  "registration_change_tokens",
  {
    id: serial("id").primaryKey(),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("registration_change_tokens_registration_idx").on(table.registrationId)],
);

/**
 * Changes an organization made to its profile after approval (issue 8), for staff: who, when, which
 * part, and each changed field with its value before and after.
 */
export const organizationChanges = pgTable(
  "organization_changes",
  {
    id: serial("id").primaryKey(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** What was changed: "profile" or "card". */
    subject: text("subject").notNull(),
    changes: jsonb("changes").notNull().$type<{ field: string; before: string; after: string }[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("organization_changes_organization_idx").on(table.organizationId, table.createdAt)],
);
