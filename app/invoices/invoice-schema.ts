import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { money } from "~/shared/money";
import { EXPORT_NETWORKS } from "~db/invoice-terms";

// The staff forms of invoices (issue 19), each one schema for the action and useForm.

export const AMOUNT_REQUIRED = "Please enter the amount to credit, before GST";
export const REASON_REQUIRED = "Please enter the reason for the credit note";

/** The credit note: an amount before GST in dollars and cents, and why. */
export const creditNoteSchema = z.object({
  intent: z.literal("credit-note"),
  amount: money(AMOUNT_REQUIRED, { min: 1, max: 100_000_000 }),
  reason: textField({ error: REASON_REQUIRED, multiline: true })
    .min(1, REASON_REQUIRED)
    .max(500, "Please keep the reason to 500 characters"),
});

/** "Mark as mailed": no field; the invoice is the page's. */
export const markMailedSchema = z.object({ intent: z.literal("mark-mailed") });

export const invoicePageSchema = z.discriminatedUnion("intent", [creditNoteSchema, markMailedSchema]);

export const exportSchema = z.object({
  intent: z.literal("export"),
  network: z.enum(EXPORT_NETWORKS, "Please choose Open Invoice or Cortex"),
});

export const overRemaining = (remaining: string, invoiceNumber: string) =>
  `The amount is more than remains to credit on ${invoiceNumber}: at most ${remaining} before GST`;
export const NOTHING_TO_CREDIT = (invoiceNumber: string) =>
  `${invoiceNumber} has been credited in full: nothing remains to credit.`;
