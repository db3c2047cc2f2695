import { csvText } from "~/shared/csv";
import { utcDay } from "~/shared/dates";
import { dollars } from "~/shared/money";
import type { ExportNetwork } from "~db/invoice-terms";
import type { invoices } from "~db/schema";
import { GST_RATE_PERCENT } from "./invoice-amounts";
import { type InvoiceIssuer, PAYMENT_DAYS } from "./invoice-issuer";
import { DELIVERY_STATE_LABELS } from "./invoice-terms";

// The two CSV layouts of invoices (issue 19), written by the one CSV writer (app/shared/csv.ts):
// amounts in dollars with two decimals and no symbol, dates YYYY-MM-DD in UTC. The layouts are
// documented in docs/decisions/015-buyer-invoices.md; a change here changes them there.

/** /staff/invoices.csv: the filtered list, for accounting. */
export const ACCOUNTING_COLUMNS = [
  "invoice_number",
  "issued_at_utc",
  "auction_number",
  "auction_title",
  "bill_to",
  "billing_preference",
  "state",
  "fee",
  "gst",
  "total",
  "credited",
  "credited_gst",
  "balance",
  "mailed_at_utc",
  "exported_at_utc",
  "export_number",
] as const;

export type AccountingRow = {
  number: string;
  issuedAt: Date;
  auctionId: number;
  auctionTitle: string;
  billToName: string;
  billingPreference: string;
  deliveryState: keyof typeof DELIVERY_STATE_LABELS;
  feeCents: number;
  gstCents: number;
  totalCents: number;
  creditedCents: number;
  creditedGstCents: number;
  mailedAt: Date | null;
  exportedAt: Date | null;
  exportId: number | null;
};

export function accountingCsv(rows: readonly AccountingRow[]): string {
  return csvText(
    ACCOUNTING_COLUMNS,
    rows.map((row) => [
      row.number,
      row.issuedAt.toISOString(),
      String(row.auctionId),
      row.auctionTitle,
      row.billToName,
      row.billingPreference,
      DELIVERY_STATE_LABELS[row.deliveryState],
      dollars(row.feeCents),
      dollars(row.gstCents),
      dollars(row.totalCents),
      dollars(row.creditedCents),
      dollars(row.creditedGstCents),
      dollars(row.totalCents - row.creditedCents - row.creditedGstCents),
      row.mailedAt?.toISOString() ?? "",
      row.exportedAt?.toISOString() ?? "",
      row.exportId === null ? "" : String(row.exportId),
    ]),
  );
}

/** The Open Invoice and Cortex export file: one line per invoice, the same layout for both networks. */
export const NETWORK_EXPORT_COLUMNS = [
  "invoice_number",
  "invoice_date",
  "due_date",
  "currency",
  "supplier_name",
  "supplier_gst_number",
  "buyer_name",
  "buyer_contact",
  "buyer_email",
  "buyer_address",
  "auction_number",
  "line_description",
  "quantity",
  "unit_price",
  "subtotal",
  "gst_rate_percent",
  "gst_amount",
  "total",
  "payment_terms_days",
] as const;

type ExportedInvoice = Pick<
  typeof invoices.$inferSelect,
  | "number"
  | "issuedAt"
  | "billToName"
  | "billToContact"
  | "billToEmail"
  | "billToAddress"
  | "auctionId"
  | "auctionTitle"
  | "feeCents"
  | "gstCents"
  | "totalCents"
>;

const DAY_MS = 86_400_000;

export function networkExportCsv(rows: readonly ExportedInvoice[], issuer: InvoiceIssuer): string {
  return csvText(
    NETWORK_EXPORT_COLUMNS,
    rows.map((row) => [
      row.number,
      utcDay(row.issuedAt),
      utcDay(new Date(row.issuedAt.getTime() + PAYMENT_DAYS * DAY_MS)),
      "CAD",
      issuer.name,
      issuer.gstNumber,
      row.billToName,
      row.billToContact ?? "",
      row.billToEmail ?? "",
      row.billToAddress.split("\n").join(", "),
      String(row.auctionId),
      `Per-auction buyer fee, auction No. ${row.auctionId}: ${row.auctionTitle}`,
      "1",
      dollars(row.feeCents),
      dollars(row.feeCents),
      `${GST_RATE_PERCENT}.00`,
      dollars(row.gstCents),
      dollars(row.totalCents),
      String(PAYMENT_DAYS),
    ]),
  );
}

/** open-invoice-export-000012-2026-11-25.csv */
export function networkExportFileName(network: ExportNetwork, exportId: number, at: Date): string {
  const slug = network === "Open Invoice" ? "open-invoice" : "cortex";
  return `${slug}-export-${String(exportId).padStart(6, "0")}-${utcDay(at)}.csv`;
}
