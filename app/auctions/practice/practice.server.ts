import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { sellerMayBid } from "~/payments/subscriptions/standing.server";
import { Role } from "~/shared/roles";
import type { Database, Transaction } from "~db/database.server";
import {
  auctionAutoBids,
  auctionBids,
  auctionInvitations,
  auctionLots,
  auctions,
  organizations,
  registrationServiceAreas,
  registrationServices,
  registrations,
  serviceAreas,
  services,
} from "~db/schema";
import { logEvent } from "../auction-changes.server";
import { type LotTerms, lotsOf, saveLots } from "../lots/lots.server";
import {
  PRACTICE_DECREMENT_CENTS,
  PRACTICE_FLOOR_CENTS,
  PRACTICE_LOT_GAP_MINUTES,
  PRACTICE_LOTS,
  PRACTICE_MINUTES,
  PRACTICE_RESERVE_CENTS,
  type PracticeKind,
  type PracticeLot,
  practiceLotFloorCents,
  practiceLotOpeningCents,
  practiceLotReserveCents,
} from "./practice-rules";

// Practice auctions (issue 21): an approved seller in good standing tries bidding before their first
// real auction. Each is private to its seller (auctions.practice: no list, report, notification,
// e-mail, fee or invoice; auction-views.server.ts shows it to its seller only, lockOwned lets nobody
// run it, notifyUsers tells nobody of it). The other bidders are simulated by the bidding engine
// itself, deterministically: competitor B opens one decrement under the reserve, and competitor C
// holds a secret minimum at 80 % of the reserve, so each bid of the seller's above it is undercut at
// once, in the bid's own round, until the seller goes under it and wins.
// A practice rate sheet (issue 31) does the same lot by lot: B opens each lot one decrement under its
// reserve with unit prices, and C, which has its own opening bid on the lot above B's (an auto-bid
// scales its seller's latest unit prices, decision 027), holds a minimum at 80 % of the lot's reserve.

/** The placeholder organizations: a buyer with no users, and the simulated competitors (no registration, no users). */
export const PRACTICE_BUYER = "Practice buyer (simulated)";
export const PRACTICE_COMPETITORS = ["Practice competitor B (simulated)", "Practice competitor C (simulated)"] as const;

export const PRACTICE_LOTS_TITLE = "Practice auction: a rate sheet in lots";

export const NOT_APPROVED = "Practice auctions are for approved sellers.";

type Seller = { userId: number; organizationId: number };

/** The seller's practice auction still running, if any. */
export async function runningPracticeAuction(db: Database | Transaction, organizationId: number, now = new Date()) {
  const [row] = await db
    .select({ id: auctions.id, endsAt: auctions.endsAt })
    .from(auctions)
    .innerJoin(auctionInvitations, eq(auctionInvitations.auctionId, auctions.id))
    .where(
      and(
        eq(auctions.practice, true),
        eq(auctionInvitations.organizationId, organizationId),
        inArray(auctions.status, ["scheduled", "open"]),
        gt(auctions.endsAt, now),
      ),
    )
    .orderBy(desc(auctions.id))
    .limit(1);
  return row;
}

/** Whether the organization is an approved seller that may bid now (subscription in good standing). */
export async function mayPractise(db: Database | Transaction, organizationId: number, now = new Date()) {
  const [approved] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .innerJoin(organizations, eq(organizations.id, registrations.organizationId))
    .where(
      and(
        eq(registrations.organizationId, organizationId),
        eq(registrations.status, "approved"),
        eq(organizations.organizationType, Role.Seller),
      ),
    )
    .limit(1);
  if (!approved) return { ok: false as const, message: NOT_APPROVED };
  const standing = await sellerMayBid(db, organizationId, now);
  if (!standing.mayBid) return { ok: false as const, message: "Your subscription must be in good standing to bid." };
  return { ok: true as const, registrationId: approved.id };
}

/** A placeholder organization by name, made the first time (under a lock, so never twice). */
async function placeholder(tx: Transaction, name: string, organizationType: typeof Role.Buyer | typeof Role.Seller) {
  const [found] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .leftJoin(registrations, eq(registrations.organizationId, organizations.id))
    .where(
      and(
        eq(organizations.name, name),
        eq(organizations.organizationType, organizationType),
        sql`${registrations.id} is null`,
      ),
    )
    .orderBy(asc(organizations.id))
    .limit(1);
  if (found) return found.id;
  const [made] = await tx.insert(organizations).values({ name, organizationType }).returning({ id: organizations.id });
  if (!made) throw new Error("no organization row");
  return made.id;
}

/** A category and an area the seller knows: their first registered ones (any, failing that). */
async function practiceTerms(tx: Transaction, registrationId: number) {
  const [service] = await tx
    .select({ id: registrationServices.serviceId })
    .from(registrationServices)
    .where(eq(registrationServices.registrationId, registrationId))
    .limit(1);
  const [area] = await tx
    .select({ id: registrationServiceAreas.serviceAreaId })
    .from(registrationServiceAreas)
    .where(eq(registrationServiceAreas.registrationId, registrationId))
    .limit(1);
  const [anyService] = service ? [service] : await tx.select({ id: services.id }).from(services).limit(1);
  const [anyArea] = area ? [area] : await tx.select({ id: serviceAreas.id }).from(serviceAreas).limit(1);
  if (!anyService || !anyArea) throw new Error("no service or area to practise on");
  return { serviceId: anyService.id, serviceAreaId: anyArea.id };
}

export type PracticeStart = { kind: "started"; auctionId: number } | { kind: "refused"; message: string };

/** The lots of a practice auction as `saveLots` takes them: one amount, or the practice rate sheet. */
function practiceLotTerms(kind: PracticeKind): LotTerms[] {
  if (kind === "one-price") {
    return [
      {
        title: "",
        reserveCents: PRACTICE_RESERVE_CENTS,
        decrementKind: "amount",
        decrementValue: PRACTICE_DECREMENT_CENTS,
      },
    ];
  }
  return PRACTICE_LOTS.map((lot) => ({
    title: lot.title,
    reserveCents: practiceLotReserveCents(lot),
    decrementKind: "amount",
    decrementValue: lot.decrementCents,
    lines: lot.lines.map(({ description, unit, quantity, ceilingCents }) => ({
      description,
      unit,
      quantity,
      ceilingCents,
    })),
  }));
}

/**
 * The simulated competitors on one lot, numbered from `sequence` on (the auction's one sequence):
 * B's opening bid one decrement under the reserve (it leads), then, on a lot priced by lines, C's own
 * opening bid at the reserve's unit prices (above B's: an auto-bid scales its seller's latest unit
 * prices, so C needs some), then C's secret minimum. Answers the next sequence number.
 */
async function seedCompetitors(
  tx: Transaction,
  auctionId: number,
  lot: { id: number },
  sheet: PracticeLot | null,
  competitors: { openerId: number; proxyId: number },
  sequence: number,
  now: Date,
) {
  const reserveCents = sheet ? practiceLotReserveCents(sheet) : PRACTICE_RESERVE_CENTS;
  const opening = sheet ? practiceLotOpeningCents(sheet) : PRACTICE_RESERVE_CENTS - PRACTICE_DECREMENT_CENTS;
  let next = sequence;
  const bids = [
    {
      auctionId,
      lotId: lot.id,
      organizationId: competitors.openerId,
      amountCents: opening,
      unitCents: sheet ? sheet.lines.map((line) => line.openingUnitCents) : null,
      kind: "auto" as const,
      rank: next++,
      createdAt: now,
    },
    ...(sheet
      ? [
          {
            auctionId,
            lotId: lot.id,
            organizationId: competitors.proxyId,
            amountCents: reserveCents,
            unitCents: sheet.lines.map((line) => line.reserveUnitCents),
            kind: "auto" as const,
            rank: next++,
            createdAt: now,
          },
        ]
      : []),
  ];
  const [opened] = await tx.insert(auctionBids).values(bids).returning({ id: auctionBids.id });
  await tx.insert(auctionAutoBids).values({
    auctionId,
    lotId: lot.id,
    organizationId: competitors.proxyId,
    minimumCents: sheet ? practiceLotFloorCents(reserveCents) : PRACTICE_FLOOR_CENTS,
    enteredSequence: next++,
    updatedAt: now,
  });
  await tx
    .update(auctionLots)
    .set({
      lowestBidId: opened?.id,
      lowestCents: opening,
      leaderOrganizationId: competitors.openerId,
      bidCount: bids.length,
    })
    .where(eq(auctionLots.id, lot.id));
  return { next, bids: bids.length };
}

/**
 * The seller's practice auction: the one still running, or a new one open now for PRACTICE_MINUTES
 * (a rate sheet's later lots closing PRACTICE_LOT_GAP_MINUTES apart after it), with the simulated
 * competitors' opening bids and secret minimums in place. One transaction.
 */
export async function startPracticeAuction(
  db: Database,
  seller: Seller,
  now = new Date(),
  kind: PracticeKind = "one-price",
): Promise<PracticeStart> {
  return db.transaction(async (tx) => {
    // One practice auction at a time per seller, and the placeholders made once: serialized here.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('practice-auctions'))`);
    const allowed = await mayPractise(tx, seller.organizationId, now);
    if (!allowed.ok) return { kind: "refused" as const, message: allowed.message };
    const running = await runningPracticeAuction(tx, seller.organizationId, now);
    if (running) return { kind: "started" as const, auctionId: running.id };
    const buyerId = await placeholder(tx, PRACTICE_BUYER, Role.Buyer);
    const competitors = {
      openerId: await placeholder(tx, PRACTICE_COMPETITORS[0], Role.Seller),
      proxyId: await placeholder(tx, PRACTICE_COMPETITORS[1], Role.Seller),
    };
    const endsAt = new Date(now.getTime() + PRACTICE_MINUTES * 60_000);
    const [auction] = await tx
      .insert(auctions)
      .values({
        organizationId: buyerId,
        practice: true,
        title: kind === "lots" ? PRACTICE_LOTS_TITLE : "Practice auction",
        description:
          kind === "lots"
            ? "A practice auction of a rate sheet in lots: bid a unit price per line on each lot. The other bidders are simulated, and nothing you do here binds you or is seen by anyone else."
            : "A practice auction: the other bidders are simulated, and nothing you do here binds you or is seen by anyone else.",
        ...(await practiceTerms(tx, allowed.registrationId)),
        reserveCents: PRACTICE_RESERVE_CENTS,
        startsAt: now,
        endsAt,
        scheduledEndsAt: endsAt,
        softCloseWindowMinutes: 2,
        softCloseExtensionMinutes: 2,
        softCloseCapMinutes: 10,
        lotCloseGapMinutes: kind === "lots" ? PRACTICE_LOT_GAP_MINUTES : 0,
        // Open from the start, as the clock would have made it: nothing is left for the clock to do
        // until the end.
        status: "open",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: auctions.id, title: auctions.title, scheduledEndsAt: auctions.scheduledEndsAt });
    if (!auction) throw new Error("no auction row");
    // The lots, their ends (lot n closes (n − 1) gaps after the first) and the auction's sums.
    await saveLots(tx, auction, practiceLotTerms(kind));
    const lots = await lotsOf(tx, auction.id);
    await tx.insert(auctionInvitations).values([
      { auctionId: auction.id, organizationId: seller.organizationId, alias: "Seller A", invitedAt: now },
      {
        auctionId: auction.id,
        organizationId: competitors.openerId,
        alias: "Seller B",
        invitedAt: now,
        termsAcceptedAt: now,
      },
      {
        auctionId: auction.id,
        organizationId: competitors.proxyId,
        alias: "Seller C",
        invitedAt: now,
        termsAcceptedAt: now,
      },
    ]);
    // Per lot, competitor B's opening bid (it leads), then competitor C's minimum (entered after it):
    // the engine's own auto-bidding makes C undercut each of the seller's bids down to C's floor.
    let sequence = 1;
    let bidCount = 0;
    for (const [index, lot] of lots.entries()) {
      const seeded = await seedCompetitors(
        tx,
        auction.id,
        lot,
        kind === "lots" ? (PRACTICE_LOTS[index] ?? null) : null,
        competitors,
        sequence,
        now,
      );
      sequence = seeded.next;
      bidCount += seeded.bids;
    }
    await tx
      .update(auctions)
      .set({ sequence: sequence - 1, bidCount })
      .where(eq(auctions.id, auction.id));
    await logEvent(tx, auction.id, "opened", null);
    await logEvent(tx, auction.id, "practice-started", seller);
    return { kind: "started" as const, auctionId: auction.id };
  });
}

/** The seller's latest practice auction (running or not), for the link on /auctions. */
export async function latestPracticeAuction(db: Database, organizationId: number) {
  const [row] = await db
    .select({ id: auctions.id })
    .from(auctions)
    .innerJoin(auctionInvitations, eq(auctionInvitations.auctionId, auctions.id))
    .where(and(eq(auctions.practice, true), eq(auctionInvitations.organizationId, organizationId)))
    .orderBy(desc(auctions.id))
    .limit(1);
  return row?.id ?? null;
}
