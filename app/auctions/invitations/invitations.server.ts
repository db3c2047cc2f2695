import { and, eq, sql } from "drizzle-orm";
import { prequalification } from "~/auctions/evaluation/assessments.server";
import type { MessageServices } from "~/messaging/messaging.server";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { sellerMayBid } from "~/payments/subscriptions/standing.server";
import type { Database } from "~db/database.server";
import { auctionInvitations, auctions } from "~db/schema";
import {
  type Actor,
  type AuctionChange,
  lockOwned,
  logEvent,
  NOT_FOUND,
  notifyAuction,
  refused,
  TERMS_LOCKED,
} from "../auction-changes.server";
import { sellerAlias, statusAt, termsEditable } from "../auction-rules";
import { eligibleSellers } from "./eligibility.server";
import { tellInvited } from "./invitation-notices.server";

// Invitations (issue 9): the buyer invites eligible (and, with technical criteria, pre-qualified)
// sellers before bidding starts and may take an invitation back while the auction is a draft; an
// invited seller accepts the auction's terms before bidding.

export const NOT_PREQUALIFIED =
  "Please choose only sellers who passed the technical pre-qualification (see the evaluation page)";

/** Invites sellers (only eligible ones) before bidding starts; each gets the next alias. */
export async function inviteSellers(
  services: MessageServices,
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
      // Invited once published: told in the same transaction.
      if (auction.status === "scheduled") await tellInvited(services, auctionId, fresh, auction, tx);
    }
    return {
      change: { kind: "done" as const, auctionId },
      invited: fresh,
      published: auction.status === "scheduled",
      auction,
    };
  });
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

/** An invited seller accepts the auction's terms (needed before bidding). Once only; later calls change nothing. */
export async function acceptAuctionTerms(db: Database, auctionId: number, actor: Actor, now = new Date()) {
  return db.transaction(async (tx): Promise<AuctionChange> => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId));
    if (!auction || auction.status === "draft") return refused(404, NOT_FOUND);
    const status = statusAt(auction, now);
    if (status !== "scheduled" && status !== "open") return refused(409, "Bidding has closed.");
    // A seller overdue past the grace period (or cancelled) takes on no new auction (issue 19); an
    // invitation accepted before stays accepted.
    const standing = await sellerMayBid(tx, actor.organizationId, now);
    if (!standing.mayBid) {
      const [invitation] = await tx
        .select({ termsAcceptedAt: auctionInvitations.termsAcceptedAt })
        .from(auctionInvitations)
        .where(
          and(eq(auctionInvitations.auctionId, auctionId), eq(auctionInvitations.organizationId, actor.organizationId)),
        );
      if (!invitation) return refused(404, NOT_FOUND);
      if (!invitation.termsAcceptedAt) return refused(403, blockedMessage(standing.reason, "accept"));
    }
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
