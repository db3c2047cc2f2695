import { parseDollars } from "~/shared/money";
import { unitPricesMissingMessage } from "../auction-words";
import { type LineTerms, lotTotalCents, MAX_CENTS } from "./line-pricing";

// A bid's unit prices as typed on a lot priced by lines (issue 31), read the same way wherever a bid
// is entered line by line: the seller's own lot page and a bid by phone (issue 21).

export const LOT_TOTAL_TOO_LARGE = "The lot's total is too large: please check the unit prices";

/**
 * The prices a unit price table starts from: the ones asked about in a confirmation step, else the
 * ones a refused form sent (read by position: a tampered form may send anything there, a list that
 * is not one included), else `fallback` when it has a price per line, else blanks.
 */
export function startingPrices(
  lineCount: number,
  { reviewed, sent, fallback = [] }: { reviewed?: string[]; sent?: unknown; fallback?: string[] },
): string[] {
  if (reviewed) return reviewed;
  if (Array.isArray(sent)) {
    return Array.from({ length: lineCount }, (_, index) =>
      typeof sent[index] === "string" ? (sent[index] as string) : "",
    );
  }
  return fallback.length === lineCount ? fallback : Array.from({ length: lineCount }, () => "");
}

/** The field of line `index`'s unit price (`prices[0]`…), as the forms name it. */
export const priceField = (index: number) => `prices[${index}]`;

export type ReadUnitPrices =
  | { ok: true; typed: string[]; unitCents: number[]; totalCents: number }
  | { ok: false; fieldErrors: Record<string, string[]> };

/**
 * The unit prices typed for the lot's lines, each already checked as dollars and cents by the form's
 * schema: a missing one named at its line's field (and a list of the wrong length at `prices`), a
 * total past what any auction takes refused, else the cents and the lot's total.
 */
export function readUnitPrices(lines: readonly LineTerms[], typed: readonly (string | undefined)[]): ReadUnitPrices {
  const prices = typed.map((price) => price ?? "");
  const missing = lines.flatMap((_, index) => ((prices[index] ?? "").trim() === "" ? [index] : []));
  if (prices.length !== lines.length || missing.length > 0) {
    return {
      ok: false,
      fieldErrors: {
        ...Object.fromEntries(
          missing.map((index) => [priceField(index), [`Please enter a unit price for line ${index + 1}`]]),
        ),
        ...(prices.length !== lines.length ? { prices: [unitPricesMissingMessage(lines.length)] } : {}),
      },
    };
  }
  const unitCents = prices.map((price) => parseDollars(price) ?? Number.NaN);
  if (unitCents.some((cents) => !Number.isSafeInteger(cents))) {
    const index = unitCents.findIndex((cents) => !Number.isSafeInteger(cents));
    return {
      ok: false,
      fieldErrors: { [priceField(index)]: ["Please enter a unit price in dollars and cents, like 185.00"] },
    };
  }
  const totalCents = lotTotalCents(lines, unitCents);
  if (!Number.isSafeInteger(totalCents) || totalCents > MAX_CENTS) {
    return { ok: false, fieldErrors: { prices: [LOT_TOTAL_TOO_LARGE] } };
  }
  return { ok: true, typed: prices, unitCents, totalCents };
}
