import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext, clientAddressContext } from "~/server/app-context";
import { SEND_CODE_FAILED } from "../registration-texts";
import { requestCodePayload } from "../signup/signup-schema";
import { requestAccessCode } from "../signup/signup-steps.server";
import type { Route } from "./+types/request-code";
import { codeSentAnswer } from "./registration-api-schema";

/** POST /api/registration/request_code {name, organizationName, organizationType, mobileNumber} → {mobileNumber}. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = requestCodePayload.safeParse(await readApiBody(request));
  if (!parsed.success) {
    const errors = zodErrors(parsed.error);
    return apiErrors(400, errors.mobileNumber ? errors : { ...errors, form: SEND_CODE_FAILED });
  }
  const outcome = await requestAccessCode(
    context.get(appServicesContext),
    parsed.data,
    context.get(clientAddressContext),
  );
  if (outcome.kind === "throttled") {
    return apiErrors(429, { mobileNumber: outcome.message }, { "Retry-After": String(outcome.retryAfterSeconds) });
  }
  if (outcome.kind === "failed") return apiErrors(400, { form: SEND_CODE_FAILED });
  return apiJson(codeSentAnswer, { mobileNumber: outcome.mobileNumber });
}
