import { apiErrors, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaffApi } from "~/sessions/auth.server";
import { parseId } from "~/shared/ids";
import { servicePayload } from "../catalogue-schema";
import { createService, listServices } from "../services.server";
import type { Route } from "./+types/services";

/** GET /api/services[?parent=<id>]: every service, or the children of one (`parent=null`: top groups). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appServicesContext);
  const raw = new URL(request.url).searchParams.get("parent");
  let parent: number | null | undefined;
  if (raw === "" || raw === "null") parent = null;
  else if (raw !== null) {
    parent = parseId(raw);
    if (parent === undefined) return apiErrors(400, { parent: "parent must be a service id" });
  }
  return Response.json({ services: await listServices(db, parent) });
}

/** POST /api/services {name, cost_account_code, parent} → 201 {"service"} (staff only). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiErrors(405, { form: "Use GET or POST here." }, { Allow: "GET, POST" });
  requireStaffApi(context);
  const parsed = servicePayload.safeParse(await readApiBody(request));
  if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
  const result = await createService(context.get(appServicesContext).db, parsed.data);
  if (!result.ok) return apiErrors(result.status, result.errors);
  return Response.json({ service: result.value }, { status: 201 });
}
