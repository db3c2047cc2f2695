import { CataloguePicker, type CataloguePickerProps } from "./catalogue-picker";
import { SERVICE_AREA_FIELDS, type ServiceAreaCheckboxData, serviceAreaTree } from "./picker-selection";

export const SERVICE_AREAS_UNAVAILABLE = "Service areas unavailable.";

/**
 * The service-area checkboxes of the registration forms (spec section 2): cities grouped by province,
 * 'check all' per province. `data` is null when the list could not be loaded.
 */
export function ServiceAreaPicker({
  legend = "Service Areas",
  id = "service-areas",
  ...props
}: CataloguePickerProps<ServiceAreaCheckboxData>) {
  return (
    <CataloguePicker
      {...props}
      legend={legend}
      id={id}
      unavailable={SERVICE_AREAS_UNAVAILABLE}
      toTree={serviceAreaTree}
      hint="Tick the cities you work in. 'Check all' selects every city of a province."
      names={SERVICE_AREA_FIELDS}
      leafNoun={["city", "cities"]}
    />
  );
}
