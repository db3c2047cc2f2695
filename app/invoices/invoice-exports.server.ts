import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~db/database.server";
import type { ExportNetwork } from "~db/invoice-terms";
import { invoiceExports, invoices } from "~db/schema";
import { networkExportCsv, networkExportFileName } from "./invoice-csv.server";
import { type InvoiceEnv, invoiceIssuer } from "./invoice-issuer";

// The export files of the e-invoicing networks (issue 19): made once, kept, and downloaded again as
// they were made.

export async function recentExports(db: Database, limit = 20) {
  return db
    .select({
      id: invoiceExports.id,
      network: invoiceExports.network,
      fileName: invoiceExports.fileName,
      invoiceCount: invoiceExports.invoiceCount,
      createdAt: invoiceExports.createdAt,
    })
    .from(invoiceExports)
    .orderBy(desc(invoiceExports.id))
    .limit(limit);
}

export async function exportFile(db: Database, exportId: number) {
  const [row] = await db
    .select({ fileName: invoiceExports.fileName, csv: invoiceExports.csv })
    .from(invoiceExports)
    .where(eq(invoiceExports.id, exportId));
  return row;
}

/**
 * Exports a network's invoices not yet exported: one file, kept, and every invoice in it marked
 * exported with it, in one transaction. The rows are locked first, so two exports at once never
 * carry the same invoice (the second finds the first's invoices exported). `null`: nothing to export.
 */
export async function exportNetwork(
  db: Database,
  env: InvoiceEnv,
  network: ExportNetwork,
  staffUserId: number,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const waiting = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.billingPreference, network), eq(invoices.deliveryState, "to_export")))
      .orderBy(asc(invoices.sequence))
      .for("update");
    if (waiting.length === 0) return null;
    const [batch] = await tx
      .insert(invoiceExports)
      .values({
        network,
        fileName: "pending",
        csv: "",
        invoiceCount: waiting.length,
        createdAt: now,
        createdByUserId: staffUserId,
      })
      .returning({ id: invoiceExports.id });
    if (!batch) throw new Error("no export");
    const fileName = networkExportFileName(network, batch.id, now);
    const csv = networkExportCsv(waiting, invoiceIssuer(env));
    await tx.update(invoiceExports).set({ fileName, csv }).where(eq(invoiceExports.id, batch.id));
    await tx
      .update(invoices)
      .set({ deliveryState: "exported", exportedAt: now, exportId: batch.id })
      .where(
        inArray(
          invoices.id,
          waiting.map((row) => row.id),
        ),
      );
    return { exportId: batch.id, fileName, count: waiting.length };
  });
}
