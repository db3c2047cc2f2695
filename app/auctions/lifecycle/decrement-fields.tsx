import type { FieldMetadata } from "@conform-to/react";
import { RadioGroupField, TextField } from "~/forms/field";

// How far each bid must go under the lowest: a fixed amount or a percentage. The same three fields
// on an auction's terms (one price) and on each lot of a lotted auction (issue 31).

const DECREMENT_KINDS = [
  { value: "amount", label: "A fixed amount" },
  { value: "percent", label: "A percentage of the lowest bid" },
];

export function DecrementFields({
  kind,
  amount,
  percent,
  legend,
}: {
  kind: FieldMetadata<string | undefined>;
  amount: FieldMetadata<string | undefined>;
  percent: FieldMetadata<string | undefined>;
  legend: string;
}) {
  return (
    <>
      <RadioGroupField field={kind} legend={legend} options={DECREMENT_KINDS} />
      <TextField
        field={amount}
        label="Minimum decrement (CAD)"
        hint="For a fixed amount, e.g. 100.00."
        inputProps={{ inputMode: "decimal", autoComplete: "off" }}
      />
      <TextField
        field={percent}
        label="Minimum decrement (%)"
        hint="For a percentage, from 0.01 to 50, e.g. 1.5."
        inputProps={{ inputMode: "decimal", autoComplete: "off" }}
      />
    </>
  );
}
