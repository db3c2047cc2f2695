import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { BILLING_PREFERENCES, DELIVERY_STATES, EXPORT_NETWORKS } from "../invoice-terms";
import { organizations, users } from "./accounts";
import { auctions } from "./auctions";
import { bytea } from "./columns";

// Buyer invoices (issue 19): one per awarded auction, issued in the award's transaction, never edited
// (a credit note corrects one). Numbers come from a counter row locked in the issuing transaction, so
// they never skip nor repeat (a rolled-back award gives its number back).

const sqlList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

/** The gapless counters: 'invoice' (INV-000001, ...) and 'credit_note' (CN-000001, ...). */
export const documentCounters = pgTable("document_counters", {
  name: text("name").primaryKey(),
  /** The last number given; 0 before the first. */
  lastNumber: integer("last_number").notNull().default(0),
});

/** One export file of an e-invoicing network: the invoices it carried are marked exported with it. */
export const invoiceExports = pgTable(
  "invoice_exports",
  {
    id: serial("id").primaryKey(),
    network: text("network", { enum: EXPORT_NETWORKS }).notNull(),
    fileName: text("file_name").notNull(),
    /** The file as first downloaded: a later download of the same export gives the same bytes. */
    csv: text("csv").notNull(),
    invoiceCount: integer("invoice_count").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [check("invoice_exports_network_check", sql`${table.network} in (${sqlList(EXPORT_NETWORKS)})`)],
);

export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    /** INV-000001: "INV-" and the counter, six digits or more. */
    number: text("number").notNull().unique(),
    sequence: integer("sequence").notNull().unique(),
    /** One invoice per awarded auction. */
    auctionId: integer("auction_id")
      .notNull()
      .unique()
      .references(() => auctions.id, { onDelete: "restrict" }),
    /** The buyer (or consultant) organization that ran the auction. */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    // What the invoice says, as it was at issue (the profile may change later; the invoice does not).
    auctionTitle: text("auction_title").notNull(),
    billToName: text("bill_to_name").notNull(),
    billToContact: text("bill_to_contact"),
    billToEmail: text("bill_to_email"),
    /** Street, city, province/state, postal code and country, one per line. */
    billToAddress: text("bill_to_address").notNull(),
    billingPreference: text("billing_preference", { enum: BILLING_PREFERENCES }).notNull(),
    feeCents: integer("fee_cents").notNull(),
    gstCents: integer("gst_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** The PDF made at issue; served as it is, never made again. */
    pdf: bytea("pdf").notNull(),
    deliveryState: text("delivery_state", { enum: DELIVERY_STATES }).notNull(),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    mailedByUserId: integer("mailed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    exportedAt: timestamp("exported_at", { withTimezone: true }),
    exportId: integer("export_id").references(() => invoiceExports.id, { onDelete: "restrict" }),
  },
  (table) => [
    check("invoices_billing_preference_check", sql`${table.billingPreference} in (${sqlList(BILLING_PREFERENCES)})`),
    check("invoices_delivery_state_check", sql`${table.deliveryState} in (${sqlList(DELIVERY_STATES)})`),
    // The state belongs to the preference: e-mail, post or an export file.
    check(
      "invoices_delivery_by_preference_check",
      sql`case ${table.billingPreference}
        when 'Email Invoice' then ${table.deliveryState} in ('to_email', 'emailed')
        when 'Mail Invoice' then ${table.deliveryState} in ('to_mail', 'mailed')
        else ${table.deliveryState} in ('to_export', 'exported') end`,
    ),
    check(
      "invoices_delivery_marks_check",
      sql`(${table.deliveryState} = 'mailed') = (${table.mailedAt} is not null)
        and (${table.deliveryState} = 'exported') = (${table.exportId} is not null and ${table.exportedAt} is not null)`,
    ),
    check(
      "invoices_amounts_check",
      sql`${table.feeCents} >= 0 and ${table.gstCents} >= 0 and ${table.totalCents} = ${table.feeCents} + ${table.gstCents}`,
    ),
    index("invoices_organization_idx").on(table.organizationId, table.issuedAt),
    index("invoices_state_idx").on(table.deliveryState, table.billingPreference, table.sequence),
  ],
);

/** Corrects an invoice: never more than what remains of it, before GST and in GST. */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: serial("id").primaryKey(),
    /** CN-000001: its own gapless counter. */
    number: text("number").notNull().unique(),
    sequence: integer("sequence").notNull().unique(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    gstCents: integer("gst_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    reason: text("reason").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    issuedByUserId: integer("issued_by_user_id").references(() => users.id, { onDelete: "set null" }),
    pdf: bytea("pdf").notNull(),
  },
  (table) => [
    check(
      "credit_notes_amounts_check",
      sql`${table.amountCents} > 0 and ${table.gstCents} >= 0 and ${table.totalCents} = ${table.amountCents} + ${table.gstCents}`,
    ),
    index("credit_notes_invoice_idx").on(table.invoiceId),
  ],
);
