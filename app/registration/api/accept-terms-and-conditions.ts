import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { accessTokenPayload } from "../signup/signup-schema";
import { acceptTerms, LEGAL_VERSIONS } from "../signup/signup-steps.server";
import type { Route } from "./+types/accept-terms-and-conditions";
import { termsAcceptedAnswer } from "./registration-api-schema";

/** POST /api/registration/accept_terms_and_conditions {accessToken} → {organizationType}; privacy policy first. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = accessTokenPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const outcome = await acceptTerms(context.get(appServicesContext).db, parsed.data.accessToken);
  if (outcome.kind === "invalid") return apiErrors(404, { form: INVALID_ACCESS_TOKEN });
  // Steps cannot be skipped: the spec has one message for every failure to accept.
  if (outcome.kind === "privacy-policy-first") return apiErrors(409, { form: INVALID_ACCESS_TOKEN });
  return apiJson(termsAcceptedAnswer, { organizationType: outcome.organizationType, version: LEGAL_VERSIONS.terms });
}
