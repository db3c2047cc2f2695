import { and, asc, count, eq, gte, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { prequalification } from "~/evaluation/assessments.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
import { formatCents } from "~/payments/fees";
import type { AppServices } from "~/platform/app-context";
import type { Database, Transaction } from "~db/database.server";
import {
  type AuctionStatus,
  auctionBidRequirements,
  auctionBids,
  auctionEvents,
  auctionInvitations,
  auctions,
  organizations,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sealedBids,
  sellerRegistrations,
  serviceAreas,
  services,
} from "~db/schema";
import { canMove, sellerAlias, statusAt, termsEditable, termsOpenForChange } from "../auction-rules";
import { notifyAuction } from "../bidding/bids.server";

// Running a reverse auction (issue 9): create and edit it while no bidding has started, invite
// eligible sellers, publish, cancel, close on time, award. Every change of status is a conditional
// update under the auction's row lock and an entry in its event log.

export type AuctionTerms = {
  kind: "reverse" | "sealed";
  title: string;
  description: string;
  serviceId: number;
  serviceAreaId: number;
  reserveCents: number;
  decrementKind: "amount" | "percent";
  decrementValue: number;
  startsAt: Date;
  endsAt: Date;
  softCloseWindowMinutes: number;
  softCloseExtensionMinutes: number;
  softCloseCapMinutes: number;
  /** The consultant organization evaluating the bids; null: the auction's own organization. */
  evaluatorOrganizationId: number | null;
  priceWeightPercent: number;
  technicalPassMark: number | null;
  /** A sealed auction's required documents, in order (empty for a reverse auction). */
  requirements: string[];
};

export type Actor = { userId: number; organizationId: number };

/** What sending the auction e-mails needs (the worker process has no more than this). */
export type AuctionServices = Pick<AppServices, "db" | "messaging" | "env">;

export type AuctionChange =
  | { kind: "done"; auctionId: number }
  | { kind: "refused"; status: 400 | 404 | 409; message: string; field?: string };

export const refused = (status: 400 | 404 | 409, message: string, field?: string): AuctionChange => ({
  kind: "refused",
  status,
  message,
  field,
});

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
  decrementKind: terms.decrementKind,
  decrementValue: terms.decrementValue,
  startsAt: terms.startsAt,
  endsAt: terms.endsAt,
  scheduledEndsAt: terms.endsAt,
  softCloseWindowMinutes: terms.softCloseWindowMinutes,
  softCloseExtensionMinutes: terms.softCloseExtensionMinutes,
  softCloseCapMinutes: terms.softCloseCapMinutes,
  evaluatorOrganizationId: terms.evaluatorOrganizationId,
  priceWeightPercent: terms.priceWeightPercent,
  technicalPassMark: terms.technicalPassMark,
});

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

export async function logEvent(
  tx: Pick<Database, "insert">,
  auctionId: number,
  kind: string,
  actor: Partial<Actor> | null,
  data: Record<string, unknown> = {},
) {
  await tx.insert(auctionEvents).values({
    auctionId,
    kind,
    userId: actor?.userId ?? null,
    organizationId: actor?.organizationId ?? null,
    data,
  });
}

/** A new auction, as a draft of the actor's organization. */
export async function createAuction(db: Database, actor: Actor, terms: AuctionTerms): Promise<number> {
  return db.transaction(async (tx) => {
    const [auction] = await tx
      .insert(auctions)
      .values({ organizationId: actor.organizationId, createdByUserId: actor.userId, ...termsColumns(terms) })
      .returning({ id: auctions.id });
    if (!auction) throw new Error("no auction row");
    await saveRequirements(tx, auction.id, terms.requirements);
    await logEvent(tx, auction.id, "created", actor, { title: terms.title, kind: terms.kind });
    return auction.id;
  });
}

/** The auction of the actor's organization, locked; or why not. */
export async function lockOwned(tx: Transaction, auctionId: number, actor: Actor) {
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
  if (!auction || auction.organizationId !== actor.organizationId) return undefined;
  return auction;
}

export const NOT_FOUND = "This auction does not exist.";
const TERMS_LOCKED = "Bidding has started: the terms of this auction can no longer change.";

/** New terms, while nothing has been bid and the auction has not opened. */
export async function updateAuctionTerms(
  db: Database,
  auctionId: number,
  actor: Actor,
  terms: AuctionTerms,
  now = new Date(),
): Promise<AuctionChange> {
  return db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return refused(404, NOT_FOUND);
    if (!termsOpenForChange(auction, now)) return refused(409, TERMS_LOCKED);
    await tx
      .update(auctions)
      .set({ ...termsColumns(terms), updatedAt: now })
      .where(eq(auctions.id, auctionId));
    await saveRequirements(tx, auctionId, terms.requirements);
    await logEvent(tx, auctionId, "terms-changed", actor);
    return { kind: "done", auctionId };
  });
}

/** The latest the auction can end (every extension taken), as a date: documents must be valid through it. */
export function latestEndDate(auction: { scheduledEndsAt: Date; softCloseCapMinutes: number }): string {
  return new Date(auction.scheduledEndsAt.getTime() + auction.softCloseCapMinutes * 60_000).toISOString().slice(0, 10);
}

/** The category and every category under it (a seller offering a sub-service qualifies for its group). */
async function categoryWithDescendants(db: Database, serviceId: number): Promise<number[]> {
  const rows = await db.select({ id: services.id, parentId: services.parentId }).from(services);
  const ids = [serviceId];
  for (let index = 0; index < ids.length; index += 1) {
    for (const row of rows) if (row.parentId === ids[index]) ids.push(row.id);
  }
  return ids;
}

export type EligibleSeller = { organizationId: number; name: string; city: string };

/**
 * Approved sellers that offer the category (or one under it) in the area, whose insurance (the
 * required coverages and every one they hold) and WCB are valid through the latest possible end.
 */
export async function eligibleSellers(
  db: Database,
  auction: Pick<
    typeof auctions.$inferSelect,
    "serviceId" | "serviceAreaId" | "scheduledEndsAt" | "softCloseCapMinutes"
  >,
): Promise<EligibleSeller[]> {
  const through = latestEndDate(auction);
  const categories = await categoryWithDescendants(db, auction.serviceId);
  const heldThrough = (coverage: AnyPgColumn, expiry: AnyPgColumn) => or(eq(coverage, "No"), gte(expiry, through));
  const validWcb = db
    .select({ id: registrationWcbs.id })
    .from(registrationWcbs)
    .where(and(eq(registrationWcbs.registrationId, registrations.id), gte(registrationWcbs.expiresOn, through)));
  const offersCategory = db
    .select({ id: registrationServices.serviceId })
    .from(registrationServices)
    .where(
      and(
        eq(registrationServices.registrationId, registrations.id),
        inArray(registrationServices.serviceId, categories),
      ),
    );
  const coversArea = db
    .select({ id: registrationServiceAreas.serviceAreaId })
    .from(registrationServiceAreas)
    .where(
      and(
        eq(registrationServiceAreas.registrationId, registrations.id),
        eq(registrationServiceAreas.serviceAreaId, auction.serviceAreaId),
      ),
    );
  const rows = await db
    .select({ organizationId: organizations.id, name: organizations.name, city: registrations.city })
    .from(registrations)
    .innerJoin(organizations, eq(organizations.id, registrations.organizationId))
    .innerJoin(sellerRegistrations, eq(sellerRegistrations.registrationId, registrations.id))
    .where(
      and(
        eq(registrations.status, "approved"),
        eq(organizations.organizationType, 3),
        sql`exists (${offersCategory})`,
        sql`exists (${coversArea})`,
        gte(sellerRegistrations.inCommercialGeneralExpiry, through),
        gte(sellerRegistrations.inThirdPartyAutomobileExpiry, through),
        heldThrough(sellerRegistrations.inAircraft, sellerRegistrations.inAircraftExpiry),
        heldThrough(sellerRegistrations.inPollution, sellerRegistrations.inPollutionExpiry),
        heldThrough(sellerRegistrations.inFire, sellerRegistrations.inFireExpiry),
        heldThrough(sellerRegistrations.inErrorsOmissions, sellerRegistrations.inErrorsOmissionsExpiry),
        or(gte(sellerRegistrations.inWcbExpiry, through), sql`exists (${validWcb})`),
      ),
    )
    .orderBy(asc(organizations.name));
  return rows;
}

export const NOT_PREQUALIFIED =
  "Please choose only sellers who passed the technical pre-qualification (see the evaluation page)";

/** Invites sellers (only eligible ones) before bidding starts; each gets the next alias. */
export async function inviteSellers(
  services: AuctionServices,
  auctionId: number,
  actor: Actor,
  organizationIds: number[],
  now = new Date(),
): Promise<AuctionChange & { invited?: number }> {
  const outcome = await services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return { change: refused(404, NOT_FOUND), invited: [] as number[] };
    if (!termsEditable(statusAt(auction, now))) return { change: refused(409, TERMS_LOCKED), invited: [] };
    const eligible = new Set(
      (await eligibleSellers(tx as unknown as Database, auction)).map((seller) => seller.organizationId),
    );
    const chosen = [...new Set(organizationIds)];
    if (chosen.length === 0 || chosen.some((id) => !eligible.has(id))) {
      return {
        change: refused(400, "Please choose sellers from the list of eligible sellers", "sellers"),
        invited: [],
      };
    }
    // Pre-qualification: with technical criteria, only sellers who passed the evaluation are invited.
    const prequalified = await prequalification(tx, auction);
    if (prequalified.gated && chosen.some((id) => !prequalified.verdict(id).qualified)) {
      return {
        change: refused(400, NOT_PREQUALIFIED, "sellers"),
        invited: [],
      };
    }
    const existing = await tx
      .select({ organizationId: auctionInvitations.organizationId })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.auctionId, auctionId));
    const already = new Set(existing.map((row) => row.organizationId));
    const fresh = chosen.filter((id) => !already.has(id));
    if (fresh.length > 0) {
      await tx.insert(auctionInvitations).values(
        fresh.map((organizationId, index) => ({
          auctionId,
          organizationId,
          alias: sellerAlias(existing.length + index),
          invitedAt: now,
        })),
      );
      await logEvent(tx, auctionId, "invited", actor, { organizationIds: fresh });
    }
    return {
      change: { kind: "done" as const, auctionId },
      invited: fresh,
      published: auction.status === "scheduled",
      auction,
    };
  });
  if (outcome.change.kind === "done" && "published" in outcome && outcome.published && outcome.auction) {
    await tellInvited(services, auctionId, outcome.invited, outcome.auction);
  }
  return { ...outcome.change, invited: outcome.invited.length };
}

/** Takes an invitation back while the auction is a draft (nobody has been told yet). */
export async function removeInvitation(db: Database, auctionId: number, actor: Actor, organizationId: number) {
  return db.transaction(async (tx): Promise<AuctionChange> => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return refused(404, NOT_FOUND);
    if (auction.status !== "draft")
      return refused(409, "Invitations can only be taken back while the auction is a draft.");
    await tx
      .delete(auctionInvitations)
      .where(and(eq(auctionInvitations.auctionId, auctionId), eq(auctionInvitations.organizationId, organizationId)));
    await logEvent(tx, auctionId, "uninvited", actor, { organizationId });
    return { kind: "done", auctionId };
  });
}

/** How e-mails name the auction's kind. */
export const kindName = (auction: { kind: "reverse" | "sealed" }) =>
  auction.kind === "sealed" ? "sealed-bid auction" : "reverse auction";

export const auctionLink = (services: AuctionServices, auctionId: number) =>
  `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auctionId}`;

async function tellInvited(
  services: AuctionServices,
  auctionId: number,
  organizationIds: number[],
  auction: { title: string; kind: "reverse" | "sealed" },
) {
  const { title } = auction;
  await notifyOrganizations(services, organizationIds, {
    kind: "invited",
    auctionId,
    subject: `You are invited to bid: ${title}`,
    lines: [
      `You are invited to bid in the ${kindName(auction)} "${title}".`,
      "",
      "Read its terms and accept them to bid here:",
      auctionLink(services, auctionId),
    ],
  });
}

/** Draft → scheduled: it needs invited sellers and an end in the future. Invited sellers are told. */
export async function publishAuction(
  services: AuctionServices,
  auctionId: number,
  actor: Actor,
  now = new Date(),
): Promise<AuctionChange> {
  const outcome = await services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return { change: refused(404, NOT_FOUND) };
    if (!canMove(auction.status, "scheduled")) return { change: refused(409, "Only a draft can be published.") };
    if (auction.endsAt <= now) {
      return { change: refused(409, "Bidding would already have ended: please change the end time first.") };
    }
    const invited = await tx
      .select({ organizationId: auctionInvitations.organizationId })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.auctionId, auctionId));
    if (invited.length === 0) return { change: refused(409, "Please invite at least one seller before publishing.") };
    await tx.update(auctions).set({ status: "scheduled", updatedAt: now }).where(eq(auctions.id, auctionId));
    await logEvent(tx, auctionId, "published", actor);
    await notifyAuction(tx, auctionId);
    return {
      change: { kind: "done" as const, auctionId },
      invited: invited.map((row) => row.organizationId),
      auction,
    };
  });
  if (outcome.change.kind === "done" && outcome.invited && outcome.auction) {
    await tellInvited(services, auctionId, outcome.invited, outcome.auction);
    const { evaluatorOrganizationId, title } = outcome.auction;
    if (evaluatorOrganizationId !== null) {
      await notifyOrganizations(services, [evaluatorOrganizationId], {
        kind: "invited",
        auctionId,
        subject: `You evaluate: ${title}`,
        lines: [
          `You are named to evaluate the bids of the ${kindName(outcome.auction)} "${title}" technically.`,
          "Set the weighted criteria before bidding opens, then score the bids here:",
          `${auctionLink(services, auctionId)}/evaluation`,
        ],
      });
    }
  }
  return outcome.change;
}

/** Scheduled → draft, before it opens (to change invitations quietly). */
export async function withdrawAuction(db: Database, auctionId: number, actor: Actor, now = new Date()) {
  return db.transaction(async (tx): Promise<AuctionChange> => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return refused(404, NOT_FOUND);
    if (auction.status !== "scheduled" || statusAt(auction, now) !== "scheduled") {
      return refused(409, "Only a scheduled auction that has not opened can go back to draft.");
    }
    await tx.update(auctions).set({ status: "draft", updatedAt: now }).where(eq(auctions.id, auctionId));
    await logEvent(tx, auctionId, "withdrawn", actor);
    await notifyAuction(tx, auctionId);
    return { kind: "done", auctionId };
  });
}

/** Cancelled with a reason, from any status before the award; invited sellers are told once it was published. */
export async function cancelAuction(
  services: AuctionServices,
  auctionId: number,
  actor: Actor,
  reason: string,
  now = new Date(),
): Promise<AuctionChange> {
  const outcome = await services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return { change: refused(404, NOT_FOUND) };
    const status = statusAt(auction, now);
    if (!canMove(status, "cancelled"))
      return { change: refused(409, "An awarded or cancelled auction cannot be cancelled.") };
    await tx
      .update(auctions)
      .set({ status: "cancelled", cancelledAt: now, cancelReason: reason, updatedAt: now })
      .where(eq(auctions.id, auctionId));
    await logEvent(tx, auctionId, "cancelled", actor, { reason, from: status });
    await notifyAuction(tx, auctionId);
    const invited = await tx
      .select({ organizationId: auctionInvitations.organizationId })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.auctionId, auctionId));
    return {
      change: { kind: "done" as const, auctionId },
      tell: status === "draft" ? [] : invited.map((row) => row.organizationId),
      title: auction.title,
      kind: auction.kind,
    };
  });
  if (outcome.change.kind === "done" && outcome.tell?.length) {
    await notifyOrganizations(services, outcome.tell, {
      kind: "cancelled",
      auctionId,
      subject: `Auction cancelled: ${outcome.title}`,
      lines: [
        `The ${kindName({ kind: outcome.kind ?? "reverse" })} "${outcome.title}" has been cancelled by the buyer.`,
        "",
        `Reason: ${reason}`,
      ],
    });
  }
  return outcome.change;
}

/** An invited seller accepts the auction's terms (needed before bidding). Once only; later calls change nothing. */
export async function acceptAuctionTerms(db: Database, auctionId: number, actor: Actor, now = new Date()) {
  return db.transaction(async (tx): Promise<AuctionChange> => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId));
    if (!auction || auction.status === "draft") return refused(404, NOT_FOUND);
    const status = statusAt(auction, now);
    if (status !== "scheduled" && status !== "open") return refused(409, "Bidding has closed.");
    const [accepted] = await tx
      .update(auctionInvitations)
      .set({ termsAcceptedAt: now, termsAcceptedByUserId: actor.userId })
      .where(
        and(
          eq(auctionInvitations.auctionId, auctionId),
          eq(auctionInvitations.organizationId, actor.organizationId),
          sql`${auctionInvitations.termsAcceptedAt} is null`,
        ),
      )
      .returning({ organizationId: auctionInvitations.organizationId });
    if (accepted) {
      await logEvent(tx, auctionId, "terms-accepted", actor);
      await notifyAuction(tx, auctionId);
      return { kind: "done", auctionId };
    }
    const [invitation] = await tx
      .select()
      .from(auctionInvitations)
      .where(
        and(eq(auctionInvitations.auctionId, auctionId), eq(auctionInvitations.organizationId, actor.organizationId)),
      );
    return invitation ? { kind: "done", auctionId } : refused(404, NOT_FOUND);
  });
}

/**
 * Persists what the clock has decided: scheduled auctions past their start are open, those past
 * their end closed (the buyer side and the bidders are e-mailed once). Run by the worker every few
 * seconds, and safe to run on several machines at once: each change is conditional, under the lock.
 */
export async function advanceAuctions(services: AuctionServices, now = new Date()) {
  const { db } = services;
  const due = await db
    .select({ id: auctions.id })
    .from(auctions)
    .where(
      or(
        and(inArray(auctions.status, ["scheduled", "open"]), lte(auctions.endsAt, now)),
        and(eq(auctions.status, "scheduled"), lte(auctions.startsAt, now)),
      ),
    )
    .limit(200);
  let opened = 0;
  let closed = 0;
  for (const { id } of due) {
    const change = await db.transaction(async (tx) => {
      const [auction] = await tx.select().from(auctions).where(eq(auctions.id, id)).for("update");
      if (!auction) return null;
      const status = statusAt(auction, now);
      if (status === auction.status || (status !== "open" && status !== "closed")) return null;
      await tx
        .update(auctions)
        .set({ status, ...(status === "closed" ? { closedAt: auction.endsAt } : {}), updatedAt: now })
        .where(and(eq(auctions.id, id), eq(auctions.status, auction.status)));
      await logEvent(tx, id, status === "open" ? "opened" : "closed", null);
      await notifyAuction(tx, id);
      return { status, auction };
    });
    if (!change) continue;
    if (change.status === "open") {
      opened += 1;
      await tellOpened(services, change.auction);
    } else {
      closed += 1;
      await tellClosed(services, change.auction);
    }
  }
  return { opened, closed };
}

async function tellClosed(services: AuctionServices, auction: typeof auctions.$inferSelect) {
  const link = auctionLink(services, auction.id);
  const sealed = auction.kind === "sealed";
  const bidders = sealed
    ? await services.db
        .select({ organizationId: sealedBids.organizationId })
        .from(sealedBids)
        .where(eq(sealedBids.auctionId, auction.id))
    : await services.db
        .selectDistinct({ organizationId: auctionBids.organizationId })
        .from(auctionBids)
        .where(eq(auctionBids.auctionId, auction.id));
  const [leader] =
    !sealed && auction.leaderOrganizationId
      ? await services.db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, auction.leaderOrganizationId))
      : [];
  const summary = sealed
    ? bidders.length === 0
      ? "No sealed bid was received."
      : `${bidders.length} sealed ${bidders.length === 1 ? "bid was" : "bids were"} received and can now be opened.`
    : leader && auction.lowestCents !== null
      ? `The lowest bid is ${formatCents(auction.lowestCents)} by ${leader.name}.`
      : "Nobody bid.";
  await notifyOrganizations(services, [auction.organizationId], {
    kind: "closed",
    auctionId: auction.id,
    subject: `Auction closed: ${auction.title}`,
    lines: [
      sealed
        ? `The submission deadline of "${auction.title}" has passed.`
        : `Bidding on "${auction.title}" has closed.`,
      summary,
      "",
      "Review the bids and award the auction here:",
      link,
    ],
  });
  if (sealed && auction.evaluatorOrganizationId) {
    await notifyOrganizations(services, [auction.evaluatorOrganizationId], {
      kind: "closed",
      auctionId: auction.id,
      subject: `Bids to evaluate: ${auction.title}`,
      lines: [`The submission deadline of "${auction.title}" has passed.`, summary, "", link],
    });
  }
  await notifyOrganizations(
    services,
    bidders.map((row) => row.organizationId),
    {
      kind: "closed",
      auctionId: auction.id,
      subject: `Auction closed: ${auction.title}`,
      lines: [
        sealed
          ? `The submission deadline of "${auction.title}" has passed. The buyer will now review the bids.`
          : `Bidding on "${auction.title}" has closed. The buyer will now review the bids.`,
        "",
        link,
      ],
    },
  );
}

/** Each bidder's lowest bid, best first: what the buyer awards from. */
export async function bestBidPerSeller(db: Database, auctionId: number) {
  const rows = await db
    .select({
      bidId: auctionBids.id,
      organizationId: auctionBids.organizationId,
      name: organizations.name,
      amountCents: auctionBids.amountCents,
      rank: auctionBids.rank,
    })
    .from(auctionBids)
    .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
    .where(eq(auctionBids.auctionId, auctionId))
    .orderBy(asc(auctionBids.amountCents), asc(auctionBids.rank), asc(auctionBids.id));
  const best = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if (!best.has(row.organizationId)) best.set(row.organizationId, row);
  return [...best.values()];
}

/** How many auctions each status has for the organization (for the list's filter). */
export async function auctionCounts(db: Database, organizationId: number) {
  const rows = await db
    .select({ status: auctions.status, total: count() })
    .from(auctions)
    .where(eq(auctions.organizationId, organizationId))
    .groupBy(auctions.status);
  return Object.fromEntries(rows.map((row) => [row.status, row.total])) as Partial<Record<AuctionStatus, number>>;
}

/**
 * Opens and closes auctions on time: `advanceAuctions` every few seconds. Runs in the worker process
 * (`npm run worker`); on the embedded database, which has no worker, in the one app process.
 */
export function startAuctionClock(services: AuctionServices, intervalMs = 5_000) {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = advanceAuctions(services)
      .catch((error) => console.error("auction clock:", error))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

const utcMinute = (date: Date) => `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;

/** What accepted bids mean for the other parties: who lost the lead, and whether the end moved. */
export type BidEffects = { previousLeaderId: number | null; leaderId: number | null; extended: boolean; endsAt: Date };

type FoldedEffects = { outbid: Set<number>; extended: boolean; endsAt: Date; waiting: boolean };

/** Per database handle: the auctions whose notices are being sent now, with what came in meanwhile. */
const noticesUnderWay = new WeakMap<Database, Map<number, FoldedEffects>>();

/**
 * Tells the effects of accepted bids in the background (the bid stands whatever happens to the
 * notices). While an auction's notices are being sent, the effects of later bids are folded into one
 * more round: in a bidding war each seller gets one notice per round, not one per bid, and the
 * notice says where the auction stands when it is sent.
 */
export function tellBidEffectsSoon(services: AuctionServices, auctionId: number, effects: BidEffects) {
  const lost =
    effects.previousLeaderId !== null && effects.previousLeaderId !== effects.leaderId
      ? [effects.previousLeaderId]
      : [];
  let underWay = noticesUnderWay.get(services.db);
  if (!underWay) {
    underWay = new Map();
    noticesUnderWay.set(services.db, underWay);
  }
  const running = underWay.get(auctionId);
  if (running) {
    for (const organizationId of lost) running.outbid.add(organizationId);
    running.extended ||= effects.extended;
    if (effects.endsAt > running.endsAt) running.endsAt = effects.endsAt;
    running.waiting = true;
    return;
  }
  const folded: FoldedEffects = {
    outbid: new Set(lost),
    extended: effects.extended,
    endsAt: effects.endsAt,
    waiting: true,
  };
  const auctions = underWay;
  auctions.set(auctionId, folded);
  void (async () => {
    try {
      while (folded.waiting) {
        const round = { outbid: [...folded.outbid], extended: folded.extended, endsAt: folded.endsAt };
        folded.outbid = new Set();
        folded.extended = false;
        folded.waiting = false;
        await tellBidEffects(services, auctionId, round).catch((error) => console.error("bid notices failed:", error));
      }
    } finally {
      auctions.delete(auctionId);
    }
  })();
}

/**
 * After accepted bids: each seller who lost the lead (and has not taken it back) is told it was
 * outbid (the notifications module e-mails at most one such notice per user and auction every five
 * minutes), and when the end moved, the buyer side and the sellers who accepted the terms are told
 * the new end.
 */
export async function tellBidEffects(
  services: AuctionServices,
  auctionId: number,
  effects: { outbid: number[]; extended: boolean; endsAt: Date },
) {
  const [auction] = await services.db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!auction) return;
  const link = auctionLink(services, auctionId);
  const outbid = effects.outbid.filter((organizationId) => organizationId !== auction.leaderOrganizationId);
  if (outbid.length > 0) {
    await notifyOrganizations(services, outbid, {
      kind: "outbid",
      auctionId,
      subject: `Outbid: ${auction.title}`,
      lines: [
        `Another seller now has the lowest bid in "${auction.title}"${auction.lowestCents !== null ? `: ${formatCents(auction.lowestCents)}` : ""}.`,
        `Bidding ends ${utcMinute(auction.endsAt)}.`,
        "",
        link,
      ],
    });
  }
  if (effects.extended) {
    const accepted = await services.db
      .select({ organizationId: auctionInvitations.organizationId })
      .from(auctionInvitations)
      .where(and(eq(auctionInvitations.auctionId, auctionId), isNotNull(auctionInvitations.termsAcceptedAt)));
    await notifyOrganizations(services, [auction.organizationId, ...accepted.map((row) => row.organizationId)], {
      kind: "extended",
      auctionId,
      subject: `Extended: ${auction.title}`,
      lines: [`A late bid moved the end of "${auction.title}" to ${utcMinute(effects.endsAt)}.`, "", link],
    });
  }
}

async function tellOpened(services: AuctionServices, auction: typeof auctions.$inferSelect) {
  const invited = await services.db
    .select({ organizationId: auctionInvitations.organizationId })
    .from(auctionInvitations)
    .where(eq(auctionInvitations.auctionId, auction.id));
  await notifyOrganizations(
    services,
    invited.map((row) => row.organizationId),
    {
      kind: "opened",
      auctionId: auction.id,
      subject: `Bidding is open: ${auction.title}`,
      lines: [
        auction.kind === "sealed"
          ? `Sealed bids for "${auction.title}" are accepted until ${utcMinute(auction.endsAt)}.`
          : `Bidding on "${auction.title}" is open until ${utcMinute(auction.endsAt)}.`,
        "",
        auctionLink(services, auction.id),
      ],
    },
  );
}
