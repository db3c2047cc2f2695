import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { accessTokenPayload } from "../signup/signup-schema";
import { findUsableAccessToken } from "../signup/signup-steps.server";
import type { Route } from "./+types/verify-access-token";
import { accessTokenStateAnswer } from "./registration-api-schema";

/** POST /api/registration/verify_access_token {accessToken}: usable, and how far the applicant got. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = accessTokenPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const state = await findUsableAccessToken(context.get(appServicesContext).db, parsed.data.accessToken);
  if (!state) return apiErrors(404, { form: INVALID_ACCESS_TOKEN });
  return apiJson(accessTokenStateAnswer, {
    valid: true,
    organizationType: state.organizationType,
    privacyPolicyAccepted: state.privacyPolicyAccepted,
    termsAccepted: state.termsAccepted,
  });
}
