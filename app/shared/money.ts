import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { parseGroupedDecimal } from "./decimals";

// Money, kept in whole cents everywhere: shown as "$1,234.56" (spec section 9), written as "1234.56"
// in CSV files and form fields, and typed by people in dollars and cents.

const currency = new Intl.NumberFormat("en-CA", {
  style: "currency",
  currency: "CAD",
  currencyDisplay: "narrowSymbol",
});

/** Cents as '$0,0.00' (spec section 9): 21735 → "$217.35", 123456789 → "$1,234,567.89". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return currency.format(cents / 100);
}

/**
 * 123456 cents → "1234.56" (no currency symbol, no thousands separator): CSV cells, and an amount
 * shown back in a form field.
 */
export function dollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** "12,500.50", "$12500", "12500.5" → cents; null when it is not an amount of dollars and cents. */
export function parseDollars(text: string): number | null {
  const trimmed = text.trim();
  return parseGroupedDecimal(trimmed.startsWith("$") ? trimmed.slice(1).trimStart() : trimmed, 2);
}

/** A required amount typed in dollars and cents, in cents from `min` to `max`. */
export const money = (required: string, { min = 1, max }: { min?: number; max: number }) =>
  textField({ error: required })
    .min(1, required)
    .transform((text, context) => {
      const cents = parseDollars(text);
      if (cents === null) {
        context.addIssue({ code: "custom", message: "Please enter an amount in dollars and cents, like 12500.00" });
        return z.NEVER;
      }
      if (cents < min || cents > max) {
        context.addIssue({
          code: "custom",
          message: `Please enter an amount between $${(min / 100).toFixed(2)} and $${(max / 100).toLocaleString("en-CA", { minimumFractionDigits: 2 })}`,
        });
        return z.NEVER;
      }
      return cents;
    });
