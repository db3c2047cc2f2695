import { data, redirect } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { lastUpdated, legalSections } from "~/public-pages/content/terms-and-conditions";
import { appServicesContext } from "~/server/app-context";
import { InvalidAccessToken } from "../form/invalid-access-token";
import { INVALID_ACCESS_TOKEN, registrationFormPath } from "../registration-texts";
import { acceptTerms, findUsableAccessToken } from "../signup/signup-steps.server";
import type { Route } from "./+types/accept-terms-and-conditions";
import { LegalAcceptance } from "./legal-acceptance";

const privacyPolicyStep = (token: string) => `/signup/accept-privacy-policy/${token}`;

export async function loader({ params, context }: Route.LoaderArgs) {
  const state = await findUsableAccessToken(context.get(appServicesContext).db, params.accessToken);
  if (!state) return data({ tokenValid: false }, { status: 404 });
  // Steps cannot be skipped: the privacy policy comes first.
  if (!state.privacyPolicyAccepted) throw redirect(privacyPolicyStep(params.accessToken));
  return { tokenValid: true };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await readFormBody(request); // no fields, but a malformed body is refused like anywhere else
  const outcome = await acceptTerms(context.get(appServicesContext).db, params.accessToken);
  if (outcome.kind === "privacy-policy-first") return redirect(privacyPolicyStep(params.accessToken));
  if (outcome.kind === "invalid") {
    return data({ tokenValid: false, formErrors: [INVALID_ACCESS_TOKEN] }, { status: 404 });
  }
  return redirect(registrationFormPath(outcome.organizationType, params.accessToken));
}

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Terms & Conditions", { hasErrors: pageData?.tokenValid === false }) }];
}

export default function AcceptTermsAndConditions({ loaderData, actionData }: Route.ComponentProps) {
  const tokenValid = actionData ? actionData.tokenValid : loaderData.tokenValid;
  return (
    <div className="narrow">
      <h1>Terms &amp; Conditions</h1>
      {tokenValid ? (
        <LegalAcceptance
          id="accept-terms-and-conditions"
          title="Terms & Conditions"
          sections={legalSections}
          lastUpdated={lastUpdated}
        />
      ) : (
        <InvalidAccessToken />
      )}
    </div>
  );
}
