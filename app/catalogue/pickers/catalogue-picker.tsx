import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { CheckboxTreePicker } from "./checkbox-tree";
import type { LeafNouns, PickerFieldNames, PickerNode } from "./picker-selection";

/** What a form passes to a catalogue picker; `data` is null when the list could not be loaded. */
export type CataloguePickerProps<Data> = {
  data: Data | null;
  selected: readonly number[];
  errors?: string[];
  legend?: ReactNode;
  id?: string;
};

/** A checkbox tree over a catalogue list, or the 'Error!' alert with the spec's message when it did not load. */
export function CataloguePicker<Data>({
  data,
  selected,
  errors,
  legend,
  id,
  unavailable,
  toTree,
  hint,
  names,
  leafNoun,
}: Required<Pick<CataloguePickerProps<Data>, "legend" | "id">> &
  CataloguePickerProps<Data> & {
    unavailable: string;
    toTree: (data: Data) => PickerNode[];
    hint: string;
    names: PickerFieldNames;
    leafNoun: LeafNouns;
  }) {
  if (!data) {
    return (
      <Alert title="Error!">
        <p>{unavailable}</p>
      </Alert>
    );
  }
  return (
    <CheckboxTreePicker
      id={id}
      legend={legend}
      hint={hint}
      tree={toTree(data)}
      names={names}
      selected={selected}
      errors={errors}
      leafNoun={leafNoun}
    />
  );
}
