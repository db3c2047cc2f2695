import type { FormValues } from "~/registration/changes/stored-registration.server";
import { INSURANCE_LABELS } from "~/registration/seller-form/seller-registration-schema";

// What an organization changed in its profile, in words staff can read in the audit log: each
// field's label ("Sales contact, work experience 2, Company name") with its value before and after.

export type FieldChange = { field: string; before: string; after: string };

const LABELS: Record<string, string> = {
  name: "Organization name",
  address: "Address",
  city: "City",
  country: "Country",
  state: "Province / state",
  postal_zip: "Postal / zip code",
  phone: "Phone",
  fax: "Fax",
  email: "Email",
  primary_industry: "Primary industry",
  serviceAreas: "Service areas",
  services: "Service categories",
  billing_preference: "Billing preference",
  primaryContact: "Primary contact",
  alternateContact: "Alternate contact",
  accountingContact: "Accounting contact",
  salesContact: "Sales contact",
  operationsContact: "Operations contact",
  sa_written_safety_program: "Written safety program",
  sa_conduct_hazard_assessments: "Conducts hazard assessments",
  sa_safe_work_procedures: "Safe work procedures",
  sa_one_man_op: "One-person operation",
  sa_third_party_sub: "Third-party subcontractors",
  sc_comply_works_expiry: "ComplyWorks expiry",
  sc_isnet_world_expiry: "ISNetworld expiry",
  sc_secor_expiry: "SECOR expiry",
  in_wcb_coverage_number: "WCB coverage number",
  in_wcb_expiry: "WCB expiry",
  wcbs: "WCB",
  feedback: "Feedback",
  first_name: "First name",
  last_name: "Last name",
  experience: "Experience summary",
  skills: "Skills summary",
  workExperiences: "work experience",
  certifications: "certification",
  education: "training / education",
  company_name: "Company name",
  position: "Position",
  start_year: "Start year",
  end_year: "End year",
  responsibilities: "Responsibilities",
  certification_name: "Certification",
  expires_on: "Expiry date",
  program_name: "Program",
  cert_degree: "Certificate / degree",
  number: "Number",
  expire_at: "Expiry date",
  ...INSURANCE_LABELS,
  ...Object.fromEntries(Object.entries(INSURANCE_LABELS).map(([name, label]) => [`${name}_expiry`, `${label} expiry`])),
};

/** Form fields that only steer the form (the state controls are read as one "state"). */
const SKIPPED = new Set([
  "reg_access_token",
  "confirm_email",
  "operations_contact_added",
  "sc_comply_works",
  "sc_isnet_world",
  "sc_secor",
]);
const STATE_CONTROLS = new Set(["stateCA", "stateUS", "stateOther"]);

const labelOf = (key: string) => LABELS[key] ?? key;

/** The stored values as label → text; `names` turns ids into words (industry, country, areas, services). */
export function describeProfile(values: FormValues, names: (field: string, value: string | string[]) => string) {
  const described = new Map<string, string>();
  const visit = (value: FormValues[string], path: string[], key: string) => {
    if (SKIPPED.has(key)) return;
    const field = STATE_CONTROLS.has(key) ? "state" : key;
    if (typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"))) {
      const text = names(field, value as string | string[]);
      if (text !== "") described.set([...path, labelOf(field)].join(", "), text);
      return;
    }
    if (Array.isArray(value)) {
      (value as FormValues[]).forEach((item, index) => {
        const label = labelOf(key);
        const blockPath = [
          ...path,
          `${path.length > 0 ? label : label[0]?.toUpperCase() + label.slice(1)} ${index + 1}`,
        ];
        for (const [childKey, child] of Object.entries(item)) visit(child, blockPath, childKey);
      });
      return;
    }
    for (const [childKey, child] of Object.entries(value)) visit(child, [...path, labelOf(key)], childKey);
  };
  for (const [key, value] of Object.entries(values)) visit(value, [], key);
  return described;
}

/** Every field whose text differs, in the order of the form (fields only before, then only after, last). */
export function diffProfiles(before: Map<string, string>, after: Map<string, string>): FieldChange[] {
  const fields = [...new Set([...before.keys(), ...after.keys()])];
  return fields
    .map((field) => ({ field, before: before.get(field) ?? "", after: after.get(field) ?? "" }))
    .filter((change) => change.before !== change.after);
}
