import { data, redirect } from "react-router";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { servicePayload } from "../catalogue-schema";
import { createService, serviceTree } from "../services.server";
import type { Route } from "./+types/service-new";
import { catalogueReply, parentOptions } from "./catalogue-form";
import { SERVICE_FIELD_NAMES, ServiceForm } from "./service-form";

export async function loader({ request, context }: Route.LoaderArgs) {
  const tree = await serviceTree(context.get(appServicesContext).db);
  const options = parentOptions(tree);
  // "Add a sub-service" links preselect the parent.
  const parent = parseId(new URL(request.url).searchParams.get("parent") ?? undefined);
  const preselected = options.some((option) => option.value === String(parent)) ? String(parent) : "";
  return { options, parent: preselected };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormBody(request), { schema: servicePayload });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await createService(context.get(appServicesContext).db, submission.value);
  if (!result.ok) {
    return data(
      { result: submission.reply(catalogueReply(result.errors, SERVICE_FIELD_NAMES)) },
      { status: result.status },
    );
  }
  return redirect("/staff/services?done=created");
}

export function meta() {
  return [{ title: pageTitle("Add a service") }];
}

export default function ServiceNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <h1>Add a service</h1>
      <ServiceForm
        id="service"
        lastResult={actionData?.result}
        defaultValue={{ name: "", cost_account_code: "", parent: loaderData.parent }}
        parentOptions={loaderData.options}
        submitLabel="Add service"
      />
    </div>
  );
}
