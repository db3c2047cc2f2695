import { serviceAreaPayload } from "../catalogue-schema";
import { serviceAreaAnswer } from "../catalogue-views";
import { deleteServiceArea, getServiceArea, updateServiceArea } from "../service-areas.server";
import type { Route } from "./+types/service-area";
import { catalogueItemRoute } from "./catalogue-item-route.server";

const serviceArea = catalogueItemRoute({
  payload: serviceAreaPayload,
  answer: serviceAreaAnswer,
  present: (serviceArea) => ({ serviceArea }),
  get: getServiceArea,
  update: updateServiceArea,
  remove: deleteServiceArea,
});

/** GET /api/service_areas/{id} → {"serviceArea"}. */
export const loader = (args: Route.LoaderArgs) => serviceArea.loader(args);

/** PUT /api/service_areas/{id} {city, province, country} → {"serviceArea"}; DELETE → 204 (staff only). */
export const action = (args: Route.ActionArgs) => serviceArea.action(args);
