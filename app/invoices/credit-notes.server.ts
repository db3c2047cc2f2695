import { eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { creditNotes, invoices } from "~db/schema";
import { creditNoteAmounts, documentNumber, remainingOf } from "./invoice-amounts";
import { type InvoiceEnv, invoiceIssuer } from "./invoice-issuer";
import { nextSequence } from "./invoice-issuing.server";
import { creditNotePdf } from "./invoice-pdf.server";

export type CreditNoteOutcome =
  | { kind: "issued"; number: string }
  | { kind: "not-found" }
  | { kind: "over"; remainingCents: number };

/** Issues a credit note against an invoice under the invoice's row lock: never more than remains. */
export async function issueCreditNote(
  db: Database,
  env: InvoiceEnv,
  invoiceNumber: string,
  input: { amountCents: number; reason: string },
  staffUserId: number,
  now = new Date(),
): Promise<CreditNoteOutcome> {
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.number, invoiceNumber)).for("update");
    if (!invoice) return { kind: "not-found" as const };
    const credited = await tx
      .select({ amountCents: creditNotes.amountCents, gstCents: creditNotes.gstCents })
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id));
    const remaining = remainingOf(invoice, credited);
    const amounts = creditNoteAmounts(input.amountCents, remaining);
    if (!amounts) return { kind: "over" as const, remainingCents: remaining.amountCents };
    const sequence = await nextSequence(tx, "credit_note");
    const number = documentNumber("CN", sequence);
    const pdf = await creditNotePdf(
      { number, issuedAt: now, reason: input.reason, ...amounts, invoice },
      invoiceIssuer(env),
    );
    await tx.insert(creditNotes).values({
      number,
      sequence,
      invoiceId: invoice.id,
      amountCents: amounts.amountCents,
      gstCents: amounts.gstCents,
      totalCents: amounts.totalCents,
      reason: input.reason,
      issuedAt: now,
      issuedByUserId: staffUserId,
      pdf,
    });
    return { kind: "issued" as const, number };
  });
}
