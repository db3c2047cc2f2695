import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { findUsableToken } from "../account-tokens.server";
import { LINK_PROBLEM } from "../password-links/password-links.server";
import type { Route } from "./+types/verify-password-reset-token";
import { usableTokenAnswer, verifyTokenPayload } from "./api-schema";

/** POST /api/account/verify_password_reset_token {passwordResetToken}: any usable link token. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = verifyTokenPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const { db } = context.get(appServicesContext);
  const token = await findUsableToken(db, parsed.data.passwordResetToken, [
    "password_reset",
    "set_password",
    "account_setup",
  ]);
  if (!token) return apiErrors(404, { form: LINK_PROBLEM });
  return apiJson(usableTokenAnswer, { valid: true, purpose: token.purpose });
}
