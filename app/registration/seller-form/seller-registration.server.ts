import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "react-router";
import {
  loadServiceAreaPickerData,
  loadServicePickerData,
  readServiceAreaSelection,
  readServiceSelection,
} from "~/catalogue/pickers/picker-data.server";
import { SERVICE_AREA_FIELDS, SERVICE_FIELDS } from "~/catalogue/pickers/picker-selection";
import { parseSubmission } from "~/forms/parse-submission.server";
import { CARD_CAPTURE_FIELD_NAMES, cardPaymentSetup } from "~/payments/card-capture/card-capture";
import { answerRefusal, readPostedCard } from "~/payments/card-capture/card-capture.server";
import { logger } from "~/platform/logger.server";
import { readFormBody } from "~/platform/request-body.server";
import type { AppServices } from "~/server/app-context";
import { Role } from "~/shared/roles";
import { INCOMPLETE_FORM, REGISTRATION_FAILED } from "../form/registration-data";
import { checkFormAccessToken, invalidToken, loadRegistrationFormOptions } from "../form/registration-form.server";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { createSellerRegistrationFormSchema, earliestToday, NO_SERVICE_CHOSEN } from "./seller-registration-schema";
import {
  registerSeller,
  registerSellerAwaitingPayment,
  type SellerRegisterOutcome,
} from "./seller-registration-store.server";

// Loader and action of /signup/seller-registration/{token}. The action writes through
// seller-register.server.ts, the same module as POST /api/registration/register_seller.

const SELLER = Role.Seller;
export const SELLER_COMPLETE_PATH = "/signup/seller-registration-complete";
export const SELLER_CHECKOUT_RETURN_PATH = "/signup/seller-registration-checkout";

/** The day the date fields start from and the year lists end at, the same for the page and the action. */
export const calendar = () => ({ today: earliestToday(), currentYear: new Date().getUTCFullYear() });

export async function loadSellerRegistrationForm(services: AppServices, token: string) {
  const { db, payments } = services;
  const check = await checkFormAccessToken(db, SELLER, token);
  if (check.kind === "invalid") return invalidToken();
  if (check.kind === "redirect") throw redirect(check.to);
  const [options, serviceAreas, serviceCategories] = await Promise.all([
    loadRegistrationFormOptions(db),
    loadServiceAreaPickerData(db),
    loadServicePickerData(db),
  ]);
  const payment = cardPaymentSetup(payments);
  return { tokenValid: true as const, options, serviceAreas, serviceCategories, payment, ...calendar() };
}

/** Card fields are never sent back to the page: the applicant types them again. */
const REPLY = { hideFields: ["reg_access_token", ...CARD_CAPTURE_FIELD_NAMES] };

/** The form-level message: the service one when that is the only problem (spec section 8). */
export function formMessageFor(fieldNames: string[]): string {
  return fieldNames.length > 0 && fieldNames.every((name) => name === SERVICE_FIELDS.leaf)
    ? NO_SERVICE_CHOSEN
    : INCOMPLETE_FORM;
}

/**
 * Without JavaScript, picker group boxes stand for all their members: the form data is rewritten to
 * the members. Buyers and consultants have no service picker.
 */
export async function normalizeSelections(services: AppServices, formData: FormData, { withServices = true } = {}) {
  const [areaData, serviceData] = await Promise.all([
    loadServiceAreaPickerData(services.db),
    withServices ? loadServicePickerData(services.db) : null,
  ]);
  const selected = {
    serviceAreas: areaData ? readServiceAreaSelection(formData, areaData) : [],
    services: serviceData ? readServiceSelection(formData, serviceData) : [],
  };
  const rewritten = withServices
    ? ([
        [SERVICE_AREA_FIELDS.leaf, selected.serviceAreas],
        [SERVICE_FIELDS.leaf, selected.services],
      ] as const)
    : ([[SERVICE_AREA_FIELDS.leaf, selected.serviceAreas]] as const);
  for (const [name, ids] of rewritten) {
    formData.delete(name);
    for (const id of ids) formData.append(name, String(id));
  }
  return selected;
}

export async function submitSellerRegistrationForm(request: Request, services: AppServices, token: string) {
  const { db, payments } = services;
  const formData = await readFormBody(request);
  // The token is the one in the address, whatever the form says.
  formData.set("reg_access_token", token);
  const selected = await normalizeSelections(services, formData);
  const schema = createSellerRegistrationFormSchema({ ...calendar(), cardFields: payments.provider === "test" });
  const submission = parseSubmission(formData, { schema });

  type Answer = { result: SubmissionResult<string[]>; cardError?: string };
  const answer = (status: number, { result, cardError }: Answer) =>
    data({ tokenValid: true as const, result, cardError, ...selected }, { status });

  // '+ Add …' and 'Remove …' without JavaScript: the same page, one block more or less, nothing checked.
  if (submission.status === undefined) return answer(200, { result: submission.reply(REPLY) });

  if (submission.status !== "success") {
    const check = await checkFormAccessToken(db, SELLER, token);
    if (check.kind !== "usable") return invalidToken();
    const fieldNames = Object.keys(submission.error ?? {});
    return answer(400, { result: submission.reply({ ...REPLY, formErrors: [formMessageFor(fieldNames)] }) });
  }

  const value = submission.value;
  let outcome: SellerRegisterOutcome | { kind: "checkout"; checkoutUrl: string };
  try {
    const posted = readPostedCard(payments, formData, value.stripe_payment_token, {
      appUrl: services.env.APP_URL,
      returnPath: SELLER_CHECKOUT_RETURN_PATH,
    });
    if (posted.kind === "card-refused") outcome = posted;
    else if (posted.kind === "token") outcome = await registerSeller(services, value, posted.token);
    else outcome = await registerSellerAwaitingPayment(services, value, posted.urls);
  } catch (error) {
    logger.error({ err: error }, "seller registration form could not be saved");
    return answer(503, { result: submission.reply({ ...REPLY, formErrors: [REGISTRATION_FAILED] }) });
  }

  switch (outcome.kind) {
    case "created":
    case "already-submitted":
      return redirect(SELLER_COMPLETE_PATH);
    case "checkout":
      return redirect(outcome.checkoutUrl);
    case "card-refused":
    case "payment-unavailable": {
      const refused = answerRefusal(outcome, (options) => submission.reply({ ...REPLY, ...options }));
      return answer(refused.status, refused);
    }
    case "invalid-fields": {
      const fieldErrors = Object.fromEntries(
        Object.entries(outcome.errors).map(([name, message]) => [name, [message]]),
      );
      return answer(400, {
        result: submission.reply({ ...REPLY, formErrors: [formMessageFor(Object.keys(fieldErrors))], fieldErrors }),
      });
    }
    case "refused":
      if (outcome.message === INVALID_ACCESS_TOKEN) return invalidToken(outcome.status);
      return answer(409, { result: submission.reply({ ...REPLY, formErrors: [outcome.message] }) });
  }
}
