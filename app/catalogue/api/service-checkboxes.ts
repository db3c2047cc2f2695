import { apiJson } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { serviceCheckboxesAnswer } from "../catalogue-views";
import { serviceCheckboxes } from "../checkboxes.server";
import type { Route } from "./+types/service-checkboxes";

// In production the server answers this path from its catalogue read cache before reaching here.
export async function loader({ context }: Route.LoaderArgs) {
  return apiJson(serviceCheckboxesAnswer, await serviceCheckboxes(context.get(appServicesContext).db));
}
