import { asc, eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import type { Database, Transaction } from "~db/database.server";
import { auctionBidRequirements, auctions, serviceAreas, services } from "~db/schema";
import {
  type Actor,
  type AuctionChange,
  lockOwned,
  logEvent,
  NOT_FOUND,
  refused,
  TERMS_LOCKED,
} from "../auction-changes.server";
import { termsOpenForChange } from "../auction-rules";
import { firstLotOf, type LotTerms, lotTermsOf, pricedByLots, rescheduleLots, saveLots } from "../lots/lots.server";
import { tellTermsChanged } from "../questions/terms-changed.server";
import type { AuctionTerms } from "./auction-terms";

// An auction's terms (issue 9): a new auction is a draft of the buyer's organization; its terms (and
// a sealed auction's required documents) change only while nothing has been bid and it has not opened.

/** Category and area must exist: field errors, or none. */
export async function checkTermsReferences(db: Database, terms: Pick<AuctionTerms, "serviceId" | "serviceAreaId">) {
  const errors: Record<string, string> = {};
  const [service] = await db.select({ id: services.id }).from(services).where(eq(services.id, terms.serviceId));
  if (!service) errors.service = "Please choose a service category from the list";
  const [area] = await db
    .select({ id: serviceAreas.id })
    .from(serviceAreas)
    .where(eq(serviceAreas.id, terms.serviceAreaId));
  if (!area) errors.service_area = "Please choose a service area from the list";
  return errors;
}

const termsColumns = (terms: AuctionTerms) => ({
  kind: terms.kind,
  title: terms.title,
  description: terms.description,
  serviceId: terms.serviceId,
  serviceAreaId: terms.serviceAreaId,
  reserveCents: terms.reserveCents,
  startsAt: terms.startsAt,
  endsAt: terms.endsAt,
  scheduledEndsAt: terms.endsAt,
  softCloseWindowMinutes: terms.softCloseWindowMinutes,
  softCloseExtensionMinutes: terms.softCloseExtensionMinutes,
  softCloseCapMinutes: terms.softCloseCapMinutes,
  evaluatorOrganizationId: terms.evaluatorOrganizationId,
  priceWeightPercent: terms.priceWeightPercent,
  technicalPassMark: terms.technicalPassMark,
  // A sealed auction shows sellers nothing of the others anyway.
  sellerView: terms.kind === "sealed" ? ("lowest" as const) : (terms.sellerView ?? "lowest"),
});

/** The auction's one lot, as the form sets it (priced as one amount: one line of quantity 1). */
const lotsOfTerms = (terms: AuctionTerms): LotTerms[] => [
  {
    title: "",
    reserveCents: terms.reserveCents,
    decrementKind: terms.decrementKind,
    decrementValue: terms.decrementValue,
  },
];

/** The sealed auction's required documents, replacing any before (only while nothing can have been bid). */
async function saveRequirements(tx: Transaction, auctionId: number, requirements: string[]) {
  await tx.delete(auctionBidRequirements).where(eq(auctionBidRequirements.auctionId, auctionId));
  if (requirements.length === 0) return;
  await tx
    .insert(auctionBidRequirements)
    .values(requirements.map((name, sortOrder) => ({ auctionId, name, sortOrder })));
}

/** A sealed auction's required documents, in order. */
export async function bidRequirements(db: Pick<Database, "select">, auctionId: number) {
  return db
    .select({ id: auctionBidRequirements.id, name: auctionBidRequirements.name })
    .from(auctionBidRequirements)
    .where(eq(auctionBidRequirements.auctionId, auctionId))
    .orderBy(asc(auctionBidRequirements.sortOrder), asc(auctionBidRequirements.id));
}

/** A new auction, as a draft of the actor's organization. */
export async function createAuction(db: Database, actor: Actor, terms: AuctionTerms): Promise<number> {
  return db.transaction(async (tx) => {
    const [auction] = await tx
      .insert(auctions)
      .values({ organizationId: actor.organizationId, createdByUserId: actor.userId, ...termsColumns(terms) })
      .returning({
        id: auctions.id,
        title: auctions.title,
        scheduledEndsAt: auctions.scheduledEndsAt,
        lotCloseGapMinutes: auctions.lotCloseGapMinutes,
      });
    if (!auction) throw new Error("no auction row");
    await saveLots(tx, auction, lotsOfTerms(terms));
    await saveRequirements(tx, auction.id, terms.requirements);
    await logEvent(tx, auction.id, "created", actor, { title: terms.title, kind: terms.kind });
    return auction.id;
  });
}

/**
 * New terms, while nothing has been bid and the auction has not opened. Once it is published, every
 * invited seller is told what changed (issue 21), in the same transaction.
 */
export async function updateAuctionTerms(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  terms: AuctionTerms,
  now = new Date(),
): Promise<AuctionChange> {
  return services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return refused(404, NOT_FOUND);
    if (!termsOpenForChange(auction, now)) return refused(409, TERMS_LOCKED);
    const lots = await lotTermsOf(tx, auctionId);
    const requirementsBefore = (await bidRequirements(tx, auctionId)).map((requirement) => requirement.name);
    const lotBefore = await firstLotOf(tx, auctionId);
    // A sealed auction's lots all close at its deadline (issue 31): no gap between closings.
    const columns = { ...termsColumns(terms), ...(terms.kind === "sealed" ? { lotCloseGapMinutes: 0 } : {}) };
    await tx
      .update(auctions)
      .set({ ...columns, updatedAt: now })
      .where(eq(auctions.id, auctionId));
    // An auction priced by lots keeps them (each lot's terms are set on its own page); one priced as one
    // amount takes the form's reserve and decrement. Either way the lots close from the new end.
    if (pricedByLots(lots)) await rescheduleLots(tx, auctionId);
    else await saveLots(tx, { ...auction, ...columns }, lotsOfTerms(terms));
    await saveRequirements(tx, auctionId, terms.requirements);
    const { decrementKind, decrementValue } = lotBefore;
    const told = await tellTermsChanged(
      services,
      tx,
      { row: { ...auction, decrementKind, decrementValue }, requirements: requirementsBefore },
      {
        row: { ...columns, decrementKind: terms.decrementKind, decrementValue: terms.decrementValue },
        requirements: terms.requirements,
      },
    );
    await logEvent(tx, auctionId, "terms-changed", actor, told.length > 0 ? { told } : {});
    return { kind: "done", auctionId };
  });
}
