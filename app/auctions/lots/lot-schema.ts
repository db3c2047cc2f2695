import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { money, parseDollars } from "~/shared/money";
import { decrementIssue, MAX_AUCTION_CENTS } from "../lifecycle/auction-schema";
import { type LineItem, lineItemFieldProblems, MAX_LINES_PER_LOT } from "./line-items";
import { parseQuantity } from "./line-pricing";
import { MAX_LOT_CLOSE_GAP_MINUTES } from "./lot-schedule";

// The forms of a lotted auction (issue 31): a lot (its name, reserve, decrement and line items, typed
// as repeatable rows or pasted as CSV), and how the lots close and what sellers see. One schema per
// form, for the browser and the action.

export const MAX_LOT_TITLE_LENGTH = 200;

/** A line as the form sends it: every field may be blank (the row's own messages say what is missing). */
const lineRow = z.preprocess(
  (value) => value ?? {},
  z.object({
    description: textField().optional(),
    unit: textField().optional(),
    quantity: textField().optional(),
    ceiling: textField().optional(),
  }),
);

export const lotFormSchema = z
  .object({
    title: z.preprocess(
      (value) => value ?? "",
      textField().max(MAX_LOT_TITLE_LENGTH, `Please keep the name to ${MAX_LOT_TITLE_LENGTH} characters`),
    ),
    reserve: money("Please enter the lot's reserve price", { max: MAX_AUCTION_CENTS }),
    decrement_kind: z.enum(["amount", "percent"], { error: "Please choose how bids must go down" }),
    decrement_amount: textField().optional(),
    decrement_percent: textField().optional(),
    lines: z
      .array(lineRow, { error: "Please send a list" })
      .max(MAX_LINES_PER_LOT, `A lot has at most ${MAX_LINES_PER_LOT} line items`)
      .optional(),
    /** Pasted CSV: when given, it replaces the rows above. */
    csv: textField({ multiline: true, trim: false }).max(500_000, "Please paste at most 500,000 characters").optional(),
  })
  .superRefine(
    (value, context) => {
      const reserve = typeof value.reserve === "number" ? value.reserve : Number.POSITIVE_INFINITY;
      const issue = value.decrement_kind ? decrementIssue({ ...value, reserve }) : null;
      if (issue) context.addIssue({ code: "custom", ...issue });
      // Pasted CSV replaces the rows; the server reads it (lot page's action), a message per wrong row.
      if (value.csv?.trim()) return;
      const lines = value.lines ?? [];
      if (lines.length === 0) {
        context.addIssue({ code: "custom", path: ["lines"], message: "Please add at least one line item" });
      }
      for (const [index, line] of lines.entries()) {
        const problems = lineItemFieldProblems(
          line.description ?? "",
          line.unit ?? "",
          line.quantity ?? "",
          line.ceiling ?? "",
        );
        for (const [field, message] of Object.entries(problems)) {
          context.addIssue({ code: "custom", path: ["lines", index, field], message });
        }
      }
    },
    { when: () => true },
  );

export type LotFormValue = z.infer<typeof lotFormSchema>;

/** The lot's line items typed as rows, from a valid submission without pasted CSV. */
export function linesOf(value: LotFormValue): LineItem[] {
  return (value.lines ?? []).map((line) => ({
    description: line.description ?? "",
    unit: line.unit ?? "",
    quantity: parseQuantity(line.quantity ?? "") as number,
    ceilingCents: line.ceiling ? parseDollars(line.ceiling) : null,
  }));
}

const minutes = z.coerce
  .number({ error: "Please enter the minutes between closings as a whole number" })
  .int("Please enter the minutes between closings as a whole number")
  .min(0, "The minutes between closings cannot be negative")
  .max(MAX_LOT_CLOSE_GAP_MINUTES, `Please keep the minutes between closings at most ${MAX_LOT_CLOSE_GAP_MINUTES}`);

// What sellers see stays "the lowest total" until ranks-only bidding has its own rules (a bid must
// then beat the seller's own, not a price they cannot see): the column is there, the choice is not yet.
export const lotSettingsSchema = z.object({ gap: minutes });

export type LotSettingsValue = z.infer<typeof lotSettingsSchema>;

/** A unit price as typed: dollars and cents, zero allowed (a line at no charge). */
const unitPrice = textField()
  .refine((text) => parseDollars(text) !== null, {
    message: "Please enter a unit price in dollars and cents, like 185.00",
  })
  .optional();

/**
 * A seller's forms on a lot's bidding page: a unit price per line (the total is asked about once
 * without JavaScript: `confirm`), a secret minimum on the lot's total, or a filled-in price sheet.
 */
export const lotBidSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("bid"),
      prices: z.array(unitPrice, { error: "Please send a list" }).max(MAX_LINES_PER_LOT),
      confirm: z.literal("yes").optional(),
    }),
    z.object({
      intent: z.literal("minimum"),
      minimum: money("Please enter your minimum for the lot's total", { max: MAX_AUCTION_CENTS }),
    }),
    z.object({
      intent: z.literal("sheet"),
      sheet: textField({ multiline: true, trim: false })
        .max(500_000, "Please paste at most 500,000 characters")
        .optional(),
    }),
  ],
  { error: "Please choose what to do." },
);

export type LotBidValue = z.infer<typeof lotBidSchema>;
