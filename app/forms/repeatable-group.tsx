import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { fieldList } from "./field-list";

// Repeatable blocks (a key person's work experiences, a lot's line items): add and remove are
// Conform intent buttons, so without JavaScript they post the form and the server answers with the
// page one block more or less, everything typed kept.

// biome-ignore lint/suspicious/noExplicitAny: any form's metadata; only its intent buttons are used.
export type AnyForm = FormMetadata<any, string[]>;

/**
 * A list of blocks with '+ Add …' after them and a remove button in each. Each block is a fieldset
 * numbered in its legend, so the labels inside ("Company Name") stay short yet unambiguous.
 */
export function RepeatableGroup<Item extends Record<string, unknown>>({
  form,
  list,
  heading,
  noun,
  hint,
  render,
  removeConfirmation,
  headingLevel = 4,
}: {
  form: AnyForm;
  list: FieldMetadata<Item[]>;
  heading: string;
  noun: string;
  hint?: string;
  render: (item: FieldMetadata<Item>, index: number) => ReactNode;
  /** Asked before removing, with JavaScript (without it the button removes at once). */
  removeConfirmation?: string;
  /** The heading's level: one below the section's or fieldset's. */
  headingLevel?: 3 | 4;
}) {
  const items = fieldList(list);
  const Heading = headingLevel === 3 ? "h3" : "h4";
  return (
    <div className="repeatable">
      <Heading className="repeatable__heading">{heading}</Heading>
      {hint ? <p className="field__hint">{hint}</p> : null}
      {items.map((item, index) => (
        <fieldset className="fieldset repeatable__block" key={item.key ?? item.id}>
          <legend className="fieldset__legend">{`${heading} ${index + 1}`}</legend>
          {render(item, index)}
          <button
            {...form.remove.getButtonProps({ name: list.name, index })}
            className="button button--secondary"
            onClick={(event) => {
              if (removeConfirmation && !window.confirm(removeConfirmation)) event.preventDefault();
            }}
          >
            {`Remove ${noun} ${index + 1}`}
          </button>
        </fieldset>
      ))}
      <button {...form.insert.getButtonProps({ name: list.name })} className="link-button">
        {`+ Add ${noun}`}
      </button>
    </div>
  );
}
