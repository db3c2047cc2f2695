import { appServicesContext } from "~/server/app-context";
import { serviceCheckboxes } from "../checkboxes.server";
import type { Route } from "./+types/service-checkboxes";

// In production the server answers this path from its catalogue read cache before reaching here.
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(await serviceCheckboxes(context.get(appServicesContext).db));
}
