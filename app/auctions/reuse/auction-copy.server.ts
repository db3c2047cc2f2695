import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { prequalification } from "~/auctions/evaluation/assessments.server";
import { utcToZonedLocal, zonedLocalToUtc } from "~/platform/zoned-time";
import type { Database } from "~db/database.server";
import {
  auctionBidRequirements,
  auctionEvents,
  auctionInvitations,
  auctions,
  evaluationCriteria,
  organizations,
  registrations,
} from "~db/schema";
import { type Actor, logEvent, NOT_FOUND, refused } from "../auction-changes.server";
import { sellerAlias } from "../auction-rules";
import { eligibleSellers } from "../invitations/eligibility.server";
import { lotTermsOf, saveLots } from "../lots/lots.server";

// A new auction as a copy of an earlier one (issue 21): the terms, the sealed-bid document list, the
// evaluation settings and criteria, the documents and the invited sellers still eligible, as a new
// draft with new dates (tomorrow, the old length) for the buyer to check in the edit form. One
// transaction: a copy is whole or not at all. Scores, bids and answers belong to the old auction.

export type DroppedSeller = { organizationId: number; name: string; reason: string };

export const NO_LONGER_APPROVED = "no longer an approved seller";
export const NOT_ELIGIBLE =
  "no longer eligible: does not offer the category in the area, or insurance or WCB do not cover the new dates";
export const NOT_PREQUALIFIED = "needs the technical pre-qualification again on the new auction";

/** The new dates: tomorrow at the old start's time of day on the user's clock, as long as the old one. */
export function copiedDates(source: { startsAt: Date; scheduledEndsAt: Date }, timezone: string, now = new Date()) {
  const tomorrow = utcToZonedLocal(new Date(now.getTime() + 86_400_000), timezone).slice(0, 10);
  const timeOfDay = utcToZonedLocal(source.startsAt, timezone).slice(11, 16);
  const startsAt = zonedLocalToUtc(`${tomorrow}T${timeOfDay}`, timezone) ?? new Date(now.getTime() + 86_400_000);
  const length = Math.max(60_000, source.scheduledEndsAt.getTime() - source.startsAt.getTime());
  return { startsAt, endsAt: new Date(startsAt.getTime() + length) };
}

export type CopyOutcome =
  | { kind: "done"; auctionId: number; dropped: DroppedSeller[] }
  | { kind: "refused"; status: 404; message: string };

export async function copyAuction(
  db: Database,
  sourceId: number,
  actor: Actor,
  timezone: string,
  now = new Date(),
): Promise<CopyOutcome> {
  return db.transaction(async (tx) => {
    const [source] = await tx.select().from(auctions).where(eq(auctions.id, sourceId));
    // Only the organization that ran it copies it; a practice auction is nobody's to copy.
    if (!source || source.practice || source.organizationId !== actor.organizationId) {
      return refused(404, NOT_FOUND) as CopyOutcome;
    }
    const { startsAt, endsAt } = copiedDates(source, timezone, now);
    const [copy] = await tx
      .insert(auctions)
      .values({
        organizationId: actor.organizationId,
        createdByUserId: actor.userId,
        copiedFromAuctionId: source.id,
        kind: source.kind,
        title: source.title,
        description: source.description,
        serviceId: source.serviceId,
        serviceAreaId: source.serviceAreaId,
        reserveCents: source.reserveCents,
        lotCloseGapMinutes: source.lotCloseGapMinutes,
        sellerView: source.sellerView,
        startsAt,
        endsAt,
        scheduledEndsAt: endsAt,
        softCloseWindowMinutes: source.softCloseWindowMinutes,
        softCloseExtensionMinutes: source.softCloseExtensionMinutes,
        softCloseCapMinutes: source.softCloseCapMinutes,
        evaluatorOrganizationId: source.evaluatorOrganizationId,
        priceWeightPercent: source.priceWeightPercent,
        technicalPassMark: source.technicalPassMark,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!copy) throw new Error("no auction row");
    // The lots with their rate sheets, closing on the copy's dates.
    await saveLots(tx, copy, await lotTermsOf(tx, source.id));
    // Files are copied inside the database: their bytes never pass through the app.
    await tx.execute(sql`insert into auction_documents
      (auction_id, file_name, content_type, size_bytes, content, uploaded_by_user_id, created_at)
      select ${copy.id}, file_name, content_type, size_bytes, content, uploaded_by_user_id, ${now.toISOString()}::timestamptz
      from auction_documents where auction_id = ${source.id} order by id`);
    const requirements = await tx
      .select({ name: auctionBidRequirements.name, sortOrder: auctionBidRequirements.sortOrder })
      .from(auctionBidRequirements)
      .where(eq(auctionBidRequirements.auctionId, source.id));
    if (requirements.length > 0) {
      await tx.insert(auctionBidRequirements).values(requirements.map((row) => ({ ...row, auctionId: copy.id })));
    }
    const criteria = await tx
      .select({
        name: evaluationCriteria.name,
        weight: evaluationCriteria.weight,
        sortOrder: evaluationCriteria.sortOrder,
      })
      .from(evaluationCriteria)
      .where(eq(evaluationCriteria.auctionId, source.id));
    if (criteria.length > 0) {
      await tx.insert(evaluationCriteria).values(criteria.map((row) => ({ ...row, auctionId: copy.id })));
    }
    const dropped = await copyInvitations(tx as unknown as Database, source.id, copy, now);
    await logEvent(tx, copy.id, "created", actor, {
      title: copy.title,
      kind: copy.kind,
      copiedFromAuctionId: source.id,
      dropped,
    });
    return { kind: "done" as const, auctionId: copy.id, dropped };
  });
}

/** The old auction's invited sellers still eligible (and pre-qualified) for the copy, invited to it; the rest with why. */
async function copyInvitations(
  tx: Database,
  sourceId: number,
  copy: typeof auctions.$inferSelect,
  now: Date,
): Promise<DroppedSeller[]> {
  const invited = await tx
    .select({ organizationId: auctionInvitations.organizationId, name: organizations.name })
    .from(auctionInvitations)
    .innerJoin(organizations, eq(organizations.id, auctionInvitations.organizationId))
    .where(eq(auctionInvitations.auctionId, sourceId))
    .orderBy(asc(auctionInvitations.alias));
  if (invited.length === 0) return [];
  const eligible = new Set((await eligibleSellers(tx, copy)).map((seller) => seller.organizationId));
  const approved = new Set(
    (
      await tx
        .select({ organizationId: registrations.organizationId })
        .from(registrations)
        .where(
          and(
            eq(registrations.status, "approved"),
            inArray(
              registrations.organizationId,
              invited.map((row) => row.organizationId),
            ),
          ),
        )
    ).map((row) => row.organizationId),
  );
  // With criteria, only pre-qualified sellers are invited; nobody is scored on the new draft yet.
  const prequalified = await prequalification(tx, copy);
  const kept: number[] = [];
  const dropped: DroppedSeller[] = [];
  for (const seller of invited) {
    const reason = !approved.has(seller.organizationId)
      ? NO_LONGER_APPROVED
      : !eligible.has(seller.organizationId)
        ? NOT_ELIGIBLE
        : prequalified.gated && !prequalified.verdict(seller.organizationId).qualified
          ? NOT_PREQUALIFIED
          : null;
    if (reason) dropped.push({ ...seller, reason });
    else kept.push(seller.organizationId);
  }
  if (kept.length > 0) {
    await tx.insert(auctionInvitations).values(
      kept.map((organizationId, index) => ({
        auctionId: copy.id,
        organizationId,
        alias: sellerAlias(index),
        invitedAt: now,
      })),
    );
  }
  return dropped;
}

/** What the auction page says of a copy: where it came from and which sellers were left out, with why. */
export async function copyOrigin(db: Database, auction: { id: number; copiedFromAuctionId: number | null }) {
  if (!auction.copiedFromAuctionId) return null;
  const [created] = await db
    .select({ data: auctionEvents.data })
    .from(auctionEvents)
    .where(and(eq(auctionEvents.auctionId, auction.id), eq(auctionEvents.kind, "created")))
    .orderBy(asc(auctionEvents.id))
    .limit(1);
  const dropped = Array.isArray(created?.data.dropped) ? (created.data.dropped as DroppedSeller[]) : [];
  return { fromAuctionId: auction.copiedFromAuctionId, dropped };
}
