import { parseDollars } from "~/shared/money";
import { type LineTerms, MAX_CENTS, parseQuantity } from "./line-pricing";

// A lot's line items as the buyer describes them (issue 31), and the rules each row is checked
// against, typed in the form or read from CSV (line-items-csv.server.ts). No CSV parser here: the
// form's checks run in the browser too.

export const MAX_LOTS = 50;
export const MAX_LINES_PER_LOT = 250;
export const MAX_DESCRIPTION_LENGTH = 200;
export const MAX_UNIT_LENGTH = 20;

/** A lot's line as the buyer describes it. */
export type LineItem = LineTerms & { description: string; unit: string };

export const LINE_ITEM_COLUMNS = ["description", "unit", "quantity", "ceiling_unit_price"] as const;

/** What is wrong with each field of one line item as typed; the same rules for the form's rows and the CSV's. */
export function lineItemFieldProblems(
  description: string,
  unit: string,
  quantity: string,
  ceiling: string,
): Partial<Record<"description" | "unit" | "quantity" | "ceiling", string>> {
  const problems: Partial<Record<"description" | "unit" | "quantity" | "ceiling", string>> = {};
  if (description.trim() === "") problems.description = "Please enter a description";
  else if (description.length > MAX_DESCRIPTION_LENGTH) {
    problems.description = `Please keep the description to ${MAX_DESCRIPTION_LENGTH} characters`;
  }
  if (unit.trim() === "") problems.unit = "Please enter a unit, like hour, km or m³";
  else if (unit.length > MAX_UNIT_LENGTH) problems.unit = `Please keep the unit to ${MAX_UNIT_LENGTH} characters`;
  if (quantity.trim() === "") problems.quantity = "Please enter an estimated quantity";
  else if (parseQuantity(quantity) === null) {
    problems.quantity = "Please enter a quantity above zero with at most three decimals, like 12.5";
  }
  if (ceiling.trim() !== "") {
    const cents = parseDollars(ceiling);
    if (cents === null || cents < 1 || cents > MAX_CENTS) {
      problems.ceiling =
        "Please enter the ceiling as a unit price in dollars and cents, like 185.00, or leave it empty";
    }
  }
  return problems;
}

/** What is wrong with one line item as typed, in the order of its columns. */
export const lineItemProblems = (description: string, unit: string, quantity: string, ceiling: string): string[] =>
  Object.values(lineItemFieldProblems(description, unit, quantity, ceiling));

/** A sealed auction's lots (issue 31) all close at its deadline: nothing orders their closings. */
export const SEALED_NO_GAP = "A sealed-bid auction's lots all close at its deadline: there is no gap between closings.";

/** The decrement a sealed auction's lot is given: sealed bids are never bid down, so it plays no part. */
export const SEALED_LOT_DECREMENT = {
  decrement_kind: "percent",
  decrement_amount: "",
  decrement_percent: "1",
} as const;
