import { pageTitle } from "~/layout/page-title";
import type { Route } from "./+types/account-setup";
import { LinkProblem } from "./link-problem";
import { NewPasswordForm } from "./new-password-form";
import { loadPasswordLink, submitPasswordLink } from "./password-link-route.server";

const route = { purposes: ["account_setup" as const], withTimezone: true, completeUrl: "/account-setup/complete" };

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadPasswordLink(context, params.passwordResetToken, route);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitPasswordLink(request, context, params.passwordResetToken, route);

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Set up your account", { hasErrors: Boolean(pageData && "result" in pageData) }) }];
}

export default function AccountSetup({ loaderData, actionData }: Route.ComponentProps) {
  const linkValid = actionData ? actionData.linkValid : loaderData.linkValid;
  return (
    <div className="narrow">
      <h1>Set up your account</h1>
      {linkValid ? (
        <>
          <p>To complete your registration please set your account password and timezone.</p>
          <NewPasswordForm
            id="account-setup"
            lastResult={actionData?.result}
            timezoneOptions={loaderData.timezoneOptions}
          />
        </>
      ) : (
        <LinkProblem afterSubmission={Boolean(actionData)} />
      )}
    </div>
  );
}
