import { z } from "zod";
import { parseDollars } from "~/shared/money";
import { SEALED_MESSAGES } from "./sealed-bid-messages";

// The sealed-bid form's amount (the browser and the action alike). Its documents are files, one per
// requirement of the auction: the action reads them from the same body and checks them.

/** As much of a typed amount as is checked and shown back. */
export const MAX_TYPED_AMOUNT = 40;

/** The amount as checked and shown back: at most MAX_TYPED_AMOUNT characters of what was typed. */
export function capTypedAmount(formData: FormData): FormData {
  const typed = formData.get("amount");
  if (typeof typed === "string" && typed.length > MAX_TYPED_AMOUNT)
    formData.set("amount", typed.slice(0, MAX_TYPED_AMOUNT));
  return formData;
}

export const sealedBidSchema = z.object({
  amount: z.string({ error: SEALED_MESSAGES.amountMissing }).transform((typed, context) => {
    const cents = parseDollars(typed);
    if (cents !== null && cents >= 1) return cents;
    context.addIssue({
      code: "custom",
      message: typed.trim() ? SEALED_MESSAGES.amountFormat : SEALED_MESSAGES.amountMissing,
    });
    return z.NEVER;
  }),
});
