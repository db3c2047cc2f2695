import { asc, isNotNull } from "drizzle-orm";
import { hashPassword } from "~/accounts/password.server";
import { findAuction } from "~/auctions/auction-views.server";
import { type LotTerms, saveLots } from "~/auctions/lots/lots.server";
import type { Database } from "~db/database.server";
import {
  auctionInvitations,
  auctions,
  industries,
  organizations,
  registrationAccessTokens,
  registrationRequests,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  serviceAreas,
  services,
  users,
} from "~db/schema";

// Auction test data written straight to the database: approved sellers (with the registration rows
// eligibility reads), a buyer, and auctions in any state. The flows that make these for real
// (registration, approval) have their own tests.

let counter = 0;
export function unique() {
  counter += 1;
  return `${process.pid}-${Date.now().toString(36)}-${counter}`;
}
export const FAR_FUTURE = "2099-12-31";

export type Party = { organizationId: number; userId: number; email: string; password: string };

/** A category with a parent (so "the category or one under it" can be tested) and an area. */
export async function catalogueForAuctions(db: Database) {
  const leaf = await db
    .select({ id: services.id, parentId: services.parentId })
    .from(services)
    .where(isNotNull(services.parentId))
    .orderBy(asc(services.id))
    .limit(1);
  const [area] = await db.select({ id: serviceAreas.id }).from(serviceAreas).orderBy(asc(serviceAreas.id)).limit(1);
  const serviceId = leaf[0]?.id;
  const parentId = leaf[0]?.parentId;
  if (!serviceId || !parentId || !area) throw new Error("the demo catalogue is missing");
  return { serviceId, parentServiceId: parentId, serviceAreaId: area.id };
}

/** A seller's offer of the catalogue's service in its area, as createSeller takes it. */
export function offering(catalogue: { serviceId: number; serviceAreaId: number }) {
  return { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
}

/** The catalogue (seeded already), a buyer and `sellerCount` sellers offering it, made one after another. */
export async function createAuctionParties(db: Database, sellerCount: number) {
  const catalogue = await catalogueForAuctions(db);
  const buyer = await createBuyer(db);
  const sellers: Party[] = [];
  for (let index = 0; index < sellerCount; index += 1) sellers.push(await createSeller(db, offering(catalogue)));
  return { catalogue, buyer, sellers };
}

async function user(db: Database, organizationId: number | null, role: number, email: string, password: string) {
  const [row] = await db
    .insert(users)
    .values({
      email,
      role,
      organizationId,
      passwordHash: await hashPassword(password),
      isOrganizationAdmin: true,
      timezone: null,
    })
    .returning({ id: users.id });
  if (!row) throw new Error("no user");
  return row.id;
}

/** A buyer (2) or consultant (4) organization with one signed-up user. */
export async function createBuyer(db: Database, name = `Buyer ${unique()}`, type: 2 | 4 = 2): Promise<Party> {
  const [organization] = await db
    .insert(organizations)
    .values({ name, organizationType: type })
    .returning({ id: organizations.id });
  if (!organization) throw new Error("no organization");
  const email = `buyer-${unique()}@auction.example`.toLowerCase();
  const password = "buyer-password-1";
  return {
    organizationId: organization.id,
    userId: await user(db, organization.id, type, email, password),
    email,
    password,
  };
}

export type SellerOptions = {
  name?: string;
  serviceIds: number[];
  serviceAreaIds: number[];
  insuranceExpiry?: string;
  wcbExpiry?: string | null;
  status?: "approved" | "submitted";
};

/** The request and the spent access token (steps 1-4, long done) that a registration row points to. */
export async function spentAccessTokenId(
  db: Database,
  request: { name: string; organizationName: string; organizationType: 2 | 3 | 4; mobileNumber: string },
): Promise<number> {
  const [written] = await db
    .insert(registrationRequests)
    .values({ ...request, codeSalt: "x", codeHash: "x", codeExpiresAt: new Date() })
    .returning({ id: registrationRequests.id });
  const [token] = await db
    .insert(registrationAccessTokens)
    .values({ registrationRequestId: written?.id ?? 0, tokenHash: unique(), expiresAt: new Date(), usedAt: new Date() })
    .returning({ id: registrationAccessTokens.id });
  return token?.id ?? 0;
}

/** An approved seller with an account: registration, seller details, services, areas and WCB. */
export async function createSeller(db: Database, options: SellerOptions): Promise<Party> {
  const name = options.name ?? `Seller ${unique()}`;
  const insurance = options.insuranceExpiry ?? FAR_FUTURE;
  const [organization] = await db
    .insert(organizations)
    .values({ name, organizationType: 3 })
    .returning({ id: organizations.id });
  if (!organization) throw new Error("no organization");
  const accessTokenId = await spentAccessTokenId(db, {
    name: "Sam",
    organizationName: name,
    organizationType: 3,
    mobileNumber: "+14035550000",
  });
  const [industry] = await db.select({ id: industries.id }).from(industries).limit(1);
  const [registration] = await db
    .insert(registrations)
    .values({
      accessTokenId,
      organizationType: 3,
      status: options.status ?? "approved",
      name,
      address: "1 Main St",
      city: "Nisku",
      state: "AB",
      countryCode: "CA",
      postalZip: "T9E 7N5",
      phone: "780-555-0100",
      email: `office-${unique()}@seller.example`,
      primaryIndustryId: industry?.id ?? 1,
      organizationId: organization.id,
    })
    .returning({ id: registrations.id });
  const registrationId = registration?.id ?? 0;
  await db.insert(sellerRegistrations).values({
    registrationId,
    inCommercialGeneral: "$2,000,000 minimum",
    inCommercialGeneralExpiry: insurance,
    inThirdPartyAutomobile: "$1,000,000 minimum",
    inThirdPartyAutomobileExpiry: insurance,
    paymentStatus: "card_saved",
    paymentProvider: "test",
    paymentCustomerId: "cus_test",
    paymentMethodId: "pm_test",
  });
  if (options.serviceIds.length) {
    await db
      .insert(registrationServices)
      .values(options.serviceIds.map((serviceId) => ({ registrationId, serviceId })));
  }
  if (options.serviceAreaIds.length) {
    await db
      .insert(registrationServiceAreas)
      .values(options.serviceAreaIds.map((serviceAreaId) => ({ registrationId, serviceAreaId })));
  }
  const wcbExpiry = options.wcbExpiry === undefined ? FAR_FUTURE : options.wcbExpiry;
  if (wcbExpiry) {
    await db
      .insert(registrationWcbs)
      .values({ registrationId, sortOrder: 0, state: "AB", number: "123", expiresOn: wcbExpiry });
  }
  const email = `seller-${unique()}@auction.example`.toLowerCase();
  const password = "seller-password-1";
  return {
    organizationId: organization.id,
    userId: await user(db, organization.id, 3, email, password),
    email,
    password,
  };
}

export type AuctionOptions = {
  owner: Party;
  serviceId: number;
  serviceAreaId: number;
  status?: "draft" | "scheduled" | "open" | "closed";
  reserveCents?: number;
  decrement?: { kind: "amount" | "percent"; value: number };
  startsAt?: Date;
  endsAt?: Date;
  softClose?: { window: number; extension: number; cap: number };
  /** Invited with the terms accepted. */
  sellers?: Party[];
  kind?: "reverse" | "sealed";
  evaluatorOrganizationId?: number;
  priceWeightPercent?: number;
  technicalPassMark?: number;
  /** Lots of line items (issue 31); none: one lot of one line priced as one amount (reserve, decrement). */
  lots?: LotTerms[];
  lotCloseGapMinutes?: number;
  sellerView?: "lowest" | "rank";
};

/** An auction in the state asked for (an open one started a minute ago and ends in an hour by default). */
export async function createAuctionRow(db: Database, options: AuctionOptions) {
  const now = Date.now();
  const startsAt = options.startsAt ?? new Date(now - 60_000);
  const endsAt = options.endsAt ?? new Date(now + 3_600_000);
  const [auction] = await db
    .insert(auctions)
    .values({
      organizationId: options.owner.organizationId,
      createdByUserId: options.owner.userId,
      title: `Auction ${unique()}`,
      description: "Haul 40 loads of gravel to the lease.",
      serviceId: options.serviceId,
      serviceAreaId: options.serviceAreaId,
      reserveCents: options.reserveCents ?? 1_000_000,
      startsAt,
      endsAt,
      scheduledEndsAt: endsAt,
      softCloseWindowMinutes: options.softClose?.window ?? 5,
      softCloseExtensionMinutes: options.softClose?.extension ?? 5,
      softCloseCapMinutes: options.softClose?.cap ?? 60,
      status: options.status ?? "open",
      kind: options.kind ?? "reverse",
      evaluatorOrganizationId: options.evaluatorOrganizationId ?? null,
      priceWeightPercent: options.priceWeightPercent ?? 100,
      technicalPassMark: options.technicalPassMark ?? null,
      lotCloseGapMinutes: options.lotCloseGapMinutes ?? 0,
      sellerView: options.sellerView ?? "lowest",
    })
    .returning();
  if (!auction) throw new Error("no auction");
  await saveLots(
    db,
    auction,
    options.lots ?? [
      {
        title: "",
        reserveCents: auction.reserveCents,
        decrementKind: options.decrement?.kind ?? "amount",
        decrementValue: options.decrement?.value ?? 10_000,
      },
    ],
  );
  for (const [index, seller] of (options.sellers ?? []).entries()) {
    await db.insert(auctionInvitations).values({
      auctionId: auction.id,
      organizationId: seller.organizationId,
      alias: `Seller ${String.fromCharCode(65 + index)}`,
      termsAcceptedAt: new Date(),
      termsAcceptedByUserId: seller.userId,
    });
  }
  return auctionRow(db, auction.id);
}

/** A rate sheet of three lines, the last with a ceiling of $4.00 (issue 31): $1,425.00 at $100, $50, $3. */
export const HAULING_LINES = [
  { description: "Vacuum truck", unit: "hour", quantity: 10_000, ceilingCents: null },
  { description: "Mileage", unit: "km", quantity: 2_500, ceilingCents: null },
  { description: "Disposal", unit: "m³", quantity: 100_000, ceilingCents: 400 },
];

/** Two lots: 1 "Hauling" priced by `HAULING_LINES` (reserve $2,000, decrement $1), 2 "Cementing" as one amount (reserve $5,000, decrement $10). */
export const haulingAndCementing = (): LotTerms[] => [
  { title: "Hauling", reserveCents: 200_000, decrementKind: "amount", decrementValue: 100, lines: HAULING_LINES },
  { title: "Cementing", reserveCents: 500_000, decrementKind: "amount", decrementValue: 1_000 },
];

/** The auction with its lots, as the pages read it. */
export async function auctionRow(db: Database, auctionId: number) {
  const auction = await findAuction(db, auctionId);
  if (!auction) throw new Error("no auction");
  return auction;
}

export const TEST_STAFF = { email: "staff@example.com", password: "staff-password" };
/** The app's environment for tests that sign staff in as TEST_STAFF. */
export const TEST_STAFF_ENV = { SEED_STAFF_EMAIL: TEST_STAFF.email, SEED_STAFF_PASSWORD: TEST_STAFF.password };

type SignInClient = { request(path: string, init?: { form?: Record<string, string> }): Promise<Response> };

/**
 * Each party (and TEST_STAFF) signed in through /login on a client of its own; answers a lookup:
 * `as(party)` or `as("staff")`.
 */
export async function signedInClients<C extends SignInClient>(newClient: () => C, parties: Party[]) {
  const clients = new Map<string, C>();
  for (const party of [...parties, { ...TEST_STAFF, key: "staff" }]) {
    const client = newClient();
    const answer = await client.request("/login", { form: { email: party.email, password: party.password } });
    if (answer.status !== 302) throw new Error(`sign-in of ${party.email} answered ${answer.status}`);
    clients.set("key" in party ? party.key : party.email, client);
  }
  return (party: Party | "staff") => clients.get(party === "staff" ? "staff" : party.email) as C;
}
