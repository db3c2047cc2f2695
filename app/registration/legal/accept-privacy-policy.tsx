import { data, redirect } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { lastUpdated, legalSections } from "~/public-pages/content/privacy-policy";
import { appServicesContext } from "~/server/app-context";
import { InvalidAccessToken } from "../form/invalid-access-token";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import { acceptPrivacyPolicy, findUsableAccessToken } from "../signup/signup-steps.server";
import type { Route } from "./+types/accept-privacy-policy";
import { LegalAcceptance } from "./legal-acceptance";

export async function loader({ params, context }: Route.LoaderArgs) {
  const state = await findUsableAccessToken(context.get(appServicesContext).db, params.accessToken);
  if (!state) return data({ tokenValid: false }, { status: 404 });
  return { tokenValid: true };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await readFormBody(request); // no fields, but a malformed body is refused like anywhere else
  if (!(await acceptPrivacyPolicy(context.get(appServicesContext).db, params.accessToken))) {
    return data({ tokenValid: false, formErrors: [INVALID_ACCESS_TOKEN] }, { status: 404 });
  }
  return redirect(`/signup/accept-terms-and-conditions/${params.accessToken}`);
}

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Privacy Policy", { hasErrors: pageData?.tokenValid === false }) }];
}

export default function AcceptPrivacyPolicy({ loaderData, actionData }: Route.ComponentProps) {
  const tokenValid = actionData ? actionData.tokenValid : loaderData.tokenValid;
  return (
    <div className="narrow">
      <h1>Privacy Policy</h1>
      {tokenValid ? (
        <LegalAcceptance
          id="accept-privacy-policy"
          title="Privacy Policy"
          sections={legalSections}
          lastUpdated={lastUpdated}
        />
      ) : (
        <InvalidAccessToken />
      )}
    </div>
  );
}
