import { pageTitle } from "~/layout/page-title";
import type { Route } from "./+types/reset-password";
import { LinkProblem } from "./link-problem";
import { NewPasswordForm } from "./new-password-form";
import { loadPasswordLink, submitPasswordLink } from "./password-link-route.server";

const route = { purposes: ["password_reset" as const], completeUrl: "/reset-password/complete" };

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadPasswordLink(context, params.passwordResetToken, route);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitPasswordLink(request, context, params.passwordResetToken, route);

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Reset your password", { hasErrors: Boolean(pageData && "result" in pageData) }) }];
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const linkValid = actionData ? actionData.linkValid : loaderData.linkValid;
  return (
    <div className="narrow">
      <h1>Reset your password</h1>
      {linkValid ? (
        <NewPasswordForm id="reset-password" lastResult={actionData?.result} />
      ) : (
        <LinkProblem afterSubmission={Boolean(actionData)} />
      )}
    </div>
  );
}
