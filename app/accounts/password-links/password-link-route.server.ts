import { asc } from "drizzle-orm";
import { data, type RouterContextProvider, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { timezones } from "~db/schema";
import type { AccountTokenPurpose } from "../account-tokens.server";
import { accountSetupSchema, newPasswordSchema } from "../schemas";
import { isKnownTimezone, isUsableLink, SET_PASSWORD_PROBLEM, setPasswordWithLink } from "./password-links.server";

type LinkRoute = {
  purposes: AccountTokenPurpose[];
  /** Account setup also asks for the timezone. */
  withTimezone?: boolean;
  completeUrl: string;
};

/** Loader of the reset, set-password and setup pages: is the link usable (and the timezone list). */
export async function loadPasswordLink(context: Readonly<RouterContextProvider>, token: string, route: LinkRoute) {
  const { db } = context.get(appServicesContext);
  if (!(await isUsableLink(db, token, route.purposes))) {
    return data({ linkValid: false as const, timezoneOptions: [] }, { status: 404 });
  }
  const timezoneOptions = route.withTimezone
    ? (await db.select().from(timezones).orderBy(asc(timezones.offsetMinutes), asc(timezones.name))).map((zone) => ({
        value: zone.name,
        label: zone.label,
      }))
    : [];
  return { linkValid: true as const, timezoneOptions };
}

/** Action of those pages: validate, then spend the link and set the password in one transaction. */
export async function submitPasswordLink(
  request: Request,
  context: Readonly<RouterContextProvider>,
  token: string,
  route: LinkRoute,
) {
  const { db } = context.get(appServicesContext);
  const schema = route.withTimezone ? accountSetupSchema : newPasswordSchema;
  const submission = parseSubmission(await readFormBody(request), { schema });
  const hideFields = ["newPassword", "confirmPassword"];
  if (submission.status !== "success") {
    return data({ linkValid: true, result: submission.reply({ hideFields }) }, { status: 400 });
  }
  const value: { newPassword: string; timezone?: string } = submission.value;
  const timezone = value.timezone;
  if (timezone !== undefined && !(await isKnownTimezone(db, timezone))) {
    return data(
      {
        linkValid: true,
        result: submission.reply({ fieldErrors: { timezone: ["Please select a timezone"] }, hideFields }),
      },
      { status: 400 },
    );
  }
  const done = await setPasswordWithLink(db, {
    token,
    purposes: route.purposes,
    newPassword: value.newPassword,
    timezone,
  });
  if (!done) {
    // The link was spent or expired since the page loaded (spec section 8: the set-password failure).
    return data(
      { linkValid: false, result: submission.reply({ formErrors: [SET_PASSWORD_PROBLEM], hideFields }) },
      { status: 404 },
    );
  }
  return redirect(route.completeUrl);
}
