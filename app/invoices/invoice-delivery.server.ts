import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { invoices } from "~db/schema";

// An invoice's delivery marks (issue 19): posted by staff, or e-mailed by the message queue. (An export
// marks its invoices in invoice-exports.server.ts.)

type Db = Database | Transaction;

export type MarkMailedOutcome = "mailed" | "not-found" | "not-to-mail";

/** Marks a Mail Invoice invoice mailed, once, by the staff user who posted it. */
export async function markMailed(db: Database, number: string, staffUserId: number, now = new Date()) {
  const [updated] = await db
    .update(invoices)
    .set({ deliveryState: "mailed", mailedAt: now, mailedByUserId: staffUserId })
    .where(and(eq(invoices.number, number), eq(invoices.deliveryState, "to_mail")))
    .returning({ id: invoices.id });
  if (updated) return "mailed" satisfies MarkMailedOutcome;
  const [exists] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.number, number));
  return (exists ? "not-to-mail" : "not-found") satisfies MarkMailedOutcome;
}

/**
 * For the message queue (issue 19): an Email Invoice invoice is "emailed" once the provider accepted
 * its e-mail. Conditional, so a retried delivery changes nothing; answers whether it changed.
 */
export async function markEmailed(db: Db, invoiceId: number, now = new Date()): Promise<boolean> {
  const updated = await db
    .update(invoices)
    .set({ deliveryState: "emailed", emailedAt: now })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.deliveryState, "to_email")))
    .returning({ id: invoices.id });
  return updated.length > 0;
}
