// The arithmetic of invoices and credit notes (issue 19), in integer cents. GST is Alberta's 5%
// (federal GST only; Alberta has no provincial sales tax), rounded half up to the cent: 5% of an
// amount ending in 10 cents is exact, and 5% of one ending in a half cent rounds up (1 cent → 0,
// 10 cents → 1 cent (0.5 rounds up), 30 cents → 2 cents (1.5 rounds up)).

export const GST_RATE_PERCENT = 5;

/** 5% of `cents`, rounded half up to the cent; exact integer arithmetic. */
export function gstOf(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError(`not a whole, non-negative number of cents: ${cents}`);
  return Math.floor((cents * GST_RATE_PERCENT + 50) / 100);
}

export type Amounts = { amountCents: number; gstCents: number; totalCents: number };

/** An invoice's line, its GST and total. */
export function invoiceAmounts(feeCents: number): Amounts {
  const gstCents = gstOf(feeCents);
  return { amountCents: feeCents, gstCents, totalCents: feeCents + gstCents };
}

/** What an invoice still has to be credited: its amount and GST, less every credit note's. */
export function remainingOf(
  invoice: { feeCents: number; gstCents: number },
  credited: readonly { amountCents: number; gstCents: number }[],
): { amountCents: number; gstCents: number } {
  return {
    amountCents: invoice.feeCents - credited.reduce((sum, note) => sum + note.amountCents, 0),
    gstCents: invoice.gstCents - credited.reduce((sum, note) => sum + note.gstCents, 0),
  };
}

/**
 * A credit note of `amountCents` (before GST) against what remains: GST at 5% half up, except that
 * the note crediting the rest of the amount credits the rest of the GST, and no note credits more GST
 * than remains. So however an invoice is credited, in one note or many small ones, the notes add up
 * to the invoice to the cent and never past it. `null` when the amount is more than remains.
 */
export function creditNoteAmounts(
  amountCents: number,
  remaining: { amountCents: number; gstCents: number },
): Amounts | null {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > remaining.amountCents) return null;
  const gstCents =
    amountCents === remaining.amountCents ? remaining.gstCents : Math.min(gstOf(amountCents), remaining.gstCents);
  return { amountCents, gstCents, totalCents: amountCents + gstCents };
}

/** "INV-000001", "CN-000042": the prefix and the counter, at least six digits. */
export function documentNumber(prefix: "INV" | "CN", sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`not a document sequence: ${sequence}`);
  return `${prefix}-${String(sequence).padStart(6, "0")}`;
}

/** The address's number back ("INV-000001" → prefix and sequence), or null for anything else. */
export function parseDocumentNumber(value: string): { prefix: "INV" | "CN"; sequence: number } | null {
  const match = /^(INV|CN)-(\d{6,9})$/.exec(value);
  if (!match) return null;
  const sequence = Number(match[2]);
  if (sequence < 1 || documentNumber(match[1] as "INV" | "CN", sequence) !== value) return null;
  return { prefix: match[1] as "INV" | "CN", sequence };
}
