import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { LINK_PROBLEM, setPasswordWithLink } from "../password-links/password-links.server";
import type { Route } from "./+types/token-set-password";
import { messageAnswer, tokenSetPasswordPayload } from "./api-schema";

/** POST /api/account/token_set_password {passwordResetToken, newPassword}: reset or set-password links. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = tokenSetPasswordPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const { db } = context.get(appServicesContext);
  const done = await setPasswordWithLink(db, {
    token: parsed.data.passwordResetToken,
    purposes: ["password_reset", "set_password"],
    newPassword: parsed.data.newPassword,
  });
  if (!done) return apiErrors(404, { form: LINK_PROBLEM });
  return apiJson(messageAnswer, { message: "Password set!" });
}
