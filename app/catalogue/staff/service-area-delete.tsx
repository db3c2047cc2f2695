import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { deletionForm } from "../catalogue-schema";
import { deleteServiceArea, getServiceArea, listProvinces } from "../service-areas.server";
import type { Route } from "./+types/service-area-delete";
import { DeleteConfirmation } from "./delete-confirmation";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const id = parseId(params.id);
  const area = id ? await getServiceArea(db, id) : undefined;
  if (!area) throw data(null, { status: 404 });
  const province = (await listProvinces(db)).find((candidate) => candidate.id === area.province);
  return { area, label: province ? `${area.city}, ${province.name}` : area.city };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // No fields, but a malformed body is refused like anywhere else, and a refusal is a Conform reply.
  const submission = parseSubmission(await readFormBody(request), { schema: deletionForm });
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const result = await deleteServiceArea(context.get(appServicesContext).db, id);
  if (result.ok) return redirect("/staff/service-areas?done=deleted");
  if (result.status === 404) throw data(null, { status: 404 });
  return data(
    { result: submission.reply({ formErrors: [Object.values(result.errors).join(" ")] }) },
    { status: result.status },
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Delete ${loaderData.area.city}` : "Delete service area") }];
}

export default function ServiceAreaDelete({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DeleteConfirmation
      heading="Delete service area"
      what={loaderData.label}
      backTo="/staff/service-areas"
      lastResult={actionData?.result}
    />
  );
}
