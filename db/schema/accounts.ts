import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { ORGANIZATION_TYPE_CODES, ROLE_CODES } from "../../app/shared/roles";
import { codeList } from "./columns";
import { timezones } from "./reference-data";

// Accounts (issue 4). Role codes: app/shared/roles.ts.

export const organizations = pgTable(
  "organizations",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The organization's role: buyer, seller (service company) or consultant (auctioneer). */
    organizationType: smallint("organization_type").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("organizations_type_check", sql`${table.organizationType} in ${codeList(ORGANIZATION_TYPE_CODES)}`),
  ],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Stored lower-cased and trimmed, so look-ups are exact. */
    email: text("email").notNull().unique(),
    /** argon2id; null until the user has chosen a password (set-password / account setup). */
    passwordHash: text("password_hash"),
    role: smallint("role").notNull(),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "restrict" }),
    firstName: text("first_name"),
    lastName: text("last_name"),
    timezone: text("timezone").references(() => timezones.name),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true }),
    /** The organization's administrator: invites and removes its users (the first user is one). */
    isOrganizationAdmin: boolean("is_organization_admin").notNull().default(false),
    /** Screen-reader announcements on live auction pages (issue 32): on until the user turns them off. */
    liveAnnouncements: boolean("live_announcements").notNull().default(true),
  },
  (table) => [
    check("users_role_check", sql`${table.role} in ${codeList(ROLE_CODES)}`),
    check("users_email_lowercase_check", sql`${table.email} = lower(${table.email})`),
  ],
);

/** Server-side sessions; the cookie carries the signed id, the table only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").notNull().$type<Record<string, unknown>>(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId), index("sessions_expires_at_idx").on(table.expiresAt)],
);

/** Single-use, expiring links sent by e-mail: password reset, set password, account setup. */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["password_reset", "set_password", "account_setup"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("account_tokens_purpose_check", sql`${table.purpose} in ('password_reset', 'set_password', 'account_setup')`),
    index("account_tokens_user_id_idx").on(table.userId),
  ],
);

/**
 * Pending invitations to an organization (issue 17), listed as "Invited" whatever the address: an
 * address that already has an account gets one too, so the list does not tell an administrator which
 * addresses have accounts. Only an invitation to a new address makes a user row (`userId`, not yet
 * set up); an invitation to an existing account never gives access nor changes that account. Deleted
 * when the invited user sets their password, or when the administrator removes it.
 */
export const organizationInvitations = pgTable(
  "organization_invitations",
  {
    id: serial("id").primaryKey(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lower-cased and trimmed, as users.email. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    /** The not-yet-set-up user the invitation made; null for an address that already had an account. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [
    uniqueIndex("organization_invitations_organization_email_idx").on(table.organizationId, table.email),
    index("organization_invitations_user_id_idx").on(table.userId),
    check("organization_invitations_email_lowercase_check", sql`${table.email} = lower(${table.email})`),
  ],
);

/** Counters of rate-limiter-flexible (its Postgres store's layout), shared by every app machine. */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/** Bearer tokens for staff scripts: shown once, stored as a SHA-256, expiring, revocable. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("api_tokens_user_id_idx").on(table.userId)],
);
