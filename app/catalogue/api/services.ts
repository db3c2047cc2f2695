import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaffApi } from "~/sessions/auth.server";
import { serviceListQuery, servicePayload } from "../catalogue-schema";
import { serviceAnswer, serviceListAnswer } from "../catalogue-views";
import { createService, listServices } from "../services.server";
import type { Route } from "./+types/services";

/** GET /api/services[?parent=<id>]: every service, or the children of one (`parent=null`: top groups). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const query = serviceListQuery.safeParse({ parent: new URL(request.url).searchParams.get("parent") ?? undefined });
  if (!query.success) return apiErrors(400, zodErrors(query.error));
  return apiJson(serviceListAnswer, { services: await listServices(db, query.data.parent) });
}

/** POST /api/services {name, cost_account_code, parent} → 201 {"service"} (staff only). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiErrors(405, { form: "Use GET or POST here." }, { Allow: "GET, POST" });
  requireStaffApi(context);
  const parsed = servicePayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const result = await createService(context.get(appServicesContext).db, parsed.data);
  if (!result.ok) return apiErrors(result.status, result.errors);
  return apiJson(serviceAnswer, { service: result.value }, { status: 201 });
}
