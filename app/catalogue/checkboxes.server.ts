import type { z } from "zod";
import type { Database } from "~db/database.server";
import type { CheckboxService, serviceAreaCheckboxesAnswer, serviceCheckboxesAnswer } from "./catalogue-views";
import { listServiceAreas, serviceAreaProvinces } from "./service-areas.server";
import { type ServiceNode, serviceTree } from "./services.server";

const strip = (node: ServiceNode): CheckboxService => ({
  id: node.id,
  name: node.name,
  cost_account_code: node.cost_account_code,
  parent: node.parent,
  children: node.children.map(strip),
});

/** GET /api/service_checkboxes: top groups, each with sub-services, each with sub-sub-services. */
export async function serviceCheckboxes(db: Database): Promise<z.output<typeof serviceCheckboxesAnswer>> {
  return { services: (await serviceTree(db)).map(strip) };
}

/** GET /api/service_area_checkboxes: the cities and the provinces they are grouped under. */
export async function serviceAreaCheckboxes(db: Database): Promise<z.output<typeof serviceAreaCheckboxesAnswer>> {
  const [areas, provinces] = await Promise.all([listServiceAreas(db), serviceAreaProvinces(db)]);
  return {
    serviceAreas: areas.map(({ id, city, province }) => ({ id, city, province })),
    serviceAreaProvinces: provinces,
  };
}
