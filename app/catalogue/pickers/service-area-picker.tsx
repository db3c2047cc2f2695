import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { CheckboxTreePicker } from "./checkbox-tree";
import { SERVICE_AREA_FIELDS, type ServiceAreaCheckboxData, serviceAreaTree } from "./picker-selection";

export const SERVICE_AREAS_UNAVAILABLE = "Service areas unavailable.";

/**
 * The service-area checkboxes of the registration forms (spec section 2): cities grouped by province,
 * 'check all' per province. `data` is null when the list could not be loaded.
 */
export function ServiceAreaPicker({
  data,
  selected,
  errors,
  legend = "Service Areas",
  id = "service-areas",
}: {
  data: ServiceAreaCheckboxData | null;
  selected: readonly number[];
  errors?: string[];
  legend?: ReactNode;
  id?: string;
}) {
  if (!data) {
    return (
      <Alert title="Error!">
        <p>{SERVICE_AREAS_UNAVAILABLE}</p>
      </Alert>
    );
  }
  return (
    <CheckboxTreePicker
      id={id}
      legend={legend}
      hint="Tick the cities you work in. 'Check all' selects every city of a province."
      tree={serviceAreaTree(data)}
      names={SERVICE_AREA_FIELDS}
      selected={selected}
      errors={errors}
      leafNoun="cities"
    />
  );
}
