import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { cardCaptureSchema } from "~/payments/card-capture/card-capture";
import { idField } from "~/shared/ids";
import { certificationOptions } from "~db/reference-data/index";
import {
  checkPostalCode,
  contactSchema,
  generalRegistrationFields,
  stateFromMatchingControl,
} from "../form/registration-data";

// The seller registration data object of spec section 3 (snake_case, as register_seller takes it) and
// the rules of spec section 5. A factory, because "not before today" depends on the day; the seller
// form will use the same schema. Checks against reference tables (services, country, industry, …)
// are made in seller-register.server.ts.

export const NO_SERVICE_CHOSEN = "Please select at least one service category.";
export const EMAILS_DONT_MATCH = "Emails don't match.";

/** Spec section 5, in the order the selects list them. */
export const COVERAGE_TIERS = [
  "$500,000 - $1,000,000",
  "$1,000,000 minimum",
  "$2,000,000 minimum",
  "$5,000,000 minimum",
  "more than $5 million",
] as const;
export const NO_COVERAGE = "No";
const isCoverageTier = (value: unknown): boolean => (COVERAGE_TIERS as readonly unknown[]).includes(value);

/**
 * Cross-field rules run even when other fields are wrong, so every problem is reported at once.
 * They get the data as far as it parsed, so they check types before relying on them.
 */
const ALWAYS = { when: () => true };

export const REQUIRED_INSURANCE = ["in_commercial_general", "in_third_party_automobile"] as const;
export const OPTIONAL_INSURANCE = ["in_aircraft", "in_pollution", "in_fire", "in_errors_omissions"] as const;
/** Each certification's expiry, with the form checkbox that makes it required. */
export const SAFETY_CERTIFICATIONS = [
  { checkbox: "sc_comply_works", expiry: "sc_comply_works_expiry", label: "ComplyWorks" },
  { checkbox: "sc_isnet_world", expiry: "sc_isnet_world_expiry", label: "ISNetworld" },
  { checkbox: "sc_secor", expiry: "sc_secor_expiry", label: "SECOR" },
] as const;

export const FIRST_YEAR = 1950;
export const MAX_ITEMS = 20;

const DATE_REQUIRED = "Please enter the expiry date";
/** Each required date names its subject, so the error summary's links are told apart. */
export const expiryRequired = (subject: string) => `Please enter the ${subject} expiry date`;
/** The insurance coverages by field name, as the form labels them. */
export const INSURANCE_LABELS = {
  in_commercial_general: "Commercial General Liability",
  in_third_party_automobile: "Third Party Automobile Liability",
  in_aircraft: "Aircraft Liability",
  in_pollution: "Pollution Liability",
  in_fire: "Forest Fire Fighting Expense",
  in_errors_omissions: "Errors and Omissions",
} as const;
const DATE_INVALID = "Please enter a valid date";
const DATE_IN_PAST = "Please choose a date from today onward";

/** Blank strings count as missing: forms send them for untouched fields. */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

const optionalText = (max: number, { multiline = false } = {}) =>
  z.preprocess(
    blankToUndefined,
    textField({ error: "Please enter text", multiline }).max(max, `Please use at most ${max} characters`).optional(),
  );
const text = (message: string, max: number, { multiline = false } = {}) =>
  z.preprocess(
    blankToUndefined,
    textField({ error: message, multiline }).min(1, message).max(max, `Please use at most ${max} characters`),
  );

/**
 * The earliest date that is "today" somewhere on Earth (UTC-12): an applicant whose calendar already
 * shows today is never refused by a server in another time zone.
 */
export function earliestToday(now = new Date()): string {
  return new Date(now.getTime() - 12 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

function isCalendarDate(value: string): boolean {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** A date from today onward; or one of `kept`, dates already on file that may stay as they are. */
type DateRule = { today: string; kept: ReadonlySet<string> };

const dateFrom = ({ today, kept }: DateRule, requiredMessage = DATE_REQUIRED) =>
  textField({ error: requiredMessage })
    .min(1, requiredMessage)
    .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_INVALID)
    .refine(isCalendarDate, DATE_INVALID)
    .refine((value) => value >= today || kept.has(value), DATE_IN_PAST)
    .refine((value) => value <= "2200-12-31", DATE_INVALID);

const optionalDateFrom = (rule: DateRule) => z.preprocess(blankToUndefined, dateFrom(rule).optional());

const yesNo = z.preprocess((value) => {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  const normalized = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (normalized === undefined || normalized === null || normalized === "") return undefined;
  if (["yes", "true", "1", "on"].includes(normalized as string)) return true;
  if (["no", "false", "0", "off"].includes(normalized as string)) return false;
  return normalized;
}, z.boolean({ error: "Please answer yes or no" }).optional());

const yearField = (currentYear: number) => {
  const message = `Please choose a year between ${FIRST_YEAR} and ${currentYear}`;
  return z.preprocess((value) => {
    const blank = blankToUndefined(value);
    return typeof blank === "string" && /^\s*\d{1,4}\s*$/.test(blank) ? Number(blank) : blank;
  }, z.int({ error: message }).min(FIRST_YEAR, message).max(currentYear, message).optional());
};

/** Repeatable items: those whose main field is empty are dropped (spec section 3). */
const itemsWithMainField = <Item extends z.ZodType>(mainField: string, item: Item) =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) return value;
      return value.filter((entry) => {
        if (typeof entry !== "object" || entry === null) return true;
        return blankToUndefined((entry as Record<string, unknown>)[mainField]) !== undefined;
      });
    },
    z.array(item, { error: "Please send a list" }).max(MAX_ITEMS, `Please add at most ${MAX_ITEMS}`),
  );

const endNotBeforeStart = (
  item: { start_year?: number | undefined; end_year?: number | undefined },
  context: z.RefinementCtx,
) => {
  if (typeof item.start_year === "number" && typeof item.end_year === "number" && item.end_year < item.start_year) {
    context.addIssue({ code: "custom", path: ["end_year"], message: "The end year cannot be before the start year" });
  }
};

type SchemaOptions = {
  today?: string;
  currentYear?: number;
  /** The form's own card fields (offline test provider only; Stripe's fields never reach us). */
  cardFields?: boolean;
  /**
   * Dates already on file, accepted unchanged even once past: an organization editing its profile
   * is not stopped by a document it has not renewed yet (staff and reminders flag it).
   */
  keptDates?: readonly string[];
};

export function createSellerRegistrationSchema(options: SchemaOptions = {}) {
  const today = options.today ?? earliestToday();
  const dates: DateRule = { today, kept: new Set(options.keptDates ?? []) };
  const currentYear = options.currentYear ?? new Date().getUTCFullYear();
  const year = yearField(currentYear);

  const workExperience = z
    .object({
      company_name: text("Please enter the company name", 200),
      position: optionalText(200),
      start_year: year,
      end_year: year,
      responsibilities: optionalText(5000, { multiline: true }),
    })
    .superRefine(endNotBeforeStart, ALWAYS);
  const certification = z.object({
    certification_name: z.enum(certificationOptions as [string, ...string[]], {
      error: "Please choose a certification from the list",
    }),
    expires_on: optionalDateFrom(dates),
  });
  const education = z
    .object({
      program_name: text("Please enter the program name", 200),
      cert_degree: optionalText(200),
      start_year: year,
      end_year: year,
    })
    .superRefine(endNotBeforeStart, ALWAYS);

  const keyPersonFields = {
    ...contactSchema.shape,
    /** Only on the form; when sent it must match (spec section 5). */
    confirm_email: z.preprocess(
      (value) => (value === null ? undefined : value),
      textField({ error: "Please confirm the email address" }).max(254).optional(),
    ),
    workExperiences: itemsWithMainField("company_name", workExperience),
    certifications: itemsWithMainField("certification_name", certification),
    education: itemsWithMainField("program_name", education),
  };
  const emailsMatch = (person: { email: string; confirm_email?: string | undefined }, context: z.RefinementCtx) => {
    if (typeof person?.email !== "string" || typeof person.confirm_email !== "string") return;
    if (person.confirm_email === "") {
      context.addIssue({ code: "custom", path: ["confirm_email"], message: "Please confirm the email address" });
    } else if (person.confirm_email.toLowerCase() !== person.email.toLowerCase()) {
      context.addIssue({ code: "custom", path: ["confirm_email"], message: EMAILS_DONT_MATCH });
    }
  };

  const salesContact = z
    .object(
      {
        ...keyPersonFields,
        experience: text("Please enter an experience summary", 5000, { multiline: true }),
        skills: text("Please enter a skills summary", 5000, { multiline: true }),
      },
      { error: "Please enter the sales contact's details" },
    )
    .superRefine(emailsMatch, ALWAYS);
  const operationsContact = z.preprocess(
    (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return blankToUndefined(value);
      return blankToUndefined((value as Record<string, unknown>).first_name) === undefined ? undefined : value;
    },
    z
      .object(
        {
          ...keyPersonFields,
          experience: optionalText(5000, { multiline: true }),
          skills: optionalText(5000, { multiline: true }),
        },
        { error: "Please enter the operations contact's details" },
      )
      .superRefine(emailsMatch, ALWAYS)
      .optional(),
  );

  const wcb = z.object({
    state: text("Please select a state or province", 100),
    number: text("Please enter the WCB number", 100),
    expire_at: dateFrom(dates, expiryRequired("WCB")),
  });

  const requiredCoverage = (message: string) =>
    z.preprocess(blankToUndefined, z.enum(COVERAGE_TIERS, { error: message }));
  const optionalCoverage = z.preprocess(
    (value) => blankToUndefined(value) ?? NO_COVERAGE,
    z.enum([NO_COVERAGE, ...COVERAGE_TIERS], { error: "Please select a coverage level" }),
  );

  return z
    .object({
      ...generalRegistrationFields,
      sa_written_safety_program: yesNo,
      sa_conduct_hazard_assessments: yesNo,
      sa_safe_work_procedures: yesNo,
      sa_one_man_op: yesNo,
      sa_third_party_sub: yesNo,
      sc_comply_works: yesNo,
      sc_comply_works_expiry: optionalDateFrom(dates),
      sc_isnet_world: yesNo,
      sc_isnet_world_expiry: optionalDateFrom(dates),
      sc_secor: yesNo,
      sc_secor_expiry: optionalDateFrom(dates),
      in_commercial_general: requiredCoverage("Please select the commercial general liability coverage"),
      in_commercial_general_expiry: z.preprocess(
        blankToUndefined,
        dateFrom(dates, expiryRequired(INSURANCE_LABELS.in_commercial_general.toLowerCase())),
      ),
      in_third_party_automobile: requiredCoverage("Please select the third party automobile liability coverage"),
      in_third_party_automobile_expiry: z.preprocess(
        blankToUndefined,
        dateFrom(dates, expiryRequired(INSURANCE_LABELS.in_third_party_automobile.toLowerCase())),
      ),
      in_aircraft: optionalCoverage,
      in_aircraft_expiry: optionalDateFrom(dates),
      in_pollution: optionalCoverage,
      in_pollution_expiry: optionalDateFrom(dates),
      in_fire: optionalCoverage,
      in_fire_expiry: optionalDateFrom(dates),
      in_errors_omissions: optionalCoverage,
      in_errors_omissions_expiry: optionalDateFrom(dates),
      in_wcb_coverage_number: optionalText(100),
      in_wcb_expiry: optionalDateFrom(dates),
      // Only entries with a state/province are kept; those need a number and an expiry.
      wcbs: itemsWithMainField("state", wcb),
      services: z.preprocess(
        (value) => (value === undefined || value === null || value === "" ? [] : value),
        z
          .array(idField(NO_SERVICE_CHOSEN), { error: NO_SERVICE_CHOSEN })
          .min(1, NO_SERVICE_CHOSEN)
          .max(2000)
          .transform((ids) => [...new Set(ids)]),
      ),
      salesContact,
      operationsContact,
      feedback: optionalText(5000, { multiline: true }),
      // What the provider's browser library made of the card (never the card number); the test provider's fields.
      ...cardCaptureSchema({ cardFields: options.cardFields ?? false }),
    })
    .superRefine((data, context) => {
      if (typeof data !== "object" || data === null) return;
      if (typeof data.country === "string" && typeof data.postal_zip === "string") checkPostalCode(data, context);
      for (const certification of SAFETY_CERTIFICATIONS) {
        if (data[certification.checkbox] === true && data[certification.expiry] === undefined) {
          context.addIssue({
            code: "custom",
            path: [certification.expiry],
            message: expiryRequired(certification.label),
          });
        }
      }
      for (const insurance of OPTIONAL_INSURANCE) {
        const tier = data[insurance] as string;
        if (isCoverageTier(tier) && data[`${insurance}_expiry`] === undefined) {
          context.addIssue({
            code: "custom",
            path: [`${insurance}_expiry`],
            message: expiryRequired(INSURANCE_LABELS[insurance].toLowerCase()),
          });
        }
      }
    }, ALWAYS);
}

export type SellerRegistrationData = z.infer<ReturnType<typeof createSellerRegistrationSchema>>;

/** The form's "Add Operations Contact" flag: without it the operations contact's fields are not kept. */
export const OPERATIONS_CONTACT_ADDED = "operations_contact_added";

/**
 * Form values → the API's data object: the state from the control matching the country, unticked
 * certifications and coverages of 'No' without their expiry, and no operations contact unless added.
 */
function sellerFormToData(value: unknown): unknown {
  const values = stateFromMatchingControl(value);
  if (typeof values !== "object" || values === null || Array.isArray(values)) return values;
  const data: Record<string, unknown> = { ...values };
  for (const certification of SAFETY_CERTIFICATIONS) {
    if (blankToUndefined(data[certification.checkbox]) === undefined) {
      data[certification.checkbox] = false;
      delete data[certification.expiry];
    }
  }
  for (const insurance of OPTIONAL_INSURANCE) {
    if (!isCoverageTier(data[insurance])) delete data[`${insurance}_expiry`];
  }
  if (data[OPERATIONS_CONTACT_ADDED] !== "yes") delete data.operationsContact;
  return data;
}

/** The seller form's schema, in the browser and in the action. */
export const createSellerRegistrationFormSchema = (options: SchemaOptions = {}) =>
  z.preprocess(sellerFormToData, createSellerRegistrationSchema(options));

/** The seller's own row (seller_registrations) from the validated data: unticked certifications are null. */
export function sellerProfileValues(data: SellerRegistrationData) {
  const certificationExpiry = (certification: (typeof SAFETY_CERTIFICATIONS)[number]) =>
    data[certification.checkbox] === false ? null : (data[certification.expiry] ?? null);
  const optionalExpiry = (insurance: (typeof OPTIONAL_INSURANCE)[number]) =>
    data[insurance] === NO_COVERAGE ? null : (data[`${insurance}_expiry`] ?? null);
  const [complyWorks, isnetWorld, secor] = SAFETY_CERTIFICATIONS;
  return {
    saWrittenSafetyProgram: data.sa_written_safety_program ?? null,
    saConductHazardAssessments: data.sa_conduct_hazard_assessments ?? null,
    saSafeWorkProcedures: data.sa_safe_work_procedures ?? null,
    saOneManOp: data.sa_one_man_op ?? null,
    saThirdPartySub: data.sa_third_party_sub ?? null,
    scComplyWorksExpiry: certificationExpiry(complyWorks),
    scIsnetWorldExpiry: certificationExpiry(isnetWorld),
    scSecorExpiry: certificationExpiry(secor),
    inCommercialGeneral: data.in_commercial_general,
    inCommercialGeneralExpiry: data.in_commercial_general_expiry,
    inThirdPartyAutomobile: data.in_third_party_automobile,
    inThirdPartyAutomobileExpiry: data.in_third_party_automobile_expiry,
    inAircraft: data.in_aircraft,
    inAircraftExpiry: optionalExpiry("in_aircraft"),
    inPollution: data.in_pollution,
    inPollutionExpiry: optionalExpiry("in_pollution"),
    inFire: data.in_fire,
    inFireExpiry: optionalExpiry("in_fire"),
    inErrorsOmissions: data.in_errors_omissions,
    inErrorsOmissionsExpiry: optionalExpiry("in_errors_omissions"),
    inWcbCoverageNumber: data.in_wcb_coverage_number ?? null,
    inWcbExpiry: data.in_wcb_expiry ?? null,
    feedback: data.feedback ?? null,
  };
}

/** The key people with their items, in the order entered, ready for the contact and item tables. */
export function sellerKeyPeople(data: SellerRegistrationData) {
  const people: { role: "sales" | "operations"; person: NonNullable<SellerRegistrationData["operationsContact"]> }[] = [
    { role: "sales", person: data.salesContact },
  ];
  if (data.operationsContact) people.push({ role: "operations", person: data.operationsContact });
  return people.map(({ role, person }) => ({
    contact: {
      role,
      firstName: person.first_name,
      lastName: person.last_name,
      phone: person.phone,
      email: person.email.toLowerCase(),
      experience: person.experience ?? null,
      skills: person.skills ?? null,
    },
    workExperiences: person.workExperiences.map((item, index) => ({
      sortOrder: index,
      companyName: item.company_name,
      position: item.position ?? null,
      startYear: item.start_year ?? null,
      endYear: item.end_year ?? null,
      responsibilities: item.responsibilities ?? null,
    })),
    certifications: person.certifications.map((item, index) => ({
      sortOrder: index,
      certificationName: item.certification_name,
      expiresOn: item.expires_on ?? null,
    })),
    education: person.education.map((item, index) => ({
      sortOrder: index,
      programName: item.program_name,
      certDegree: item.cert_degree ?? null,
      startYear: item.start_year ?? null,
      endYear: item.end_year ?? null,
    })),
  }));
}

/** WCB entries as rows. */
export const sellerWcbs = (data: SellerRegistrationData) =>
  data.wcbs.map((entry, index) => ({
    sortOrder: index,
    state: entry.state,
    number: entry.number,
    expiresOn: entry.expire_at,
  }));
