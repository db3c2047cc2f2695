import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { servicePayload } from "../catalogue-schema";
import { getService, serviceTree, updateService } from "../services.server";
import type { Route } from "./+types/service-edit";
import { catalogueReply, parentOptions } from "./catalogue-form";
import { SERVICE_FIELD_NAMES, ServiceForm } from "./service-form";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const id = parseId(params.id);
  const service = id ? await getService(db, id) : undefined;
  if (!service) throw data(null, { status: 404 });
  return { service, options: parentOptions(await serviceTree(db), service.id) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const submission = parseSubmission(await readFormBody(request), { schema: servicePayload });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await updateService(context.get(appServicesContext).db, id, submission.value);
  if (!result.ok && result.status === 404) throw data(null, { status: 404 });
  if (!result.ok) {
    return data(
      { result: submission.reply(catalogueReply(result.errors, SERVICE_FIELD_NAMES)) },
      { status: result.status },
    );
  }
  return redirect("/staff/services?done=updated");
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Edit ${loaderData.service.name}` : "Edit service") }];
}

export default function ServiceEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { service, options } = loaderData;
  return (
    <div className="narrow">
      <h1>Edit service</h1>
      <ServiceForm
        id="service"
        lastResult={actionData?.result}
        defaultValue={{
          name: service.name,
          cost_account_code: service.cost_account_code ?? "",
          parent: service.parent === null ? "" : String(service.parent),
        }}
        parentOptions={options}
        submitLabel="Save changes"
      />
    </div>
  );
}
