import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaffApi } from "~/sessions/auth.server";
import { serviceAreaPayload } from "../catalogue-schema";
import { serviceAreaAnswer, serviceAreaListAnswer } from "../catalogue-views";
import { createServiceArea, listServiceAreas } from "../service-areas.server";
import type { Route } from "./+types/service-areas";

/** GET /api/service_areas → {"serviceAreas": [{id, city, province, country}]}. */
export async function loader({ context }: Route.LoaderArgs) {
  return apiJson(serviceAreaListAnswer, { serviceAreas: await listServiceAreas(context.get(appServicesContext).db) });
}

/** POST /api/service_areas {city, province, country} → 201 {"serviceArea"} (staff only). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiErrors(405, { form: "Use GET or POST here." }, { Allow: "GET, POST" });
  requireStaffApi(context);
  const parsed = serviceAreaPayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const result = await createServiceArea(context.get(appServicesContext).db, parsed.data);
  if (!result.ok) return apiErrors(result.status, result.errors);
  return apiJson(serviceAreaAnswer, { serviceArea: result.value }, { status: 201 });
}
