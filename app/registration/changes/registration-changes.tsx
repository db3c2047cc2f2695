import { Link } from "react-router";
import { Alert } from "~/forms/alert";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { keepPageAfterRefusal } from "../form/registration-form-page";
import type { Route } from "./+types/registration-changes";
import { loadChangesForm, submitChangesForm } from "./registration-changes.server";
import { StoredRegistrationForm } from "./stored-registration-form";

// /signup/registration-changes/{token}: the applicant's registration, pre-filled, with the changes
// staff asked for; resubmitting puts it back in the review queue.

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadChangesForm(context.get(appServicesContext), params.changeToken);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitChangesForm(request, context.get(appServicesContext), params.changeToken);

export const shouldRevalidate = keepPageAfterRefusal;

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Update your registration", { hasErrors: pageData?.tokenValid === false }) }];
}

export default function RegistrationChanges({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.tokenValid || actionData?.tokenValid === false) {
    return (
      <div className="narrow">
        <h1>Update your registration</h1>
        <Alert title="Error!">
          <p>Please check the link and try again.</p>
        </Alert>
        <p>
          The link works for 14 days and for one resubmission. If it no longer works, please reply to the e-mail that
          sent it, or <Link to="/signup">start a new registration</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="narrow">
      <h1>Update your registration</h1>
      <section className="inset" aria-labelledby="requested-changes">
        <h2 id="requested-changes">Changes our staff asked for</h2>
        <p className="preserve-lines">{loaderData.message}</p>
      </section>
      <p>What you sent before is filled in. Please make the changes and resubmit.</p>
      <StoredRegistrationForm
        id="registration-changes"
        form={loaderData}
        answer={actionData?.tokenValid ? actionData : undefined}
        purpose="changes"
      />
    </div>
  );
}
