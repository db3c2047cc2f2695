import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Database } from "~db/database.server";
import type { BillingPreference, DeliveryState } from "~db/invoice-terms";
import { creditNotes, invoices } from "~db/schema";
import { remainingOf } from "./invoice-amounts";
import { PAGE_SIZE, type StaffFilter } from "./invoice-terms";

// Reading invoices and credit notes (issue 19): the buyer's list, staff's list and counts, one invoice
// with its credit notes, and a document's PDF as kept at issue.

export type AccountDocument = {
  kind: "invoice" | "credit_note";
  number: string;
  issuedAt: Date;
  auctionId: number;
  auctionTitle: string;
  invoiceNumber: string;
  amountCents: number;
  gstCents: number;
  totalCents: number;
  billingPreference: BillingPreference;
  deliveryState: DeliveryState;
};

/** An organization's invoices and credit notes, newest first, a page at a time (one more row tells whether there is an older page). */
export async function organizationDocuments(db: Database, organizationId: number, page: number) {
  const invoiceRows = db
    .select({
      kind: sql<"invoice" | "credit_note">`'invoice'`.as("kind"),
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      auctionId: invoices.auctionId,
      auctionTitle: invoices.auctionTitle,
      invoiceNumber: sql<string>`${invoices.number}`.as("invoice_number"),
      amountCents: invoices.feeCents,
      gstCents: invoices.gstCents,
      totalCents: invoices.totalCents,
      billingPreference: invoices.billingPreference,
      deliveryState: invoices.deliveryState,
    })
    .from(invoices)
    .where(eq(invoices.organizationId, organizationId));
  const noteRows = db
    .select({
      kind: sql<"invoice" | "credit_note">`'credit_note'`.as("kind"),
      number: creditNotes.number,
      issuedAt: creditNotes.issuedAt,
      auctionId: invoices.auctionId,
      auctionTitle: invoices.auctionTitle,
      invoiceNumber: sql<string>`${invoices.number}`.as("invoice_number"),
      amountCents: creditNotes.amountCents,
      gstCents: creditNotes.gstCents,
      totalCents: creditNotes.totalCents,
      billingPreference: invoices.billingPreference,
      deliveryState: invoices.deliveryState,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(eq(invoices.organizationId, organizationId));
  const rows = (await unionAll(invoiceRows, noteRows)
    .orderBy(desc(sql`issued_at`), desc(sql`number`))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE)) as AccountDocument[];
  return {
    rows: rows.slice(0, PAGE_SIZE).map((row) => ({ ...row, issuedAt: new Date(row.issuedAt) })),
    hasOlder: rows.length > PAGE_SIZE,
  };
}

const filterWhere = (filter: StaffFilter) =>
  and(
    filter.state ? eq(invoices.deliveryState, filter.state) : undefined,
    filter.preference ? eq(invoices.billingPreference, filter.preference) : undefined,
  );

const creditedColumns = {
  creditedCents:
    sql<number>`coalesce((select sum(${creditNotes.amountCents}) from ${creditNotes} where ${creditNotes.invoiceId} = ${invoices.id}), 0)`.mapWith(
      Number,
    ),
  creditedGstCents:
    sql<number>`coalesce((select sum(${creditNotes.gstCents}) from ${creditNotes} where ${creditNotes.invoiceId} = ${invoices.id}), 0)`.mapWith(
      Number,
    ),
};

const staffColumns = {
  id: invoices.id,
  number: invoices.number,
  issuedAt: invoices.issuedAt,
  auctionId: invoices.auctionId,
  auctionTitle: invoices.auctionTitle,
  organizationId: invoices.organizationId,
  billToName: invoices.billToName,
  billToContact: invoices.billToContact,
  billToEmail: invoices.billToEmail,
  billToAddress: invoices.billToAddress,
  billingPreference: invoices.billingPreference,
  deliveryState: invoices.deliveryState,
  feeCents: invoices.feeCents,
  gstCents: invoices.gstCents,
  totalCents: invoices.totalCents,
  emailedAt: invoices.emailedAt,
  mailedAt: invoices.mailedAt,
  exportedAt: invoices.exportedAt,
  exportId: invoices.exportId,
  ...creditedColumns,
};

export type StaffInvoice = Awaited<ReturnType<typeof staffInvoices>>["rows"][number];

/** Invoices for staff, newest first, filtered, a page at a time; `page: "all"` for the CSV. */
export async function staffInvoices(db: Database, filter: StaffFilter, page: number | "all") {
  const query = db.select(staffColumns).from(invoices).where(filterWhere(filter)).orderBy(desc(invoices.sequence));
  const rows = page === "all" ? await query : await query.limit(PAGE_SIZE + 1).offset((page - 1) * PAGE_SIZE);
  const [total] = await db.select({ total: count() }).from(invoices).where(filterWhere(filter));
  return {
    rows: page === "all" ? rows : rows.slice(0, PAGE_SIZE),
    hasOlder: page !== "all" && rows.length > PAGE_SIZE,
    total: total?.total ?? 0,
  };
}

/** How many invoices wait in each "to do" state, and for each network. */
export async function waitingCounts(db: Database) {
  const rows = await db
    .select({ state: invoices.deliveryState, preference: invoices.billingPreference, total: count() })
    .from(invoices)
    .where(inArray(invoices.deliveryState, ["to_email", "to_mail", "to_export"]))
    .groupBy(invoices.deliveryState, invoices.billingPreference);
  const of = (preference: BillingPreference) => rows.find((row) => row.preference === preference)?.total ?? 0;
  return {
    toEmail: of("Email Invoice"),
    toMail: of("Mail Invoice"),
    openInvoice: of("Open Invoice"),
    cortex: of("Cortex"),
  };
}

/** One invoice for staff, with its credit notes. */
export async function staffInvoice(db: Database, number: string) {
  const [invoice] = await db.select(staffColumns).from(invoices).where(eq(invoices.number, number));
  if (!invoice) return undefined;
  const notes = await db
    .select({
      number: creditNotes.number,
      issuedAt: creditNotes.issuedAt,
      amountCents: creditNotes.amountCents,
      gstCents: creditNotes.gstCents,
      totalCents: creditNotes.totalCents,
      reason: creditNotes.reason,
    })
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoice.id))
    .orderBy(asc(creditNotes.sequence));
  return {
    invoice,
    notes,
    remaining: remainingOf(invoice, notes),
  };
}

/** A document's PDF by its number, with the organization it belongs to (for the download's check). */
export async function documentPdf(db: Database, number: string) {
  if (number.startsWith("INV-")) {
    const [row] = await db
      .select({ pdf: invoices.pdf, organizationId: invoices.organizationId })
      .from(invoices)
      .where(eq(invoices.number, number));
    return row;
  }
  const [row] = await db
    .select({ pdf: creditNotes.pdf, organizationId: invoices.organizationId })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(eq(creditNotes.number, number));
  return row;
}
