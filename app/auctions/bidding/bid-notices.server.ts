import { and, eq, isNotNull } from "drizzle-orm";
import { notifyOrganizations } from "~/notifications/notifications.server";
import { formatCents } from "~/payments/fees";
import type { Database } from "~db/database.server";
import { auctionInvitations, auctions } from "~db/schema";
import { type AuctionServices, auctionLink, utcMinute } from "../auction-notices.server";

// What accepted bids tell the other parties (issue 9): the sellers outbid, and everyone concerned
// when a late bid moved the end.

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
