import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { CheckboxTreePicker } from "./checkbox-tree";
import { SERVICE_FIELDS, type ServiceCheckboxData, serviceTreeNodes } from "./picker-selection";

export const SERVICES_UNAVAILABLE = "Services unavailable.";

/**
 * The service checkboxes of the seller registration form (spec section 2): sub-services grouped by
 * top group, 'check all' per group. `data` is null when the list could not be loaded.
 */
export function ServicePicker({
  data,
  selected,
  errors,
  legend = "Service Categories",
  id = "services",
}: {
  data: ServiceCheckboxData | null;
  selected: readonly number[];
  errors?: string[];
  legend?: ReactNode;
  id?: string;
}) {
  if (!data) {
    return (
      <Alert title="Error!">
        <p>{SERVICES_UNAVAILABLE}</p>
      </Alert>
    );
  }
  return (
    <CheckboxTreePicker
      id={id}
      legend={legend}
      hint="Tick the services you offer. 'Check all' selects every service of a group."
      tree={serviceTreeNodes(data)}
      names={SERVICE_FIELDS}
      selected={selected}
      errors={errors}
      leafNoun="services"
    />
  );
}
