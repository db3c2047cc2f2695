import { and, eq, inArray, sql } from "drizzle-orm";
import { organizationRegistrationId } from "~/registration/organization-profile/organization-profile.server";
import type { Database, Transaction } from "~db/database.server";
import { type BillingPreference, FIRST_DELIVERY_STATE } from "~db/invoice-terms";
import { countries, documentCounters, invoices, organizations, registrationContacts, registrations } from "~db/schema";
import { documentNumber, invoiceAmounts } from "./invoice-amounts";
import { type InvoiceEnv, invoiceIssuer } from "./invoice-issuer";
import { invoicePdf } from "./invoice-pdf.server";

// Buyer invoices (issue 19): issued in the award's transaction, listed for the buyer and for staff
// (invoice-lists.server.ts), marked mailed or e-mailed (invoice-delivery.server.ts) or exported
// (invoice-exports.server.ts), corrected by credit notes (credit-notes.server.ts). An invoice row is
// never edited except for its delivery marks; its PDF is made once, at issue.

type Db = Database | Transaction;

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * The next number of a counter. The upsert holds the counter's row lock until the transaction ends,
 * so concurrent issuers take turns, and a transaction that rolls back gives its number back: no gap,
 * no repeat.
 */
export async function nextSequence(tx: Transaction, name: "invoice" | "credit_note"): Promise<number> {
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
