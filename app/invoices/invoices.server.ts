import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Environment } from "~/platform/env.server";
import { organizationRegistrationId } from "~/registration/organization-profile/organization-profile.server";
import type { Database, Transaction } from "~db/database.server";
import {
  type BillingPreference,
  type DeliveryState,
  type ExportNetwork,
  FIRST_DELIVERY_STATE,
} from "~db/invoice-terms";
import {
  countries,
  creditNotes,
  documentCounters,
  invoiceExports,
  invoices,
  organizations,
  registrationContacts,
  registrations,
} from "~db/schema";
import { creditNoteAmounts, documentNumber, invoiceAmounts, remainingOf } from "./invoice-amounts";
import { networkExportCsv, networkExportFileName } from "./invoice-csv.server";
import { invoiceIssuer } from "./invoice-issuer";
import { creditNotePdf, invoicePdf } from "./invoice-pdf.server";
import { PAGE_SIZE, type StaffFilter } from "./invoice-terms";

// Buyer invoices (issue 19): issued in the award's transaction, listed for the buyer and for staff,
// marked mailed or exported, corrected by credit notes. An invoice row is never edited except for its
// delivery marks; its PDF is made once, at issue.

type Db = Database | Transaction;
type InvoiceEnv = Pick<Environment, "INVOICE_ISSUER_NAME" | "INVOICE_ISSUER_ADDRESS" | "GST_REGISTRATION_NUMBER">;

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The next number of a counter. The upsert holds the counter's row lock until the transaction ends,
 * so concurrent issuers take turns, and a transaction that rolls back gives its number back: no gap,
 * no repeat.
 */
async function nextSequence(tx: Transaction, name: "invoice" | "credit_note"): Promise<number> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ name, lastNumber: 1 })
    .onConflictDoUpdate({ target: documentCounters.name, set: { lastNumber: sql`${documentCounters.lastNumber} + 1` } })
    .returning({ lastNumber: documentCounters.lastNumber });
  if (!row) throw new Error(`no ${name} counter`);
  return row.lastNumber;
}

export type BillTo = {
  name: string;
  contact: string | null;
  email: string | null;
  address: string;
  preference: BillingPreference;
};

/** An organization without a profile on file (made outside registration): staff post it, and see so. */
const NO_PROFILE_PREFERENCE: BillingPreference = "Mail Invoice";
export const NO_ADDRESS_ON_FILE = "No address on file";

/** Who the invoice is to, from the organization's approved registration (its profile) as it is now. */
export async function billToOf(db: Db, organizationId: number): Promise<BillTo> {
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const registrationId = await organizationRegistrationId(db, organizationId);
  const [registration] = registrationId
    ? await db
        .select({
          name: registrations.name,
          address: registrations.address,
          city: registrations.city,
          state: registrations.state,
          postalZip: registrations.postalZip,
          country: countries.name,
          email: registrations.email,
          billingPreference: registrations.billingPreference,
        })
        .from(registrations)
        .innerJoin(countries, eq(countries.code, registrations.countryCode))
        .where(eq(registrations.id, registrationId))
    : [];
  if (!registration) {
    return {
      name: organization?.name ?? "Unknown organization",
      contact: null,
      email: null,
      address: NO_ADDRESS_ON_FILE,
      preference: NO_PROFILE_PREFERENCE,
    };
  }
  const contacts = await db
    .select()
    .from(registrationContacts)
    .where(
      and(
        eq(registrationContacts.registrationId, registrationId as number),
        inArray(registrationContacts.role, ["accounting", "primary"]),
      ),
    );
  // The accounting contact is optional on the form (spec section 3): the primary contact stands in.
  const contact = contacts.find((row) => row.role === "accounting") ?? contacts.find((row) => row.role === "primary");
  return {
    name: organization?.name ?? registration.name,
    contact: contact ? `${contact.firstName} ${contact.lastName}` : null,
    email: contact?.email ?? registration.email,
    address: [
      registration.address,
      `${registration.city} ${registration.state}  ${registration.postalZip}`,
      registration.country,
    ].join("\n"),
    preference: registration.billingPreference ?? NO_PROFILE_PREFERENCE,
  };
}

/**
 * Issues the invoice of an awarded auction, inside the award's transaction (the caller holds the
 * auction's row lock and has just marked it awarded, so this runs once per auction; the unique
 * auction_id backs that up).
 */
export async function issueInvoiceForAward(
  tx: Transaction,
  env: InvoiceEnv,
  auction: { id: number; title: string; organizationId: number },
  feeCents: number,
  now: Date,
): Promise<InvoiceRow> {
  const billTo = await billToOf(tx, auction.organizationId);
  const amounts = invoiceAmounts(feeCents);
  const sequence = await nextSequence(tx, "invoice");
  const content = {
    number: documentNumber("INV", sequence),
    issuedAt: now,
    auctionId: auction.id,
    auctionTitle: auction.title,
    billToName: billTo.name,
    billToContact: billTo.contact,
    billToEmail: billTo.email,
    billToAddress: billTo.address,
    billingPreference: billTo.preference,
    feeCents: amounts.amountCents,
    gstCents: amounts.gstCents,
    totalCents: amounts.totalCents,
  };
  const pdf = await invoicePdf(content, invoiceIssuer(env));
  const [row] = await tx
    .insert(invoices)
    .values({
      ...content,
      sequence,
      organizationId: auction.organizationId,
      pdf,
      deliveryState: FIRST_DELIVERY_STATE[billTo.preference],
    })
    .returning();
  if (!row) throw new Error("no invoice");
  return row;
}

// ---- Reading ----

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

// ---- Staff changes ----

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
