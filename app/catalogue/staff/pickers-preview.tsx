import { Form } from "react-router";
import { Alert } from "~/forms/alert";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import {
  loadServiceAreaPickerData,
  loadServicePickerData,
  readServiceAreaSelection,
  readServiceSelection,
} from "../pickers/picker-data.server";
import { selectedLabels, serviceAreaTree, serviceTreeNodes } from "../pickers/picker-selection";
import { ServiceAreaPicker } from "../pickers/service-area-picker";
import { ServicePicker } from "../pickers/service-picker";
import type { Route } from "./+types/pickers-preview";

// Staff check here how the registration forms' pickers show the catalogue they maintain. Nothing is saved.

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const [serviceAreas, services] = await Promise.all([loadServiceAreaPickerData(db), loadServicePickerData(db)]);
  return { serviceAreas, services };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db } = context.get(appServicesContext);
  const formData = await readFormBody(request);
  const [areaData, serviceData] = await Promise.all([loadServiceAreaPickerData(db), loadServicePickerData(db)]);
  const serviceAreas = readServiceAreaSelection(formData, areaData);
  const services = readServiceSelection(formData, serviceData);
  return {
    serviceAreas,
    services,
    serviceAreaLabels: areaData ? selectedLabels(serviceAreaTree(areaData), serviceAreas) : [],
    serviceLabels: serviceData ? selectedLabels(serviceTreeNodes(serviceData), services) : [],
  };
}

export function meta() {
  return [{ title: pageTitle("Picker preview") }];
}

const NO_SELECTION: number[] = [];

export default function PickersPreview({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <h1>Picker preview</h1>
      <p>
        The service-area and service checkboxes as the registration forms show them, with the current catalogue. Try
        them here; nothing is saved.
      </p>
      {actionData ? (
        <Alert title="Your selection" tone="success" focus="answer">
          <p>
            {actionData.serviceAreas.length} service areas: {actionData.serviceAreaLabels.join("; ") || "none"}.
          </p>
          <p>
            {actionData.services.length} services: {actionData.serviceLabels.join("; ") || "none"}.
          </p>
        </Alert>
      ) : null}
      <Form method="post" className="stack">
        <ServiceAreaPicker data={loaderData.serviceAreas} selected={actionData?.serviceAreas ?? NO_SELECTION} />
        <ServicePicker data={loaderData.services} selected={actionData?.services ?? NO_SELECTION} />
        <SubmitButton>Show selection</SubmitButton>
      </Form>
    </div>
  );
}
