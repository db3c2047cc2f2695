import { ServiceAreaPicker } from "~/catalogue/pickers/service-area-picker";
import { ServicePicker } from "~/catalogue/pickers/service-picker";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { InvalidAccessToken } from "../form/invalid-access-token";
import { keepPageAfterRefusal } from "../form/registration-form-page";
import type { Route } from "./+types/seller-registration";
import { loadSellerRegistrationForm, submitSellerRegistrationForm } from "./seller-registration.server";
import { SellerRegistrationForm } from "./seller-registration-form";

export const loader = ({ params, context }: Route.LoaderArgs) =>
  loadSellerRegistrationForm(context.get(appServicesContext), params.accessToken);

export const action = ({ request, params, context }: Route.ActionArgs) =>
  submitSellerRegistrationForm(request, context.get(appServicesContext), params.accessToken);

export const shouldRevalidate = keepPageAfterRefusal;

export function meta({ data: pageData }: Route.MetaArgs) {
  return [{ title: pageTitle("Seller Registration", { hasErrors: pageData?.tokenValid === false }) }];
}

export default function SellerRegistration({ loaderData, actionData, params }: Route.ComponentProps) {
  const tokenValid = loaderData.tokenValid && actionData?.tokenValid !== false;
  const answer = actionData?.tokenValid ? actionData : undefined;
  return (
    <div className="narrow">
      <h1>Seller Registration</h1>
      {!tokenValid || !loaderData.tokenValid ? (
        <InvalidAccessToken />
      ) : loaderData.serviceAreas && loaderData.serviceCategories ? (
        <SellerRegistrationForm
          id="seller-registration"
          accessToken={params.accessToken}
          options={loaderData.options}
          serviceAreas={loaderData.serviceAreas}
          serviceCategories={loaderData.serviceCategories}
          payment={loaderData.payment}
          today={loaderData.today}
          currentYear={loaderData.currentYear}
          lastResult={answer?.result}
          selectedServiceAreas={answer?.serviceAreas}
          selectedServices={answer?.services}
          cardError={answer?.cardError}
        />
      ) : (
        // The form appears only once both lists have loaded; the pickers say which did not.
        <>
          {loaderData.serviceAreas ? null : <ServiceAreaPicker data={null} selected={[]} />}
          {loaderData.serviceCategories ? null : <ServicePicker data={null} selected={[]} />}
        </>
      )}
    </div>
  );
}
