import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import type { AppServices } from "~/server/app-context";
import type { BuyerSideCode } from "~/shared/roles";
import { buyerRegistrationSchema, INCOMPLETE_FORM } from "../form/registration-data";
import { registerBuyerOrConsultant } from "../form/registration-store.server";
import { registrationAnswer } from "./registration-api-schema";

/**
 * POST /api/registration/register_buyer and register_consultant: 201 once, 200 for a resubmission of
 * the same data, 409 {"errors":{"form":"Invalid access token."}} for other data with the used token.
 */
export async function handleRegistration(request: Request, services: AppServices, organizationType: BuyerSideCode) {
  const parsed = buyerRegistrationSchema.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, { ...zodErrors(parsed.error), form: INCOMPLETE_FORM });
  const outcome = await registerBuyerOrConsultant(services, organizationType, parsed.data);
  switch (outcome.kind) {
    case "invalid-fields":
      return apiErrors(400, { ...outcome.errors, form: INCOMPLETE_FORM });
    case "refused":
      return apiErrors(outcome.status, { form: outcome.message });
    case "already-submitted":
      return apiJson(
        registrationAnswer,
        { registration: { id: outcome.registrationId, status: "submitted" } },
        { status: 200 },
      );
    case "created":
      return apiJson(
        registrationAnswer,
        { registration: { id: outcome.registrationId, status: "submitted" } },
        { status: 201 },
      );
  }
}
