import { requireStaffApi } from "~/accounts/auth.server";
import { apiErrors, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/platform/app-context";
import { NOT_FOUND } from "../catalogue-result";
import { parseId, serviceAreaPayload } from "../catalogue-schemas";
import { deleteServiceArea, getServiceArea, updateServiceArea } from "../service-areas.server";
import type { Route } from "./+types/service-area";

/** GET /api/service_areas/{id} → {"serviceArea"}. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const serviceArea = id ? await getServiceArea(context.get(appServicesContext).db, id) : undefined;
  return serviceArea ? Response.json({ serviceArea }) : apiErrors(404, NOT_FOUND);
}

/** PUT /api/service_areas/{id} {city, province, country} → {"serviceArea"}; DELETE → 204 (staff only). */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") {
    return apiErrors(405, { form: "Use GET, PUT or DELETE here." }, { Allow: "GET, PUT, DELETE" });
  }
  requireStaffApi(context);
  const { db } = context.get(appServicesContext);
  const id = parseId(params.id);
  if (!id) return apiErrors(404, NOT_FOUND);
  if (request.method === "DELETE") {
    const result = await deleteServiceArea(db, id);
    return result.ok ? new Response(null, { status: 204 }) : apiErrors(result.status, result.errors);
  }
  const parsed = serviceAreaPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const result = await updateServiceArea(db, id, parsed.data);
  return result.ok ? Response.json({ serviceArea: result.value }) : apiErrors(result.status, result.errors);
}
