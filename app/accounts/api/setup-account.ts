import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { isKnownTimezone, LINK_PROBLEM, setPasswordWithLink } from "../password-links/password-links.server";
import type { Route } from "./+types/setup-account";
import { messageAnswer, setupAccountPayload } from "./api-schema";

/** POST /api/account/setup_account {passwordResetToken, newPassword, timezone}. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = setupAccountPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const { db } = context.get(appServicesContext);
  if (!(await isKnownTimezone(db, parsed.data.timezone))) {
    return apiErrors(400, { timezone: "Please select a timezone" });
  }
  const done = await setPasswordWithLink(db, {
    token: parsed.data.passwordResetToken,
    purposes: ["account_setup"],
    newPassword: parsed.data.newPassword,
    timezone: parsed.data.timezone,
  });
  if (!done) return apiErrors(404, { form: LINK_PROBLEM });
  return apiJson(messageAnswer, { message: "Setup Complete! Your account is now setup." });
}
