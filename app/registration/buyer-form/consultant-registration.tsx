import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { loadRegistrationForm, submitRegistrationForm } from "../form/registration-form.server";
import { keepPageAfterRefusal, RegistrationFormPage } from "../form/registration-form-page";
import type { Route } from "./+types/consultant-registration";

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadRegistrationForm(context.get(appServicesContext), 4, params.accessToken);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitRegistrationForm(request, context.get(appServicesContext), 4, params.accessToken);

export const shouldRevalidate = keepPageAfterRefusal;

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Consultant Registration", { hasErrors: pageData?.tokenValid === false }) }];
}

export default function ConsultantRegistration({ loaderData, actionData, params }: Route.ComponentProps) {
  return (
    <RegistrationFormPage
      id="consultant-registration"
      title="Consultant Registration"
      accessToken={params.accessToken}
      loaderData={loaderData}
      actionData={actionData}
    />
  );
}
