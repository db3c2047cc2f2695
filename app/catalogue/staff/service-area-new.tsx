import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { serviceAreaPayload } from "../catalogue-schema";
import { createServiceArea, listProvinces } from "../service-areas.server";
import type { Route } from "./+types/service-area-new";
import { catalogueReply } from "./catalogue-form";
import { SERVICE_AREA_FIELD_NAMES, ServiceAreaForm } from "./service-area-form";

export async function loader({ context }: Route.LoaderArgs) {
  const provinces = await listProvinces(context.get(appServicesContext).db);
  return { options: provinces.map((province) => ({ value: String(province.id), label: province.name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormBody(request), { schema: serviceAreaPayload });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await createServiceArea(context.get(appServicesContext).db, submission.value);
  if (!result.ok) {
    return data(
      { result: submission.reply(catalogueReply(result.errors, SERVICE_AREA_FIELD_NAMES)) },
      { status: result.status },
    );
  }
  return redirect("/staff/service-areas?done=created");
}

export function meta() {
  return [{ title: pageTitle("Add a service area") }];
}

export default function ServiceAreaNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <h1>Add a service area</h1>
      <ServiceAreaForm
        id="service-area"
        lastResult={actionData?.result}
        provinceOptions={loaderData.options}
        submitLabel="Add service area"
      />
    </div>
  );
}
