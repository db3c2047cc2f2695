import { pageTitle } from "~/layout/page-title";
import type { Route } from "./+types/set-password";
import { LinkProblem } from "./link-problem";
import { NewPasswordForm } from "./new-password-form";
import { loadPasswordLink, submitPasswordLink } from "./password-link-route.server";

const route = { purposes: ["set_password" as const], completeUrl: "/set-password/complete" };

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadPasswordLink(context, params.setPasswordToken, route);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitPasswordLink(request, context, params.setPasswordToken, route);

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Set your account password", { hasErrors: Boolean(pageData && "result" in pageData) }) }];
}

export default function SetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const linkValid = actionData ? actionData.linkValid : loaderData.linkValid;
  return (
    <div className="narrow">
      <h1>Set your account password</h1>
      {linkValid ? (
        <NewPasswordForm id="set-password" legend="Choose a Password" lastResult={actionData?.result} />
      ) : (
        <LinkProblem afterSubmission={Boolean(actionData)} />
      )}
    </div>
  );
}
