import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { ORGANIZATION_TYPE_CODES } from "../../app/shared/roles";
import { organizations, users } from "./accounts";
import { serviceAreas } from "./catalogue";
import { codeList } from "./columns";
import { countries, industries } from "./reference-data";

// Registration (issue 6): SMS-verified sign-up → privacy policy → terms → the type's form → staff review.

/** One request for an SMS access code (step 1). A new request for the same number supersedes the last. */
export const registrationRequests = pgTable(
  "registration_requests",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    organizationName: text("organization_name").notNull(),
    /** The organization's role: buyer, seller (service company) or consultant (auctioneer). */
    organizationType: smallint("organization_type").notNull(),
    /** E.164, e.g. +17805551234. */
    mobileNumber: text("mobile_number").notNull(),
    /** SHA-256 of salt + the 6-digit code; the code itself exists only in the SMS. */
    codeSalt: text("code_salt").notNull(),
    codeHash: text("code_hash").notNull(),
    codeExpiresAt: timestamp("code_expires_at", { withTimezone: true }).notNull(),
    attemptsLeft: smallint("attempts_left").notNull().default(5),
    /** Codes sent for this request (the first and every resend). */
    codesSent: smallint("codes_sent").notNull().default(1),
    lastCodeSentAt: timestamp("last_code_sent_at", { withTimezone: true }).notNull().defaultNow(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("registration_requests_type_check", sql`${table.organizationType} in ${codeList(ORGANIZATION_TYPE_CODES)}`),
    check("registration_requests_attempts_check", sql`${table.attemptsLeft} >= 0`),
    index("registration_requests_mobile_idx").on(table.mobileNumber, table.id),
  ],
);

/** Every access-code SMS, for the per-number and per-client send limits. */
export const registrationCodeSends = pgTable(
  "registration_code_sends",
  {
    id: serial("id").primaryKey(),
    mobileNumber: text("mobile_number").notNull(),
    clientAddress: text("client_address").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("registration_code_sends_mobile_idx").on(table.mobileNumber, table.sentAt),
    index("registration_code_sends_client_idx").on(table.clientAddress, table.sentAt),
  ],
);

/**
 * Issued when the code is verified (step 2); carries the applicant through the later steps.
 * Stored hashed, expiring, and spent by the registration it leads to.
 */
export const registrationAccessTokens = pgTable(
  "registration_access_tokens",
  {
    id: serial("id").primaryKey(),
    registrationRequestId: integer("registration_request_id")
      .notNull()
      .unique()
      .references(() => registrationRequests.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The legal texts' "last updated" dates, as versions. */
    privacyPolicyVersion: text("privacy_policy_version"),
    privacyPolicyAcceptedAt: timestamp("privacy_policy_accepted_at", { withTimezone: true }),
    termsVersion: text("terms_version"),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "registration_access_tokens_order_check",
      sql`${table.termsAcceptedAt} is null or ${table.privacyPolicyAcceptedAt} is not null`,
    ),
  ],
);

/**
 * A submitted application (step 5), awaiting staff review. The columns common to every type;
 * the seller's own data goes in tables that reference this one.
 */
export const registrations = pgTable(
  "registrations",
  {
    id: serial("id").primaryKey(),
    /** Unique: one registration per access token, whatever the number of submissions. */
    accessTokenId: integer("access_token_id")
      .notNull()
      .unique()
      .references(() => registrationAccessTokens.id, { onDelete: "restrict" }),
    organizationType: smallint("organization_type").notNull(),
    /** changes_requested: staff asked the applicant to change it; their resubmission makes it submitted again. */
    status: text("status", { enum: ["submitted", "changes_requested", "approved", "rejected"] })
      .notNull()
      .default("submitted"),
    name: text("name").notNull(),
    address: text("address").notNull(),
    city: text("city").notNull(),
    /** Province code (CA), state code (US) or free text. */
    state: text("state").notNull(),
    countryCode: text("country_code")
      .notNull()
      .references(() => countries.code),
    postalZip: text("postal_zip").notNull(),
    phone: text("phone").notNull(),
    fax: text("fax"),
    email: text("email").notNull(),
    primaryIndustryId: integer("primary_industry_id")
      .notNull()
      .references(() => industries.id),
    /** Buyers and consultants: Open Invoice, Cortex, Email Invoice or Mail Invoice. */
    billingPreference: text("billing_preference", {
      enum: ["Open Invoice", "Cortex", "Email Invoice", "Mail Invoice"],
    }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedByUserId: integer("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The organization an approval created. */
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "restrict" }),
    /**
     * SHA-256 of the data as first submitted, normalized (registration-submission.server.ts): a replay
     * of the spent access token is answered with this registration only when it sends the same data.
     */
    submissionHash: text("submission_hash"),
  },
  (table) => [
    check("registrations_type_check", sql`${table.organizationType} in ${codeList(ORGANIZATION_TYPE_CODES)}`),
    check(
      "registrations_status_check",
      sql`${table.status} in ('submitted', 'changes_requested', 'approved', 'rejected')`,
    ),
    check(
      "registrations_billing_preference_check",
      sql`${table.billingPreference} is null or ${table.billingPreference} in ('Open Invoice', 'Cortex', 'Email Invoice', 'Mail Invoice')`,
    ),
    index("registrations_status_idx").on(table.status, table.submittedAt),
  ],
);

/** The people of a registration: primary, alternate, accounting (buyer, consultant); sales, operations (seller). */
export const registrationContacts = pgTable(
  "registration_contacts",
  {
    id: serial("id").primaryKey(),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["primary", "alternate", "accounting", "sales", "operations"] }).notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    /** Seller key personnel (sales, operations): experience and skills summaries. */
    experience: text("experience"),
    skills: text("skills"),
  },
  (table) => [
    check(
      "registration_contacts_role_check",
      sql`${table.role} in ('primary', 'alternate', 'accounting', 'sales', 'operations')`,
    ),
    uniqueIndex("registration_contacts_role_idx").on(table.registrationId, table.role),
  ],
);

export const registrationServiceAreas = pgTable(
  "registration_service_areas",
  {
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    serviceAreaId: integer("service_area_id")
      .notNull()
      .references(() => serviceAreas.id, { onDelete: "restrict" }),
  },
  (table) => [
    primaryKey({ columns: [table.registrationId, table.serviceAreaId] }),
    index("registration_service_areas_area_idx").on(table.serviceAreaId),
  ],
);
