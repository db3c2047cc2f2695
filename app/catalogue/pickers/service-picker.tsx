import { CataloguePicker, type CataloguePickerProps } from "./catalogue-picker";
import { SERVICE_FIELDS, type ServiceCheckboxData, serviceTreeNodes } from "./picker-selection";

export const SERVICES_UNAVAILABLE = "Services unavailable.";

/**
 * The service checkboxes of the seller registration form (spec section 2): sub-services grouped by
 * top group, 'check all' per group. `data` is null when the list could not be loaded.
 */
export function ServicePicker({
  legend = "Service Categories",
  id = "services",
  ...props
}: CataloguePickerProps<ServiceCheckboxData>) {
  return (
    <CataloguePicker
      {...props}
      legend={legend}
      id={id}
      unavailable={SERVICES_UNAVAILABLE}
      toTree={serviceTreeNodes}
      hint="Tick the services you offer. 'Check all' selects every service of a group."
      names={SERVICE_FIELDS}
      leafNoun={["service", "services"]}
    />
  );
}
