import { apiJson } from "~/api/api-responses.server";
import { appServicesContext } from "~/server/app-context";
import { serviceAreaCheckboxesAnswer } from "../catalogue-views";
import { serviceAreaCheckboxes } from "../checkboxes.server";
import type { Route } from "./+types/service-area-checkboxes";

// In production the server answers this path from its catalogue read cache before reaching here.
export async function loader({ context }: Route.LoaderArgs) {
  return apiJson(serviceAreaCheckboxesAnswer, await serviceAreaCheckboxes(context.get(appServicesContext).db));
}
