import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { ORGANIZATION_TYPE_CODES, ROLE_CODES } from "../app/shared/roles";
import { BILLING_PREFERENCES, DELIVERY_STATES, EXPORT_NETWORKS } from "./invoice-terms";
import { NOTIFICATION_KINDS } from "./notification-kinds";
import { SUBSCRIPTION_STATUSES } from "./subscription-statuses";

// Reference data (spec section 3). Loaded idempotently by db/seed.ts at every start.

export const industries = pgTable("industries", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

export const countries = pgTable("countries", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const provinces = pgTable("provinces", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

export const usStates = pgTable("us_states", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const timezones = pgTable("timezones", {
  name: text("name").primaryKey(),
  offsetMinutes: integer("offset_minutes").notNull(),
  label: text("label").notNull(),
});

export const certificationOptions = pgTable("certification_options", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  position: integer("position").notNull(),
});

// Every e-mail and SMS (issue 19): a durable outbox, written in the transaction of the change that
// causes the message and delivered afterwards (app/messaging/delivery/). Rows of a channel that has no
// provider configured are the dev outbox: 'sent' at once, nothing to deliver.
export const OUTBOX_STATUSES = ["queued", "sending", "sent", "failed"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export const OUTBOX_PROVIDERS = ["postmark", "twilio", "outbox"] as const;
export type OutboxProvider = (typeof OUTBOX_PROVIDERS)[number];
/** An e-mail attachment as Postmark takes it. */
export type OutboxAttachment = { name: string; contentType: string; contentBase64: string };

export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: serial("id").primaryKey(),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    /** What the message is ("password-reset", "decision", "outbid notification", ...), for staff. */
    kind: text("kind").notNull().default("message"),
    to: text("to").notNull(),
    subject: text("subject"),
    text: text("text").notNull(),
    attachments: jsonb("attachments").$type<OutboxAttachment[]>(),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("sent"),
    /** Chosen when queued: the provider configured then. */
    provider: text("provider", { enum: OUTBOX_PROVIDERS }).notNull().default("outbox"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While 'sending': the claim's end; a claim past it belongs to a crashed process and is taken again. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    /** The provider's last answer (or why it could not be reached). */
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The message this row is a copy of (staff resent it). */
    resendOf: integer("resend_of").references((): AnyPgColumn => outboxMessages.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("outbox_messages_channel_check", sql`${table.channel} in ('sms', 'email')`),
    check("outbox_messages_status_check", sql`${table.status} in ('queued', 'sending', 'sent', 'failed')`),
    check("outbox_messages_provider_check", sql`${table.provider} in ('postmark', 'twilio', 'outbox')`),
    // The drain query: due rows still to deliver.
    index("outbox_messages_due_idx").on(table.nextAttemptAt).where(sql`${table.status} in ('queued', 'sending')`),
    // The dev outbox and the staff page: newest first, by provider and by status.
    index("outbox_messages_provider_created_idx").on(table.provider, table.createdAt),
    index("outbox_messages_status_id_idx").on(table.status, table.id),
  ],
);

// Accounts (issue 4). Role codes: app/shared/roles.ts.

/** "(2, 3, 4)": a list of codes for a check constraint, written out as the migrations have it. */
const codeList = (codes: readonly number[]) => sql.raw(`(${codes.join(", ")})`);

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

// Catalogue (issue 5): the service hierarchy and the service areas sellers and buyers choose from.

/** Top group (depth 1) → sub-service (2) → sub-sub-service (3); never deeper. */
export const services = pgTable(
  "services",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    costAccountCode: text("cost_account_code"),
    parentId: integer("parent_id").references((): AnyPgColumn => services.id, { onDelete: "restrict" }),
    depth: smallint("depth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("services_depth_check", sql`${table.depth} between 1 and 3`),
    uniqueIndex("services_name_per_parent_idx").on(sql`coalesce(${table.parentId}, 0)`, sql`lower(${table.name})`),
    index("services_parent_id_idx").on(table.parentId),
  ],
);

export const serviceAreas = pgTable(
  "service_areas",
  {
    id: serial("id").primaryKey(),
    city: text("city").notNull(),
    provinceId: integer("province_id")
      .notNull()
      .references(() => provinces.id, { onDelete: "restrict" }),
    countryCode: text("country_code")
      .notNull()
      .references(() => countries.code),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("service_areas_city_per_province_idx").on(table.provinceId, sql`lower(${table.city})`)],
);

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

/** Bumped in every catalogue write transaction; app machines compare it to refresh their read caches. */
export const catalogueRevision = pgTable("catalogue_revision", {
  id: smallint("id").primaryKey(),
  revision: bigint("revision", { mode: "number" }).notNull(),
});

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

// Seller registration (issue 7): the seller additions of spec section 3, hanging off registrations.

/** The coverage tiers of spec section 5; optional insurance also takes 'No'. */
const COVERAGE_TIERS_SQL = sql.raw(
  ["$500,000 - $1,000,000", "$1,000,000 minimum", "$2,000,000 minimum", "$5,000,000 minimum", "more than $5 million"]
    .map((tier) => `'${tier}'`)
    .join(", "),
);

/** Safety program, certifications, insurance, WCB coverage, feedback and the saved card of one seller registration. */
export const sellerRegistrations = pgTable(
  "seller_registrations",
  {
    registrationId: integer("registration_id")
      .primaryKey()
      .references(() => registrations.id, { onDelete: "cascade" }),
    /** Yes/no answers; null when not answered (the section is recommended, not required). */
    saWrittenSafetyProgram: boolean("sa_written_safety_program"),
    saConductHazardAssessments: boolean("sa_conduct_hazard_assessments"),
    saSafeWorkProcedures: boolean("sa_safe_work_procedures"),
    saOneManOp: boolean("sa_one_man_op"),
    saThirdPartySub: boolean("sa_third_party_sub"),
    /** Null when the certification is not held. */
    scComplyWorksExpiry: date("sc_comply_works_expiry", { mode: "string" }),
    scIsnetWorldExpiry: date("sc_isnet_world_expiry", { mode: "string" }),
    scSecorExpiry: date("sc_secor_expiry", { mode: "string" }),
    inCommercialGeneral: text("in_commercial_general").notNull(),
    inCommercialGeneralExpiry: date("in_commercial_general_expiry", { mode: "string" }).notNull(),
    inThirdPartyAutomobile: text("in_third_party_automobile").notNull(),
    inThirdPartyAutomobileExpiry: date("in_third_party_automobile_expiry", { mode: "string" }).notNull(),
    inAircraft: text("in_aircraft").notNull().default("No"),
    inAircraftExpiry: date("in_aircraft_expiry", { mode: "string" }),
    inPollution: text("in_pollution").notNull().default("No"),
    inPollutionExpiry: date("in_pollution_expiry", { mode: "string" }),
    inFire: text("in_fire").notNull().default("No"),
    inFireExpiry: date("in_fire_expiry", { mode: "string" }),
    inErrorsOmissions: text("in_errors_omissions").notNull().default("No"),
    inErrorsOmissionsExpiry: date("in_errors_omissions_expiry", { mode: "string" }),
    inWcbCoverageNumber: text("in_wcb_coverage_number"),
    inWcbExpiry: date("in_wcb_expiry", { mode: "string" }),
    feedback: text("feedback"),
    /** card_saved: the provider holds the card (nothing charged); awaiting_payment: sent to Stripe Checkout. */
    paymentStatus: text("payment_status", { enum: ["card_saved", "awaiting_payment"] }).notNull(),
    paymentProvider: text("payment_provider", { enum: ["stripe", "test"] }).notNull(),
    /** The provider's ids, brand and last four digits only: never the card number. */
    paymentCustomerId: text("payment_customer_id"),
    paymentMethodId: text("payment_method_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    checkoutSessionId: text("checkout_session_id").unique(),
    cardSavedAt: timestamp("card_saved_at", { withTimezone: true }),
  },
  (table) => [
    check(
      "seller_registrations_required_insurance_check",
      sql`${table.inCommercialGeneral} in (${COVERAGE_TIERS_SQL}) and ${table.inThirdPartyAutomobile} in (${COVERAGE_TIERS_SQL})`,
    ),
    check(
      "seller_registrations_optional_insurance_check",
      sql`${table.inAircraft} in ('No', ${COVERAGE_TIERS_SQL}) and ${table.inPollution} in ('No', ${COVERAGE_TIERS_SQL})
        and ${table.inFire} in ('No', ${COVERAGE_TIERS_SQL}) and ${table.inErrorsOmissions} in ('No', ${COVERAGE_TIERS_SQL})`,
    ),
    check(
      "seller_registrations_optional_expiry_check",
      sql`(${table.inAircraft} = 'No' or ${table.inAircraftExpiry} is not null)
        and (${table.inPollution} = 'No' or ${table.inPollutionExpiry} is not null)
        and (${table.inFire} = 'No' or ${table.inFireExpiry} is not null)
        and (${table.inErrorsOmissions} = 'No' or ${table.inErrorsOmissionsExpiry} is not null)`,
    ),
    check(
      "seller_registrations_payment_check",
      sql`(${table.paymentStatus} = 'awaiting_payment' and ${table.checkoutSessionId} is not null)
        or (${table.paymentStatus} = 'card_saved' and ${table.paymentCustomerId} is not null and ${table.paymentMethodId} is not null)`,
    ),
  ],
);

/** WCB accounts by state/province; only complete entries are kept. */
export const registrationWcbs = pgTable(
  "registration_wcbs",
  {
    id: serial("id").primaryKey(),
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    sortOrder: smallint("sort_order").notNull(),
    state: text("state").notNull(),
    number: text("number").notNull(),
    expiresOn: date("expires_on", { mode: "string" }).notNull(),
  },
  (table) => [index("registration_wcbs_registration_idx").on(table.registrationId)],
);

/** The service categories a seller offers (at least one). */
export const registrationServices = pgTable(
  "registration_services",
  {
    registrationId: integer("registration_id")
      .notNull()
      .references(() => registrations.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
  },
  (table) => [
    primaryKey({ columns: [table.registrationId, table.serviceId] }),
    index("registration_services_service_idx").on(table.serviceId),
  ],
);

const yearCheck = (name: string, column: AnyPgColumn) =>
  check(name, sql`${column} is null or ${column} between 1950 and 2200`);

/** A seller key person's work experience (the person is a registration_contacts row, role sales or operations). */
export const keyPersonWorkExperiences = pgTable(
  "key_person_work_experiences",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => registrationContacts.id, { onDelete: "cascade" }),
    sortOrder: smallint("sort_order").notNull(),
    companyName: text("company_name").notNull(),
    position: text("position"),
    startYear: smallint("start_year"),
    endYear: smallint("end_year"),
    responsibilities: text("responsibilities"),
  },
  (table) => [
    index("key_person_work_experiences_contact_idx").on(table.contactId),
    yearCheck("key_person_work_experiences_start_year_check", table.startYear),
    yearCheck("key_person_work_experiences_end_year_check", table.endYear),
  ],
);

/** A seller key person's certification: one of the certification_options, with its expiry. */
export const keyPersonCertifications = pgTable(
  "key_person_certifications",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => registrationContacts.id, { onDelete: "cascade" }),
    sortOrder: smallint("sort_order").notNull(),
    certificationOptionId: integer("certification_option_id")
      .notNull()
      .references(() => certificationOptions.id, { onDelete: "restrict" }),
    expiresOn: date("expires_on", { mode: "string" }),
  },
  (table) => [index("key_person_certifications_contact_idx").on(table.contactId)],
);

/** A seller key person's technical training or education. */
export const keyPersonEducation = pgTable(
  "key_person_education",
  {
    id: serial("id").primaryKey(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => registrationContacts.id, { onDelete: "cascade" }),
    sortOrder: smallint("sort_order").notNull(),
    programName: text("program_name").notNull(),
    certDegree: text("cert_degree"),
    startYear: smallint("start_year"),
    endYear: smallint("end_year"),
  },
  (table) => [
    index("key_person_education_contact_idx").on(table.contactId),
    yearCheck("key_person_education_start_year_check", table.startYear),
    yearCheck("key_person_education_end_year_check", table.endYear),
  ],
);

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

/**
 * A seller's yearly subscription, started when staff approve (issue 8). A failure to start it is
 * kept here too: the approval stands, and the account and staff see the problem.
 */
export const sellerSubscriptions = pgTable(
  "seller_subscriptions",
  {
    organizationId: integer("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    subscriptionId: text("subscription_id"),
    /**
     * The seller's standing (issue 19): trialing, active, past_due (a renewal failed; the grace period
     * runs), cancelled, or failed (could not start at approval). Moved by the provider's events.
     */
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    /** When a renewal first failed (Stripe's time); null unless past due. */
    pastDueSince: timestamp("past_due_since", { withTimezone: true }),
    /** Until when a past-due seller may still bid; fixed when it went past due (SUBSCRIPTION_GRACE_DAYS). */
    graceEndsAt: timestamp("grace_ends_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** The `created` time of the newest provider event applied: an older one changes nothing. */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    /** A problem with the card on file (expiring, removed), shown until the card is replaced. */
    cardProblem: text("card_problem"),
    /** What the first charge after the trial comes to, tax included. */
    amountCents: integer("amount_cents").notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    failure: text("failure"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "seller_subscriptions_status_check",
      sql`${table.status} in ('trialing', 'active', 'past_due', 'cancelled', 'failed')`,
    ),
    check("seller_subscriptions_provider_check", sql`${table.provider} in ('stripe', 'test')`),
    index("seller_subscriptions_subscription_idx").on(table.subscriptionId),
  ],
);

/**
 * Every event the card provider sent us (issue 19), once: keyed by the provider's event id, so a
 * replay changes nothing. Stored by the webhook in the request, processed outside it by a drain
 * (state received → processed, ignored, or failed after its last retry, with the error). The test provider's own events
 * (evt_test_…) go through the same table and the same code.
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    /** The event's `created` (Stripe's clock). */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    payload: jsonb("payload").notNull(),
    state: text("state", { enum: ["received", "processed", "ignored", "failed"] })
      .notNull()
      .default("received"),
    /** The error of the last attempt that threw (kept after a later success, for staff). */
    lastError: text("last_error"),
    attempts: integer("attempts").notNull().default(0),
    /** A received event is not taken before this (the backoff after a failed attempt). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    check("provider_events_state_check", sql`${table.state} in ('received', 'processed', 'ignored', 'failed')`),
    index("provider_events_pending_idx").on(table.state, table.nextAttemptAt),
    index("provider_events_received_idx").on(table.receivedAt),
  ],
);

/** A seller subscription's history for staff: each provider event matched to it and the status it left. */
export const subscriptionEvents = pgTable(
  "subscription_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    /** The event's own time (Stripe's `created`). */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** What it did, in words ("Renewal payment failed", "Older than the last event: no change"). */
    summary: text("summary").notNull(),
    appliedAt: timestamp("applied_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("subscription_events_event_idx").on(table.organizationId, table.eventId),
    index("subscription_events_organization_idx").on(table.organizationId, table.id),
  ],
);

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

/**
 * A seller replacing its card on Stripe Checkout (setup mode) without JavaScript: the session, until
 * the seller is back and the new card is in use.
 */
export const cardUpdateCheckouts = pgTable("card_update_checkouts", {
  sessionId: text("session_id").primaryKey(),
  organizationId: integer("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  completedAt: timestamp("completed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// Reverse auctions (issue 9). Money in integer cents (bigint: large projects), times in UTC. Every
// change to an auction's bidding happens in one transaction holding the auction's row lock.

/** File contents kept in the database, so every app machine serves the same documents. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const AUCTION_STATUSES = ["draft", "scheduled", "open", "closed", "awarded", "cancelled"] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];

export const auctions = pgTable(
  "auctions",
  {
    id: serial("id").primaryKey(),
    /** The buyer or consultant organization that runs it (a consultant acts for a buyer). */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    serviceAreaId: integer("service_area_id")
      .notNull()
      .references(() => serviceAreas.id, { onDelete: "restrict" }),
    /** The buyer's maximum: no bid may exceed it. */
    reserveCents: bigint("reserve_cents", { mode: "number" }).notNull(),
    /** A bid must beat the lowest by this much: cents, or basis points of the lowest (100 = 1 %). */
    decrementKind: text("decrement_kind", { enum: ["amount", "percent"] }).notNull(),
    decrementValue: integer("decrement_value").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    /** The current end, moved later by soft-close extensions. */
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** The end as scheduled, before any extension. */
    scheduledEndsAt: timestamp("scheduled_ends_at", { withTimezone: true }).notNull(),
    /** A bid in the last N minutes moves the end M minutes later, at most `cap` minutes past the scheduled end. */
    softCloseWindowMinutes: smallint("soft_close_window_minutes").notNull(),
    softCloseExtensionMinutes: smallint("soft_close_extension_minutes").notNull(),
    softCloseCapMinutes: integer("soft_close_cap_minutes").notNull(),
    extensions: smallint("extensions").notNull().default(0),
    status: text("status", { enum: AUCTION_STATUSES }).notNull().default("draft"),
    /** reverse: sellers bid the price down in the open; sealed: one sealed bid each, read after the deadline. */
    kind: text("kind", { enum: ["reverse", "sealed"] })
      .notNull()
      .default("reverse"),
    /** The consultant organization that evaluates the bids technically; null: the organization running it. */
    evaluatorOrganizationId: integer("evaluator_organization_id").references(() => organizations.id),
    /** Share of price in the ranking (0 to 100); technical merit counts for the rest. */
    priceWeightPercent: smallint("price_weight_percent").notNull().default(100),
    /** A technical score (0 to 100) under this excludes a bid; null: none. */
    technicalPassMark: smallint("technical_pass_mark"),
    evaluationCompletedAt: timestamp("evaluation_completed_at", { withTimezone: true }),
    /** Orders every bid and auto-bid of the auction: ties go to the lower number (entered first). */
    sequence: integer("sequence").notNull().default(0),
    /** The standing lowest bid, kept with each bid for fast reads. */
    lowestBidId: bigint("lowest_bid_id", { mode: "number" }),
    lowestCents: bigint("lowest_cents", { mode: "number" }),
    leaderOrganizationId: integer("leader_organization_id").references(() => organizations.id),
    bidCount: integer("bid_count").notNull().default(0),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    awardedBidId: bigint("awarded_bid_id", { mode: "number" }),
    awardedOrganizationId: integer("awarded_organization_id").references(() => organizations.id),
    /** Why the lowest bid was passed over, when it was. */
    awardReason: text("award_reason"),
    awardedAt: timestamp("awarded_at", { withTimezone: true }),
    awardedByUserId: integer("awarded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The per-auction buyer fee recorded at award (spec section 1), from the fees configuration. */
    buyerFeeCents: integer("buyer_fee_cents"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    /**
     * A seller's private practice auction (issue 21): never listed, reported, notified, fee'd or
     * invoiced; only the practising seller sees it.
     */
    practice: boolean("practice").notNull().default(false),
    /** The auction this one was copied from (issue 21), if it was. */
    copiedFromAuctionId: integer("copied_from_auction_id").references((): AnyPgColumn => auctions.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "auctions_status_check",
      sql`${table.status} in ('draft', 'scheduled', 'open', 'closed', 'awarded', 'cancelled')`,
    ),
    check(
      "auctions_decrement_check",
      sql`${table.decrementKind} in ('amount', 'percent') and ${table.decrementValue} > 0`,
    ),
    check("auctions_reserve_check", sql`${table.reserveCents} > 0`),
    check("auctions_kind_check", sql`${table.kind} in ('reverse', 'sealed')`),
    check(
      "auctions_evaluation_check",
      sql`${table.priceWeightPercent} between 0 and 100 and (${table.technicalPassMark} is null or ${table.technicalPassMark} between 0 and 100)`,
    ),
    check(
      "auctions_times_check",
      sql`${table.startsAt} < ${table.scheduledEndsAt} and ${table.scheduledEndsAt} <= ${table.endsAt}`,
    ),
    check(
      "auctions_soft_close_check",
      sql`${table.softCloseWindowMinutes} >= 0 and ${table.softCloseExtensionMinutes} >= 0 and ${table.softCloseCapMinutes} >= 0`,
    ),
    index("auctions_organization_idx").on(table.organizationId, table.createdAt),
    // The closing job looks for auctions past their end.
    index("auctions_status_ends_idx").on(table.status, table.endsAt),
  ],
);

/** Documents attached to an auction (size and type checked on upload). */
export const auctionDocuments = pgTable(
  "auction_documents",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    uploadedByUserId: integer("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auction_documents_auction_idx").on(table.auctionId)],
);

/**
 * A seller's question about an auction (issue 21) and the answer of the auction's side: private (the
 * asker's organization only) until published to every invited seller, never with the asker's name.
 */
export const auctionQuestions = pgTable(
  "auction_questions",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    /** The invited seller that asked. */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    askedByUserId: integer("asked_by_user_id").references(() => users.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    /** An optional file, checked as auction documents are (app/auctions/documents). */
    attachmentName: text("attachment_name"),
    attachmentType: text("attachment_type"),
    attachmentSizeBytes: integer("attachment_size_bytes"),
    attachment: bytea("attachment"),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    answer: text("answer"),
    answeredByUserId: integer("answered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** When the answer was shown to every invited seller (without the asker); null: the asker only. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** The answer says the terms were changed because of this question. */
    termsChanged: boolean("terms_changed").notNull().default(false),
  },
  (table) => [
    index("auction_questions_auction_idx").on(table.auctionId, table.organizationId),
    check("auction_questions_answer_check", sql`(${table.answer} is null) = (${table.answeredAt} is null)`),
    check("auction_questions_published_check", sql`${table.publishedAt} is null or ${table.answeredAt} is not null`),
    check("auction_questions_attachment_check", sql`(${table.attachment} is null) = (${table.attachmentName} is null)`),
  ],
);

/** The sellers invited to an auction, each known to the others only by an alias. */
export const auctionInvitations = pgTable(
  "auction_invitations",
  {
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** "Seller A", "Seller B", …: what every seller sees of a competitor. */
    alias: text("alias").notNull(),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    termsAcceptedByUserId: integer("terms_accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    primaryKey({ columns: [table.auctionId, table.organizationId] }),
    uniqueIndex("auction_invitations_alias_idx").on(table.auctionId, table.alias),
    index("auction_invitations_organization_idx").on(table.organizationId),
  ],
);

/** A seller's secret minimum: the system bids for them down to it. One per seller and auction. */
export const auctionAutoBids = pgTable(
  "auction_auto_bids",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    minimumCents: bigint("minimum_cents", { mode: "number" }).notNull(),
    /** The auction's sequence number when this minimum was entered: the earlier owns a tie. */
    enteredSequence: integer("entered_sequence").notNull(),
    setByUserId: integer("set_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Set on the seller's behalf (issue 21): who asked and when, as the one who set it noted; null when the seller set it. */
    onBehalfNote: text("on_behalf_note"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("auction_auto_bids_seller_idx").on(table.auctionId, table.organizationId),
    check("auction_auto_bids_minimum_check", sql`${table.minimumCents} > 0`),
  ],
);

/** Every bid, binding and never deleted; an automatic one names the bid or auto-bid change that set it off. */
export const auctionBids = pgTable(
  "auction_bids",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "restrict" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    /** Who placed a manual bid, or set the minimum an automatic one came from. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    kind: text("kind", { enum: ["manual", "auto"] }).notNull(),
    /** Sequence rank for ties: equal amounts go to the lower rank. */
    rank: integer("rank").notNull(),
    /** The manual bid, or the auto-bid change, that set off this automatic bid. */
    triggeredByBidId: bigint("triggered_by_bid_id", { mode: "number" }).references((): AnyPgColumn => auctionBids.id),
    triggeredByAutoBidId: integer("triggered_by_auto_bid_id").references(() => auctionAutoBids.id),
    /**
     * A manual bid entered on the seller's behalf (issue 21: the seller phoned): who entered it (then
     * `user_id` is null: no user of the seller placed it) and their note of who asked and when.
     */
    enteredByUserId: integer("entered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    onBehalfNote: text("on_behalf_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("auction_bids_kind_check", sql`${table.kind} in ('manual', 'auto')`),
    check("auction_bids_on_behalf_check", sql`${table.onBehalfNote} is null or ${table.kind} = 'manual'`),
    check("auction_bids_amount_check", sql`${table.amountCents} > 0`),
    index("auction_bids_auction_idx").on(table.auctionId, table.id),
    // With the amount, a seller's own lowest bid (read with every bid) is one index lookup.
    index("auction_bids_seller_idx").on(table.auctionId, table.organizationId, table.amountCents),
  ],
);

/**
 * What happened to an auction, in order: the audit trail (who did what) and the feed of live
 * updates. `data` may hold what only the buyer side may see; sellers get views built for them.
 */
export const auctionEvents = pgTable(
  "auction_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "set null" }),
    data: jsonb("data").notNull().$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auction_events_auction_idx").on(table.auctionId, table.id)],
);

/**
 * What a round of accepted bids means for the other parties (issue 19), written in the round's own
 * guarded statement and told (outbid, extended) by a fold after the commit: one row per round, not
 * per bid. Only pending rows are kept: the fold deletes the rows it told, in the transaction that
 * writes the notifications (which, with the auction's events, are the record).
 */
/** A bid or minimum entered on a seller's behalf, as its round's effects keep it until the seller is told. */
export type OnBehalfEffect = {
  sellerId: number;
  what: "bid" | "minimum";
  amountCents: number;
  /** Who entered it. */
  userId: number;
  note: string;
};

export const bidEffects = pgTable(
  "bid_effects",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    /** The sellers who lost the lead in the round (told only if they have not taken it back by the fold). */
    outbidOrganizationIds: integer("outbid_organization_ids").array().notNull(),
    /** Whether a late bid moved the end; `endsAt` is the end the round left. */
    extended: boolean("extended").notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Bids and minimums the round took on a seller's behalf (issue 21): each seller is owed a notice. */
    onBehalf: jsonb("on_behalf").notNull().default([]).$type<OnBehalfEffect[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("bid_effects_auction_idx").on(table.auctionId, table.id),
    index("bid_effects_created_idx").on(table.createdAt),
  ],
);

// Closed-bid (sealed) auctions and technical evaluation (issue 10).

/** The documents each sealed bid must carry (price schedule, technical proposal, safety documents…). */
export const auctionBidRequirements = pgTable(
  "auction_bid_requirements",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sortOrder: smallint("sort_order").notNull(),
  },
  (table) => [uniqueIndex("auction_bid_requirements_name_idx").on(table.auctionId, sql`lower(${table.name})`)],
);

/** A seller's sealed bid: one per seller and auction, replaceable until the deadline, unreadable before it. */
export const sealedBids = pgTable(
  "sealed_bids",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "restrict" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    submittedByUserId: integer("submitted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** How many times it was replaced. */
    revision: integer("revision").notNull().default(0),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("sealed_bids_seller_idx").on(table.auctionId, table.organizationId),
    check("sealed_bids_amount_check", sql`${table.amountCents} > 0`),
  ],
);

/** One file per requirement of a sealed bid. */
export const sealedBidDocuments = pgTable(
  "sealed_bid_documents",
  {
    id: serial("id").primaryKey(),
    sealedBidId: integer("sealed_bid_id")
      .notNull()
      .references(() => sealedBids.id, { onDelete: "cascade" }),
    requirementId: integer("requirement_id")
      .notNull()
      .references(() => auctionBidRequirements.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("sealed_bid_documents_requirement_idx").on(table.sealedBidId, table.requirementId)],
);

/** The evaluator's weighted criteria, fixed once bids open. */
export const evaluationCriteria = pgTable(
  "evaluation_criteria",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Relative weight, 1 to 100. */
    weight: smallint("weight").notNull(),
    sortOrder: smallint("sort_order").notNull(),
  },
  (table) => [
    check("evaluation_criteria_weight_check", sql`${table.weight} between 1 and 100`),
    uniqueIndex("evaluation_criteria_name_idx").on(table.auctionId, sql`lower(${table.name})`),
  ],
);

/** A score (0 to 10) with a comment, per criterion and seller (a sealed bid's seller, or a candidate to invite). */
export const evaluationScores = pgTable(
  "evaluation_scores",
  {
    criterionId: integer("criterion_id")
      .notNull()
      .references(() => evaluationCriteria.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    score: smallint("score").notNull(),
    comment: text("comment"),
    scoredByUserId: integer("scored_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.criterionId, table.organizationId] }),
    check("evaluation_scores_score_check", sql`${table.score} between 0 and 10`),
  ],
);

/** The evaluator's verdict on a seller: technically unacceptable or not, and why. */
export const evaluationVerdicts = pgTable(
  "evaluation_verdicts",
  {
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    unacceptable: boolean("unacceptable").notNull().default(false),
    comment: text("comment"),
    updatedByUserId: integer("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.auctionId, table.organizationId] })],
);

// Notifications (issue 10): what happened, per user, listed on /account and e-mailed unless turned off.

export { NOTIFICATION_KINDS, type NotificationKind } from "./notification-kinds";

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

// Buyer invoices (issue 19): one per awarded auction, issued in the award's transaction, never edited
// (a credit note corrects one). Numbers come from a counter row locked in the issuing transaction, so
// they never skip nor repeat (a rolled-back award gives its number back).

const sqlList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

/** The gapless counters: 'invoice' (INV-000001, ...) and 'credit_note' (CN-000001, ...). */
export const documentCounters = pgTable("document_counters", {
  name: text("name").primaryKey(),
  /** The last number given; 0 before the first. */
  lastNumber: integer("last_number").notNull().default(0),
});

/** One export file of an e-invoicing network: the invoices it carried are marked exported with it. */
export const invoiceExports = pgTable(
  "invoice_exports",
  {
    id: serial("id").primaryKey(),
    network: text("network", { enum: EXPORT_NETWORKS }).notNull(),
    fileName: text("file_name").notNull(),
    /** The file as first downloaded: a later download of the same export gives the same bytes. */
    csv: text("csv").notNull(),
    invoiceCount: integer("invoice_count").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [check("invoice_exports_network_check", sql`${table.network} in (${sqlList(EXPORT_NETWORKS)})`)],
);

export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    /** INV-000001: "INV-" and the counter, six digits or more. */
    number: text("number").notNull().unique(),
    sequence: integer("sequence").notNull().unique(),
    /** One invoice per awarded auction. */
    auctionId: integer("auction_id")
      .notNull()
      .unique()
      .references(() => auctions.id, { onDelete: "restrict" }),
    /** The buyer (or consultant) organization that ran the auction. */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    // What the invoice says, as it was at issue (the profile may change later; the invoice does not).
    auctionTitle: text("auction_title").notNull(),
    billToName: text("bill_to_name").notNull(),
    billToContact: text("bill_to_contact"),
    billToEmail: text("bill_to_email"),
    /** Street, city, province/state, postal code and country, one per line. */
    billToAddress: text("bill_to_address").notNull(),
    billingPreference: text("billing_preference", { enum: BILLING_PREFERENCES }).notNull(),
    feeCents: integer("fee_cents").notNull(),
    gstCents: integer("gst_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** The PDF made at issue; served as it is, never made again. */
    pdf: bytea("pdf").notNull(),
    deliveryState: text("delivery_state", { enum: DELIVERY_STATES }).notNull(),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    mailedByUserId: integer("mailed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    exportedAt: timestamp("exported_at", { withTimezone: true }),
    exportId: integer("export_id").references(() => invoiceExports.id, { onDelete: "restrict" }),
  },
  (table) => [
    check("invoices_billing_preference_check", sql`${table.billingPreference} in (${sqlList(BILLING_PREFERENCES)})`),
    check("invoices_delivery_state_check", sql`${table.deliveryState} in (${sqlList(DELIVERY_STATES)})`),
    // The state belongs to the preference: e-mail, post or an export file.
    check(
      "invoices_delivery_by_preference_check",
      sql`case ${table.billingPreference}
        when 'Email Invoice' then ${table.deliveryState} in ('to_email', 'emailed')
        when 'Mail Invoice' then ${table.deliveryState} in ('to_mail', 'mailed')
        else ${table.deliveryState} in ('to_export', 'exported') end`,
    ),
    check(
      "invoices_delivery_marks_check",
      sql`(${table.deliveryState} = 'mailed') = (${table.mailedAt} is not null)
        and (${table.deliveryState} = 'exported') = (${table.exportId} is not null and ${table.exportedAt} is not null)`,
    ),
    check(
      "invoices_amounts_check",
      sql`${table.feeCents} >= 0 and ${table.gstCents} >= 0 and ${table.totalCents} = ${table.feeCents} + ${table.gstCents}`,
    ),
    index("invoices_organization_idx").on(table.organizationId, table.issuedAt),
    index("invoices_state_idx").on(table.deliveryState, table.billingPreference, table.sequence),
  ],
);

/** Corrects an invoice: never more than what remains of it, before GST and in GST. */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: serial("id").primaryKey(),
    /** CN-000001: its own gapless counter. */
    number: text("number").notNull().unique(),
    sequence: integer("sequence").notNull().unique(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    gstCents: integer("gst_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    reason: text("reason").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    issuedByUserId: integer("issued_by_user_id").references(() => users.id, { onDelete: "set null" }),
    pdf: bytea("pdf").notNull(),
  },
  (table) => [
    check(
      "credit_notes_amounts_check",
      sql`${table.amountCents} > 0 and ${table.gstCents} >= 0 and ${table.totalCents} = ${table.amountCents} + ${table.gstCents}`,
    ),
    index("credit_notes_invoice_idx").on(table.invoiceId),
  ],
);
