import { logger } from "~/platform/logger.server";
import type { Database } from "~db/database.server";
import { serviceAreaCheckboxes, serviceCheckboxes } from "../checkboxes.server";
import {
  readPickerSelection,
  SERVICE_AREA_FIELDS,
  SERVICE_FIELDS,
  type ServiceAreaCheckboxData,
  type ServiceCheckboxData,
  serviceAreaTree,
  serviceTreeNodes,
} from "./picker-selection";

/**
 * The pickers' data for a loader or action. Null when it cannot be loaded: the page still renders
 * and the picker shows 'Service areas unavailable.' / 'Services unavailable.' instead.
 */
export async function loadServiceAreaPickerData(db: Database): Promise<ServiceAreaCheckboxData | null> {
  try {
    return await serviceAreaCheckboxes(db);
  } catch (error) {
    logger.error({ err: error }, "service area checkboxes could not be loaded");
    return null;
  }
}

export async function loadServicePickerData(db: Database): Promise<ServiceCheckboxData | null> {
  try {
    return await serviceCheckboxes(db);
  } catch (error) {
    logger.error({ err: error }, "service checkboxes could not be loaded");
    return null;
  }
}

/**
 * For registration actions: the service-area ids a submitted form selects, with the province boxes
 * ticked without JavaScript expanded to their cities. Empty when the data could not be loaded.
 */
export function readServiceAreaSelection(formData: FormData, data: ServiceAreaCheckboxData | null): number[] {
  return data ? readPickerSelection(formData, serviceAreaTree(data), SERVICE_AREA_FIELDS) : [];
}

/** The same for services: the ids of the services (without sub-services) the form selects. */
export function readServiceSelection(formData: FormData, data: ServiceCheckboxData | null): number[] {
  return data ? readPickerSelection(formData, serviceTreeNodes(data), SERVICE_FIELDS) : [];
}
