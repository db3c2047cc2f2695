import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { parseDollars } from "~/shared/money";
import { MAX_LINES_PER_LOT, MAX_LOTS } from "../lots/line-items";
import { SEALED_MESSAGES } from "./sealed-bid-messages";

// The sealed-bid form's amount (the browser and the action alike). Its documents are files, one per
// requirement of the auction: the action reads them from the same body and checks them. A sealed
// auction whose lot is priced by lines (issue 31) takes a unit price per line instead (`prices`,
// with `pricing=lines`): the bid's amount is the lot's total, worked out by the server.

/** As much of a typed amount as is checked and shown back. */
export const MAX_TYPED_AMOUNT = 40;

/** The amount as checked and shown back: at most MAX_TYPED_AMOUNT characters of what was typed. */
export function capTypedAmount(formData: FormData): FormData {
  const typed = formData.get("amount");
  if (typeof typed === "string" && typed.length > MAX_TYPED_AMOUNT)
    formData.set("amount", typed.slice(0, MAX_TYPED_AMOUNT));
  return formData;
}

/** A unit price as typed: dollars and cents, zero allowed (a line at no charge). */
const unitPrice = textField()
  .refine((text) => parseDollars(text) !== null, {
    message: "Please enter a unit price in dollars and cents, like 185.00",
  })
  .optional();

/** A lot's amount on the form of several lots: empty (the lot is not bid on), or dollars and cents. */
const lotAmount = z
  .string()
  .max(MAX_TYPED_AMOUNT, SEALED_MESSAGES.amountFormat)
  .optional()
  .transform((typed, context) => {
    if (typed === undefined || typed.trim() === "") return undefined;
    const cents = parseDollars(typed);
    if (cents !== null && cents >= 1) return cents;
    context.addIssue({ code: "custom", message: SEALED_MESSAGES.amountFormat });
    return z.NEVER;
  });

export const sealedBidSchema = z
  .object({
    /**
     * `lines`: the form of one lot priced by lines; `lots`: of several lots (issue 31), each lot's
     * amount or unit prices at `lots[n]` (n: the lot's position less one); absent: one amount, as every
     * sealed bid before lots.
     */
    pricing: z.enum(["amount", "lines", "lots"]).optional(),
    amount: z
      .string()
      .optional()
      .transform((typed, context) => {
        if (typed === undefined) return undefined;
        const cents = parseDollars(typed);
        if (cents !== null && cents >= 1) return cents;
        context.addIssue({
          code: "custom",
          message: typed.trim() ? SEALED_MESSAGES.amountFormat : SEALED_MESSAGES.amountMissing,
        });
        return z.NEVER;
      }),
    prices: z.array(unitPrice, { error: "Please send a list" }).max(MAX_LINES_PER_LOT).optional(),
    lots: z
      .array(
        z
          .object({
            amount: lotAmount,
            prices: z.array(unitPrice, { error: "Please send a list" }).max(MAX_LINES_PER_LOT).optional(),
          })
          .optional(),
        { error: "Please send a list" },
      )
      .max(MAX_LOTS)
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.pricing !== "lines" && value.pricing !== "lots" && value.amount === undefined) {
      context.addIssue({ code: "custom", path: ["amount"], message: SEALED_MESSAGES.amountMissing });
    }
  });

export type SealedBidValue = z.output<typeof sealedBidSchema>;
