import { servicePayload } from "../catalogue-schema";
import { serviceAnswer } from "../catalogue-views";
import { deleteService, getService, updateService } from "../services.server";
import type { Route } from "./+types/service";
import { catalogueItemRoute } from "./catalogue-item-route.server";

const service = catalogueItemRoute({
  payload: servicePayload,
  answer: serviceAnswer,
  present: (service) => ({ service }),
  get: getService,
  update: updateService,
  remove: deleteService,
});

/** GET /api/services/{id} → {"service"}. */
export const loader = (args: Route.LoaderArgs) => service.loader(args);

/** PUT /api/services/{id} {name, cost_account_code, parent} → {"service"}; DELETE → 204 (staff only). */
export const action = (args: Route.ActionArgs) => service.action(args);
