import { z } from "zod";
import { emailField, textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";

// The registration data object of spec section 3 (snake_case as the API takes it), shared by the
// API and, later, the buyer, consultant and seller forms. Checks against reference data (countries,
// provinces, states, industries, service areas) are made on the server in register.server.ts.

export const INCOMPLETE_FORM = "Please ensure all required fields are filled in.";
export const REGISTRATION_FAILED = "Registration could not be processed. Please contact us for assistance.";

export const BILLING_PREFERENCES = ["Open Invoice", "Cortex", "Email Invoice", "Mail Invoice"] as const;

const text = (message: string, max = 200) =>
  textField({ error: message }).min(1, message).max(max, `Please use at most ${max} characters`);

const optionalText = (max = 200) =>
  textField({ error: "Please enter text" })
    .max(max, `Please use at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

/** Office numbers too: digits with the usual separators and an optional extension. */
const PHONE_PATTERN = /^\+?[0-9 ().-]{7,25}(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;
const phone = (message: string) => text(message, 40).regex(PHONE_PATTERN, "Please enter a valid phone number");

export const contactSchema = z.object(
  {
    first_name: text("Please enter a first name", 100),
    last_name: text("Please enter a last name", 100),
    phone: phone("Please enter a phone number"),
    email: emailField("Please enter an email address"),
  },
  { error: "Please enter the contact's details" },
);
export type Contact = z.infer<typeof contactSchema>;

/** An optional contact is kept only when a first name is given (then it is checked like any other). */
const optionalContact = z.preprocess((value) => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object" && !Array.isArray(value)) {
    const firstName = (value as { first_name?: unknown }).first_name;
    if (firstName === undefined || firstName === null || (typeof firstName === "string" && firstName.trim() === "")) {
      return undefined;
    }
  }
  return value;
}, contactSchema.optional());

/** Company general information and the lists every type shares. */
export const generalRegistrationFields = {
  reg_access_token: textField({ error: "Invalid access token.", trim: false }).min(1, "Invalid access token.").max(200),
  name: text("Please enter the organization name"),
  address: text("Please enter the address"),
  city: text("Please enter the city", 100),
  state: text("Please enter the state or province", 100),
  country: textField({ error: "Please select a country" })
    .regex(/^[A-Za-z]{2}$/, "Please select a country")
    .transform((code) => code.toUpperCase()),
  postal_zip: text("Please enter the postal or zip code", 20),
  phone: phone("Please enter a phone number"),
  fax: optionalText(40).refine((value) => value === undefined || PHONE_PATTERN.test(value), {
    message: "Please enter a valid fax number",
  }),
  email: emailField("Please enter an email address"),
  primary_industry: idField("Please select a primary industry"),
  serviceAreas: z
    .array(idField("Please select service areas from the list"), { error: "Please select service areas from the list" })
    .max(2000)
    .optional()
    .transform((ids) => [...new Set(ids ?? [])]),
};

const CANADIAN_POSTAL_CODE = /^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$/;
const US_ZIP_CODE = /^\d{5}(?:-\d{4})?$/;

/** Postal code formats of the two countries most applicants are in. */
export function checkPostalCode(value: { country: string; postal_zip: string }, context: z.RefinementCtx): void {
  if (value.country === "CA" && !CANADIAN_POSTAL_CODE.test(value.postal_zip)) {
    context.addIssue({
      code: "custom",
      path: ["postal_zip"],
      message: "Please enter a valid postal code, like T2P 1J9",
    });
  }
  if (value.country === "US" && !US_ZIP_CODE.test(value.postal_zip)) {
    context.addIssue({ code: "custom", path: ["postal_zip"], message: "Please enter a valid zip code, like 59601" });
  }
}

/** Buyer and consultant: the identical form of spec section 2. */
export const buyerRegistrationSchema = z
  .object({
    ...generalRegistrationFields,
    primaryContact: contactSchema,
    alternateContact: optionalContact,
    accountingContact: contactSchema,
    billing_preference: z.enum(BILLING_PREFERENCES, { error: "Please choose a billing preference" }),
  })
  .superRefine(checkPostalCode);

export type BuyerRegistrationData = z.infer<typeof buyerRegistrationSchema>;

/**
 * The state/province controls of the browser form. All three are in the page so the form works in
 * one pass without JavaScript (with JavaScript only the one matching the country shows); the one
 * that matches the submitted country is the value of `state`.
 */
export const STATE_CONTROLS = { CA: "stateCA", US: "stateUS", other: "stateOther" } as const;
export type StateControl = (typeof STATE_CONTROLS)[keyof typeof STATE_CONTROLS];

export function stateControlFor(country: unknown): StateControl {
  const code = typeof country === "string" ? country.trim().toUpperCase() : "";
  return code === "CA" ? STATE_CONTROLS.CA : code === "US" ? STATE_CONTROLS.US : STATE_CONTROLS.other;
}

/** Form values in, API data object out: `state` taken from the control matching the country. */
export function stateFromMatchingControl(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const values = value as Record<string, unknown>;
  return { ...values, state: values[stateControlFor(values.country)] };
}

/** The buyer and consultant form (browser and action): the API's schema behind the state controls. */
export const buyerRegistrationFormSchema = z.preprocess(stateFromMatchingControl, buyerRegistrationSchema);
