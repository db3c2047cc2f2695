import { asc } from "drizzle-orm";
import { data, redirect } from "react-router";
import { loadServiceAreaPickerData, readServiceAreaSelection } from "~/catalogue/pickers/picker-data.server";
import { SERVICE_AREA_FIELDS } from "~/catalogue/pickers/picker-selection";
import type { SelectOption } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { logger } from "~/platform/logger.server";
import { readFormBody } from "~/platform/request-body.server";
import type { AppServices } from "~/server/app-context";
import type { BuyerSideCode, OrganizationTypeCode } from "~/shared/roles";
import type { Database } from "~db/database.server";
import { countries, industries, provinces, usStates } from "~db/schema";
import { INVALID_ACCESS_TOKEN, registrationCompletePath } from "../registration-texts";
import { findUsableAccessToken } from "../signup/signup-steps.server";
import { buyerRegistrationFormSchema, INCOMPLETE_FORM, REGISTRATION_FAILED } from "./registration-data";
import { registerBuyerOrConsultant } from "./registration-store.server";

// Loader and action of /signup/buyer-registration/{token} and /signup/consultant-registration/{token}.
// The action writes through registerBuyerOrConsultant, the same module as the API.

export type RegistrationFormOptions = {
  countries: SelectOption[];
  provinces: SelectOption[];
  usStates: SelectOption[];
  industries: SelectOption[];
};

export async function loadRegistrationFormOptions(db: Database): Promise<RegistrationFormOptions> {
  const [countryRows, provinceRows, stateRows, industryRows] = await Promise.all([
    db.select().from(countries).orderBy(asc(countries.name)),
    db.select().from(provinces).orderBy(asc(provinces.name)),
    db.select().from(usStates).orderBy(asc(usStates.name)),
    db.select().from(industries).orderBy(asc(industries.id)),
  ]);
  return {
    countries: countryRows.map((row) => ({ value: row.code, label: row.name })),
    provinces: provinceRows.map((row) => ({ value: row.code, label: row.name })),
    usStates: stateRows.map((row) => ({ value: row.code, label: row.name })),
    industries: industryRows.map((row) => ({ value: String(row.id), label: row.name })),
  };
}

/** Usable for this form: known, unspent, unexpired, of this form's type; or where to go first. */
export async function checkFormAccessToken(db: Database, organizationType: OrganizationTypeCode, token: string) {
  const state = await findUsableAccessToken(db, token);
  if (!state || state.organizationType !== organizationType) return { kind: "invalid" as const };
  if (!state.privacyPolicyAccepted) {
    return { kind: "redirect" as const, to: `/signup/accept-privacy-policy/${encodeURIComponent(token)}` };
  }
  if (!state.termsAccepted) {
    return { kind: "redirect" as const, to: `/signup/accept-terms-and-conditions/${encodeURIComponent(token)}` };
  }
  return { kind: "usable" as const };
}

/** The page without its form: 404 for a link unknown, expired or used; 409 for a used link sent other data. */
export const invalidToken = (status: 404 | 409 = 404) => data({ tokenValid: false as const }, { status });

export async function loadRegistrationForm(services: AppServices, organizationType: BuyerSideCode, token: string) {
  const { db } = services;
  const check = await checkFormAccessToken(db, organizationType, token);
  if (check.kind === "invalid") return invalidToken();
  if (check.kind === "redirect") throw redirect(check.to);
  const [options, serviceAreas] = await Promise.all([loadRegistrationFormOptions(db), loadServiceAreaPickerData(db)]);
  return { tokenValid: true as const, options, serviceAreas };
}

export async function submitRegistrationForm(
  request: Request,
  services: AppServices,
  organizationType: BuyerSideCode,
  token: string,
) {
  const { db } = services;
  const formData = await readFormBody(request);
  // The token is the one in the address, whatever the form says.
  formData.set("reg_access_token", token);
  // Province boxes ticked without JavaScript stand for all their cities.
  const areaData = await loadServiceAreaPickerData(db);
  const selectedAreas = areaData
    ? readServiceAreaSelection(formData, areaData)
    : formData.getAll(SERVICE_AREA_FIELDS.leaf).map(String);
  formData.delete(SERVICE_AREA_FIELDS.leaf);
  for (const id of selectedAreas) formData.append(SERVICE_AREA_FIELDS.leaf, String(id));
  const serviceAreas = selectedAreas.map(Number).filter(Number.isInteger);
  const reply = { hideFields: ["reg_access_token"] };

  const submission = parseSubmission(formData, { schema: buyerRegistrationFormSchema });
  if (submission.status !== "success") {
    const check = await checkFormAccessToken(db, organizationType, token);
    if (check.kind !== "usable") return invalidToken();
    return data(
      {
        tokenValid: true as const,
        result: submission.reply({ ...reply, formErrors: [INCOMPLETE_FORM] }),
        serviceAreas,
      },
      { status: 400 },
    );
  }

  let outcome: Awaited<ReturnType<typeof registerBuyerOrConsultant>>;
  try {
    outcome = await registerBuyerOrConsultant(services, organizationType, submission.value);
  } catch (error) {
    logger.error({ err: error }, "registration form could not be saved");
    return data(
      {
        tokenValid: true as const,
        result: submission.reply({ ...reply, formErrors: [REGISTRATION_FAILED] }),
        serviceAreas,
      },
      { status: 503 },
    );
  }
  switch (outcome.kind) {
    case "created":
    case "already-submitted":
      return redirect(registrationCompletePath(organizationType));
    case "invalid-fields": {
      const fieldErrors = Object.fromEntries(
        Object.entries(outcome.errors).map(([name, message]) => [name, [message]]),
      );
      return data(
        {
          tokenValid: true as const,
          result: submission.reply({ ...reply, formErrors: [INCOMPLETE_FORM], fieldErrors }),
          serviceAreas,
        },
        { status: 400 },
      );
    }
    case "refused":
      if (outcome.message === INVALID_ACCESS_TOKEN) return invalidToken(outcome.status);
      return data(
        {
          tokenValid: true as const,
          result: submission.reply({ ...reply, formErrors: [outcome.message] }),
          serviceAreas,
        },
        { status: 409 },
      );
  }
}
