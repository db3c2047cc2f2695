import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { serviceAreaPayload } from "../catalogue-schema";
import { getServiceArea, listProvinces, updateServiceArea } from "../service-areas.server";
import type { Route } from "./+types/service-area-edit";
import { catalogueReply } from "./catalogue-form";
import { SERVICE_AREA_FIELD_NAMES, ServiceAreaForm } from "./service-area-form";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const id = parseId(params.id);
  const area = id ? await getServiceArea(db, id) : undefined;
  if (!area) throw data(null, { status: 404 });
  const provinces = await listProvinces(db);
  return { area, options: provinces.map((province) => ({ value: String(province.id), label: province.name })) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const submission = parseSubmission(await readFormBody(request), { schema: serviceAreaPayload });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await updateServiceArea(context.get(appServicesContext).db, id, submission.value);
  if (!result.ok && result.status === 404) throw data(null, { status: 404 });
  if (!result.ok) {
    return data(
      { result: submission.reply(catalogueReply(result.errors, SERVICE_AREA_FIELD_NAMES)) },
      { status: result.status },
    );
  }
  return redirect("/staff/service-areas?done=updated");
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Edit ${loaderData.area.city}` : "Edit service area") }];
}

export default function ServiceAreaEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { area, options } = loaderData;
  return (
    <div className="narrow">
      <h1>Edit service area</h1>
      <ServiceAreaForm
        id="service-area"
        lastResult={actionData?.result}
        defaultValue={{ city: area.city, province: String(area.province) }}
        provinceOptions={options}
        submitLabel="Save changes"
      />
    </div>
  );
}
