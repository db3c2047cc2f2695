import { eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
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
} from "../auction-changes.server";
import { auctionLink, kindName } from "../auction-notices.server";
import { canMove, statusAt } from "../auction-rules";
import { tellInvited } from "../invitations/invitation-notices.server";

// Publishing an auction, taking it back to draft before it opens, and cancelling it (issue 9). Each
// is a conditional update under the auction's row lock and an entry in its event log; the parties
// concerned are e-mailed after the change is committed.

/** Draft → scheduled: it needs invited sellers and an end in the future. Invited sellers are told. */
export async function publishAuction(
  services: MessageServices,
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
    // The notices are part of the publication.
    await tellInvited(
      services,
      auctionId,
      invited.map((row) => row.organizationId),
      auction,
      tx,
    );
    const { evaluatorOrganizationId, title } = auction;
    if (evaluatorOrganizationId !== null) {
      await notifyOrganizations(
        services,
        [evaluatorOrganizationId],
        {
          kind: "invited",
          auctionId,
          subject: `You evaluate: ${title}`,
          lines: [
            `You are named to evaluate the bids of the ${kindName(auction)} "${title}" technically.`,
            "Set the weighted criteria before bidding opens, then score the bids here:",
            `${auctionLink(services, auctionId)}/evaluation`,
          ],
        },
        tx,
      );
    }
    return { change: { kind: "done" as const, auctionId } };
  });
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
  services: MessageServices,
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
    if (status !== "draft" && invited.length > 0) {
      await notifyOrganizations(
        services,
        invited.map((row) => row.organizationId),
        {
          kind: "cancelled",
          auctionId,
          subject: `Auction cancelled: ${auction.title}`,
          lines: [
            `The ${kindName(auction)} "${auction.title}" has been cancelled by the buyer.`,
            "",
            `Reason: ${reason}`,
          ],
        },
        tx,
      );
    }
    return { change: { kind: "done" as const, auctionId } };
  });
  return outcome.change;
}
