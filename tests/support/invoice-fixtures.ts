import type { Database } from "~db/database.server";
import type { BillingPreference } from "~db/invoice-terms";
import { auctionBids, industries, registrationContacts, registrations } from "~db/schema";
import {
  createAuctionRow,
  createBuyer,
  type Party,
  spentAccessTokenId,
  TEST_STAFF_ENV,
  unique,
} from "./auction-fixtures";

// Invoice test data (issue 19): a buyer with an approved registration (its profile: address, billing
// preference, accounting contact), and closed auctions with one bid, ready to award.

/** The app's environment for tests that issue invoices (the issuer's GST number) and sign staff in. */
export const INVOICING_ENV = { ...TEST_STAFF_ENV, GST_REGISTRATION_NUMBER: "123456789 RT0001" };

export type InvoicedBuyer = Party & { name: string; accountingEmail: string };

export async function createInvoicedBuyer(
  db: Database,
  preference: BillingPreference,
  name = `Invoiced Buyer ${unique()}`,
  { accountingContact = true } = {},
): Promise<InvoicedBuyer> {
  const party = await createBuyer(db, name);
  const accessTokenId = await spentAccessTokenId(db, {
    name: "Pat",
    organizationName: name,
    organizationType: 2,
    mobileNumber: "+14035550001",
  });
  const [industry] = await db.select({ id: industries.id }).from(industries).limit(1);
  const [registration] = await db
    .insert(registrations)
    .values({
      accessTokenId,
      organizationType: 2,
      status: "approved",
      name,
      address: "100 Main St",
      city: "Red Deer",
      state: "AB",
      countryCode: "CA",
      postalZip: "T4N 1A1",
      phone: "403-555-0100",
      email: `office-${unique()}@buyer.example`,
      primaryIndustryId: industry?.id ?? 1,
      billingPreference: preference,
      organizationId: party.organizationId,
    })
    .returning({ id: registrations.id });
  const accountingEmail = `ap-${unique()}@buyer.example`;
  await db.insert(registrationContacts).values([
    {
      registrationId: registration?.id ?? 0,
      role: "primary",
      firstName: "Pat",
      lastName: "Primary",
      phone: "403-555-0101",
      email: party.email,
    },
    ...(accountingContact
      ? [
          {
            registrationId: registration?.id ?? 0,
            role: "accounting" as const,
            firstName: "Alex",
            lastName: "Accounts",
            phone: "403-555-0102",
            email: accountingEmail,
          },
        ]
      : []),
  ]);
  return { ...party, name, accountingEmail };
}

/** A closed reverse auction of the buyer's with one bid from the seller: award it with { bid, confirm: "yes" }. */
export async function closedAuctionWithBid(
  db: Database,
  buyer: Party,
  seller: Party,
  catalogue: { serviceId: number; serviceAreaId: number },
  amountCents = 500_000,
) {
  const auction = await createAuctionRow(db, {
    owner: buyer,
    ...catalogue,
    status: "closed",
    startsAt: new Date(Date.now() - 7_200_000),
    endsAt: new Date(Date.now() - 3_600_000),
    sellers: [seller],
  });
  const [bid] = await db
    .insert(auctionBids)
    .values({
      auctionId: auction.id,
      lotId: auction.lots[0]?.id as number,
      organizationId: seller.organizationId,
      userId: seller.userId,
      amountCents,
      kind: "manual",
      rank: 1,
    })
    .returning({ id: auctionBids.id });
  if (!bid) throw new Error("no bid");
  return { auction, bidId: bid.id, award: { bid: String(bid.id), confirm: "yes" } };
}
