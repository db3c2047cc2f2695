import { requireStaffApi } from "~/accounts/auth.server";
import { apiErrors, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/platform/app-context";
import { NOT_FOUND } from "../catalogue-result";
import { parseId, servicePayload } from "../catalogue-schemas";
import { deleteService, getService, updateService } from "../services.server";
import type { Route } from "./+types/service";

/** GET /api/services/{id} → {"service"}. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const service = id ? await getService(context.get(appServicesContext).db, id) : undefined;
  return service ? Response.json({ service }) : apiErrors(404, NOT_FOUND);
}

/** PUT /api/services/{id} {name, cost_account_code, parent} → {"service"}; DELETE → 204 (staff only). */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") {
    return apiErrors(405, { form: "Use GET, PUT or DELETE here." }, { Allow: "GET, PUT, DELETE" });
  }
  requireStaffApi(context);
  const { db } = context.get(appServicesContext);
  const id = parseId(params.id);
  if (!id) return apiErrors(404, NOT_FOUND);
  if (request.method === "DELETE") {
    const result = await deleteService(db, id);
    return result.ok ? new Response(null, { status: 204 }) : apiErrors(result.status, result.errors);
  }
  const parsed = servicePayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const result = await updateService(db, id, parsed.data);
  return result.ok ? Response.json({ service: result.value }) : apiErrors(result.status, result.errors);
}
