import { type ReactNode, useState } from "react";
import type { FieldErrorLink } from "~/forms/error-summary";
import { TextInput } from "~/forms/text-input";
import { useHydrated } from "~/forms/use-hydrated";
import { formatCents, parseDollars } from "~/shared/money";
import { bidCommitment } from "../bidding/bid-commitment";
import { lotTotalCents } from "./line-pricing";
import { priceField } from "./unit-prices";

// The unit price table of a lot priced by lines (issue 31) and the total shown before a bid binds:
// computed as the prices are typed with JavaScript; without it, a confirmation step that shows the
// total (`TotalReview`). One table for the seller's own lot page and a bid by phone (issue 21).

/** A line as the table shows it. */
export type PricedLine = {
  position: number;
  description: string;
  unit: string;
  /** Thousandths of a unit. */
  quantity: number;
  quantityText: string;
  ceilingCents: number | null;
};

/** The prices as typed and the lot's total they make (null until every line has a price). */
export function useLiveTotal(lines: readonly PricedLine[], start: readonly string[]) {
  const [typed, setTyped] = useState<string[]>([...start]);
  const units = lines.map((_, index) => parseDollars(typed[index] ?? ""));
  const total = units.every((cents) => cents !== null) ? lotTotalCents(lines, units as number[]) : null;
  const change = (index: number, value: string) =>
    setTyped((before) => {
      const next = [...before];
      next[index] = value;
      return next;
    });
  return { total: total !== null && Number.isSafeInteger(total) ? total : null, change };
}

/** The id of line `index`'s input. */
export const priceInputId = (idPrefix: string, index: number) => `${idPrefix}-${index}`;

/** The error summary's links: the list's own errors at the first line, then each line's. */
export function priceErrorLinks(
  idPrefix: string,
  lineCount: number,
  listErrors: readonly string[] | undefined,
  lineErrors: (index: number) => readonly string[] | undefined,
): FieldErrorLink[] {
  return [
    ...(listErrors ?? []).map((message) => ({ fieldId: priceInputId(idPrefix, 0), message })),
    ...Array.from({ length: lineCount }, (_, index) =>
      (lineErrors(index) ?? []).map((message) => ({ fieldId: priceInputId(idPrefix, index), message })),
    ).flat(),
  ];
}

/** The lot's lines with a labelled unit price input each (`prices[0]`…). */
export function UnitPriceTable({
  lines,
  idPrefix,
  caption,
  startPrices,
  lineErrors,
  onChange,
  namePrefix = "",
  labelSuffix = "",
}: {
  lines: readonly PricedLine[];
  idPrefix: string;
  caption: string;
  /** Before each input's name (`lots[1].` on a sealed bid of several lots, issue 31). */
  namePrefix?: string;
  /** After each input's label (the lot's name where a page has several). */
  labelSuffix?: string;
  startPrices: readonly string[];
  lineErrors: (index: number) => string[] | undefined;
  onChange: (index: number, value: string) => void;
}) {
  return (
    <table className="table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Quantity</th>
          <th scope="col">Ceiling</th>
          <th scope="col">Unit price (CAD)</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          <tr key={line.position}>
            <th scope="row">{`${index + 1}. ${line.description}`}</th>
            <td>{`${line.quantityText} ${line.unit}`}</td>
            <td>{line.ceilingCents === null ? "None" : formatCents(line.ceilingCents)}</td>
            <td>
              <TextInput
                id={priceInputId(idPrefix, index)}
                name={`${namePrefix}${priceField(index)}`}
                label={`Unit price, line ${index + 1}: ${line.description}, per ${line.unit}${labelSuffix}`}
                errors={lineErrors(index)}
                inputProps={{
                  inputMode: "decimal",
                  autoComplete: "off",
                  defaultValue: startPrices[index] ?? "",
                  onChange: (event) => onChange(index, event.currentTarget.value),
                }}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** With JavaScript: the total as the prices are typed, and the one-step confirmation it stands for. */
export function LiveTotal({ total }: { total: number | null }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <>
      <input type="hidden" name="confirm" value="yes" />
      <p aria-live="polite">
        <strong>{total === null ? "Total: enter every unit price" : `Total: ${formatCents(total)}`}</strong>
      </p>
    </>
  );
}

/** With JavaScript and every price typed: the submit button's words for the binding total; else null. */
export function useBindingTotalText(total: number | null, bindingText: (total: string) => string): string | null {
  const hydrated = useHydrated();
  return hydrated && total !== null ? bindingText(formatCents(total)) : null;
}

/**
 * Without JavaScript: the total asked about once before the bid binds. `children`: the form that
 * sends the same prices again with `confirm=yes`, and the way back.
 */
export function TotalReview({
  id,
  title,
  rule = bidCommitment(false).rule,
  children,
}: {
  id: string;
  title: string;
  /** What the bid commits the seller to (a practice auction's bind nobody). */
  rule?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id} tabIndex={-1}>
        {title}
      </h2>
      <p>{`${rule} The total is each line's quantity × unit price, rounded to the cent, added up.`}</p>
      {children}
    </section>
  );
}

/** The prices sent again as hidden fields, in the lines' order. */
export function HiddenPrices({ prices }: { prices: readonly string[] }) {
  return prices.map((price, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: one hidden field per line, in the lines' order
    <input key={index} type="hidden" name={priceField(index)} value={price} />
  ));
}
