import type { SubmissionResult } from "@conform-to/react";
import { loadServiceAreaPickerData, loadServicePickerData } from "~/catalogue/pickers/picker-data.server";
import type { ServiceAreaCheckboxData, ServiceCheckboxData } from "~/catalogue/pickers/picker-selection";
import { parseSubmission } from "~/forms/parse-submission.server";
import { readFormBody } from "~/platform/request-body.server";
import type { AppServices } from "~/server/app-context";
import { type BuyerSideCode, type OrganizationTypeCode, Role } from "~/shared/roles";
import { type BuyerRegistrationData, buyerRegistrationFormSchema, INCOMPLETE_FORM } from "../form/registration-data";
import { loadRegistrationFormOptions, type RegistrationFormOptions } from "../form/registration-form.server";
import { calendar, formMessageFor, normalizeSelections } from "../seller-form/seller-registration.server";
import {
  createSellerRegistrationFormSchema,
  type SellerRegistrationData,
} from "../seller-form/seller-registration-schema";
import { checkUpdateReferences, type RegistrationUpdate } from "./registration-update.server";
import { type FormValues, type StoredRegistration, storedDates } from "./stored-registration.server";

// A stored registration's form shown again pre-filled, and its submission checked, for the two
// places it is edited: the applicant's changes asked for by staff, and the organization's profile.
// Both use the registration forms' own schemas; what is written, and where, is the caller's.

/** What the page needs to show the form of a stored registration. */
export type EditFormData = {
  organizationType: OrganizationTypeCode;
  options: RegistrationFormOptions;
  serviceAreas: ServiceAreaCheckboxData | null;
  serviceCategories: ServiceCheckboxData | null;
  values: FormValues;
  selectedServiceAreas: number[];
  selectedServices: number[];
  savedCard: string | null;
  keptDates: string[];
  today: string;
  currentYear: number;
};

/** The answer to a submission that is not written: an intent (add/remove a block) or a refusal. */
export type EditFormAnswer = {
  result: SubmissionResult<string[]>;
  serviceAreas: number[];
  services: number[];
};

export type EditOptions = {
  /** Dates on file may stay unchanged once past (the profile), or must be current (an application). */
  keepPastDates: boolean;
};

/** Hidden fields the forms carry that the server fills in itself. */
const REPLY = { hideFields: ["reg_access_token", "stripe_payment_token"] };

export async function loadEditForm(
  services: AppServices,
  stored: StoredRegistration,
  { keepPastDates }: EditOptions,
): Promise<EditFormData> {
  const { db } = services;
  const [options, serviceAreas, serviceCategories] = await Promise.all([
    loadRegistrationFormOptions(db),
    loadServiceAreaPickerData(db),
    stored.organizationType === Role.Seller ? loadServicePickerData(db) : null,
  ]);
  return {
    organizationType: stored.organizationType,
    options,
    serviceAreas,
    serviceCategories,
    values: stored.values,
    selectedServiceAreas: stored.serviceAreaIds,
    selectedServices: stored.serviceIds,
    savedCard: stored.card,
    keptDates: keepPastDates ? storedDates(stored.values) : [],
    ...calendar(),
  };
}

export type EditSubmission =
  | { kind: "answer"; status: 200 | 400; answer: EditFormAnswer }
  | {
      kind: "valid";
      update: RegistrationUpdate;
      certificationIds: Map<string, number>;
      /** Turns field errors found later (in the transaction) into the page's answer. */
      refuse(errors: Record<string, string>): EditFormAnswer;
    };

/**
 * Parses the form of the stored registration's type with the registration schema (no card fields),
 * checks references, and answers intents and errors with the values kept.
 */
export async function parseEditSubmission(
  request: Request,
  services: AppServices,
  stored: StoredRegistration,
  { keepPastDates, keepFeedback }: EditOptions & { keepFeedback: boolean },
): Promise<EditSubmission> {
  const formData = await readFormBody(request);
  formData.set("reg_access_token", "stored");
  const isSeller = stored.organizationType === Role.Seller;
  const selected = await normalizeSelections(services, formData, { withServices: isSeller });
  const schema = isSeller
    ? createSellerRegistrationFormSchema({
        ...calendar(),
        keptDates: keepPastDates ? storedDates(stored.values) : [],
      })
    : buyerRegistrationFormSchema;
  const submission = parseSubmission(formData, { schema });
  const answerWith = (result: SubmissionResult<string[]>): EditFormAnswer => ({ result, ...selected });
  const formMessage = (fieldNames: string[]) => (isSeller ? formMessageFor(fieldNames) : INCOMPLETE_FORM);

  if (submission.status === undefined) {
    return { kind: "answer", status: 200, answer: answerWith(submission.reply(REPLY)) };
  }
  const refuse = (errors: Record<string, string>) =>
    answerWith(
      submission.reply({
        ...REPLY,
        formErrors: [formMessage(Object.keys(errors))],
        fieldErrors: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, [message]])),
      }),
    );
  if (submission.status !== "success") {
    const fieldNames = Object.keys(submission.error ?? {});
    return {
      kind: "answer",
      status: 400,
      answer: answerWith(submission.reply({ ...REPLY, formErrors: [formMessage(fieldNames)] })),
    };
  }
  const update: RegistrationUpdate = isSeller
    ? { organizationType: Role.Seller, data: submission.value as SellerRegistrationData, keepFeedback }
    : { organizationType: stored.organizationType as BuyerSideCode, data: submission.value as BuyerRegistrationData };
  const { errors, certificationIds } = await checkUpdateReferences(services.db, update);
  if (Object.keys(errors).length > 0) return { kind: "answer", status: 400, answer: refuse(errors) };
  return { kind: "valid", update, certificationIds, refuse };
}
