import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { INVALID_ACCESS_CODE } from "../registration-texts";
import { verifyCodePayload } from "../signup/signup-schema";
import { verifyAccessCode } from "../signup/signup-steps.server";
import type { Route } from "./+types/verify-code";
import { accessTokenAnswer } from "./registration-api-schema";

/** POST /api/registration/verify_code {mobileNumber, verificationCode} → {accessToken}. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = verifyCodePayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const { db } = context.get(appServicesContext);
  const outcome = await verifyAccessCode(db, parsed.data.mobileNumber, parsed.data.verificationCode);
  if (outcome.kind === "invalid") return apiErrors(400, { form: INVALID_ACCESS_CODE });
  return apiJson(accessTokenAnswer, { accessToken: outcome.accessToken });
}
