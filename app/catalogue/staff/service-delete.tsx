import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { deletionForm } from "../catalogue-schema";
import { deleteService, getService } from "../services.server";
import type { Route } from "./+types/service-delete";
import { DeleteConfirmation } from "./delete-confirmation";

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const service = id ? await getService(context.get(appServicesContext).db, id) : undefined;
  if (!service) throw data(null, { status: 404 });
  return { service };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // No fields, but a malformed body is refused like anywhere else, and a refusal is a Conform reply.
  const submission = parseSubmission(await readFormBody(request), { schema: deletionForm });
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const result = await deleteService(context.get(appServicesContext).db, id);
  if (result.ok) return redirect("/staff/services?done=deleted");
  if (result.status === 404) throw data(null, { status: 404 });
  return data(
    { result: submission.reply({ formErrors: [Object.values(result.errors).join(" ")] }) },
    { status: result.status },
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Delete ${loaderData.service.name}` : "Delete service") }];
}

export default function ServiceDelete({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <DeleteConfirmation
      heading="Delete service"
      what={loaderData.service.name}
      backTo="/staff/services"
      lastResult={actionData?.result}
    />
  );
}
