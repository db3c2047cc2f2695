import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext, clientAddressContext } from "~/server/app-context";
import { RESET_PROBLEM, RESET_SENT } from "../account-texts";
import { requestPasswordReset } from "../password-links/password-reset-request.server";
import { forgotPasswordSchema } from "../schemas";
import type { Route } from "./+types/send-password-reset";
import { messageAnswer } from "./api-schema";

/** POST /api/account/send_password_reset {email}: the same answer whether or not the account exists. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = forgotPasswordSchema.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, { ...zodErrors(parsed.error), form: RESET_PROBLEM });
  const outcome = await requestPasswordReset(
    context.get(appServicesContext),
    parsed.data.email,
    context.get(clientAddressContext),
  );
  if (outcome.kind === "failed") return apiErrors(outcome.status, { form: outcome.message });
  return apiJson(messageAnswer, { message: RESET_SENT });
}
