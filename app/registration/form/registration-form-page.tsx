import type { SubmissionResult } from "@conform-to/react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { ServiceAreaCheckboxData } from "~/catalogue/pickers/picker-selection";
import { ServiceAreaPicker } from "~/catalogue/pickers/service-area-picker";
import { BuyerRegistrationForm } from "../buyer-form/buyer-registration-form";
import { InvalidAccessToken } from "./invalid-access-token";
import type { RegistrationFormOptions } from "./registration-form.server";

export type RegistrationFormLoaderData =
  | { tokenValid: false }
  | { tokenValid: true; options: RegistrationFormOptions; serviceAreas: ServiceAreaCheckboxData | null };

export type RegistrationFormActionData =
  | { tokenValid: false }
  | { tokenValid: true; result: SubmissionResult<string[]>; serviceAreas: number[] };

/**
 * After a refused submission (400, 409, 503) the lists have not changed: the page keeps its data and
 * shows the answer, even when the database is what failed.
 */
export function keepPageAfterRefusal({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus !== undefined && actionStatus >= 400 ? false : defaultShouldRevalidate;
}

/** The buyer or consultant registration page: the form, or why it cannot be shown. */
export function RegistrationFormPage({
  id,
  title,
  accessToken,
  loaderData,
  actionData,
}: {
  id: string;
  title: string;
  accessToken: string;
  loaderData: RegistrationFormLoaderData;
  actionData?: RegistrationFormActionData;
}) {
  const tokenValid = loaderData.tokenValid && actionData?.tokenValid !== false;
  return (
    <div className="narrow">
      <h1>{title}</h1>
      {!tokenValid || !loaderData.tokenValid ? (
        <InvalidAccessToken />
      ) : loaderData.serviceAreas ? (
        <BuyerRegistrationForm
          id={id}
          accessToken={accessToken}
          options={loaderData.options}
          serviceAreas={loaderData.serviceAreas}
          lastResult={actionData?.tokenValid ? actionData.result : undefined}
          selectedServiceAreas={actionData?.tokenValid ? actionData.serviceAreas : undefined}
        />
      ) : (
        // The form appears only once the service-area list has loaded; the picker says it did not.
        <ServiceAreaPicker data={null} selected={[]} />
      )}
    </div>
  );
}
