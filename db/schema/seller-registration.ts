import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { services } from "./catalogue";
import { certificationOptions } from "./reference-data";
import { registrationContacts, registrations } from "./registration";

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
