import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { accessTokenPayload } from "../signup/signup-schema";
import { acceptPrivacyPolicy, LEGAL_VERSIONS } from "../signup/signup-steps.server";
import type { Route } from "./+types/accept-privacy-policy";
import { privacyPolicyAcceptedAnswer } from "./registration-api-schema";

/** POST /api/registration/accept_privacy_policy {accessToken}: records the version accepted and when. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = accessTokenPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const accepted = await acceptPrivacyPolicy(context.get(appServicesContext).db, parsed.data.accessToken);
  if (!accepted) return apiErrors(404, { form: INVALID_ACCESS_TOKEN });
  return apiJson(privacyPolicyAcceptedAnswer, { accepted: true, version: LEGAL_VERSIONS.privacyPolicy });
}
