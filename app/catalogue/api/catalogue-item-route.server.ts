import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { apiErrors, apiJson, readApiBody, zodErrors } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaffApi } from "~/sessions/auth.server";
import { parseId } from "~/shared/ids";
import type { Database } from "~db/database.server";
import { type CatalogueResult, NOT_FOUND } from "../catalogue-result";

type RouteArgs = { request: Request; params: { id: string }; context: Readonly<RouterContextProvider> };

/**
 * GET, PUT and DELETE of one catalogue item (a service or a service area), answered as `answer`
 * (`present` wraps the item): anyone may read; writing is for staff (spec section 7's catalogue calls).
 */
export function catalogueItemRoute<Payload extends z.ZodType, Answer extends z.ZodType, View>(item: {
  payload: Payload;
  answer: Answer;
  present(view: View): z.output<Answer>;
  get(db: Database, id: number): Promise<View | undefined>;
  update(db: Database, id: number, value: z.infer<Payload>): Promise<CatalogueResult<View>>;
  remove(db: Database, id: number): Promise<CatalogueResult<null>>;
}) {
  async function loader({ params, context }: Omit<RouteArgs, "request">) {
    const id = parseId(params.id);
    const found = id ? await item.get(context.get(appServicesContext).db, id) : undefined;
    return found ? apiJson(item.answer, item.present(found)) : apiErrors(404, NOT_FOUND);
  }

  async function action({ request, params, context }: RouteArgs) {
    if (request.method !== "PUT" && request.method !== "DELETE") {
      return apiErrors(405, { form: "Use GET, PUT or DELETE here." }, { Allow: "GET, PUT, DELETE" });
    }
    requireStaffApi(context);
    const { db } = context.get(appServicesContext);
    const id = parseId(params.id);
    if (!id) return apiErrors(404, NOT_FOUND);
    if (request.method === "DELETE") {
      const result = await item.remove(db, id);
      return result.ok ? new Response(null, { status: 204 }) : apiErrors(result.status, result.errors);
    }
    const parsed = item.payload.safeParse(await readApiBody(request));
    if (!parsed.success) return apiErrors(400, zodErrors(parsed.error));
    const result = await item.update(db, id, parsed.data);
    return result.ok ? apiJson(item.answer, item.present(result.value)) : apiErrors(result.status, result.errors);
  }

  return { loader, action };
}
