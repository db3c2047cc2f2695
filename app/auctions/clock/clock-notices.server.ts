import { eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { utcMinute } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import { auctionBids, auctionInvitations, type auctions, organizations, sealedBids } from "~db/schema";
import { auctionLink } from "../auction-notices.server";

// The notices the clock sends (in the transaction that opens or closes the auction): bidding is open (to the invited sellers), bidding has closed (to the
// buyer side, a sealed auction's evaluator and the bidders).

export async function tellOpened(
  services: MessageServices,
  auction: typeof auctions.$inferSelect,
  db: NoticeExecutor = services.db,
) {
  const invited = await db
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
    db,
  );
}

export async function tellClosed(
  services: MessageServices,
  auction: typeof auctions.$inferSelect,
  db: NoticeExecutor = services.db,
) {
  const link = auctionLink(services, auction.id);
  const sealed = auction.kind === "sealed";
  const bidders = sealed
    ? await db
        .select({ organizationId: sealedBids.organizationId })
        .from(sealedBids)
        .where(eq(sealedBids.auctionId, auction.id))
    : await db
        .selectDistinct({ organizationId: auctionBids.organizationId })
        .from(auctionBids)
        .where(eq(auctionBids.auctionId, auction.id));
  const [leader] =
    !sealed && auction.leaderOrganizationId
      ? await db
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
  await notifyOrganizations(
    services,
    [auction.organizationId],
    {
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
    },
    db,
  );
  if (sealed && auction.evaluatorOrganizationId) {
    await notifyOrganizations(
      services,
      [auction.evaluatorOrganizationId],
      {
        kind: "closed",
        auctionId: auction.id,
        subject: `Bids to evaluate: ${auction.title}`,
        lines: [`The submission deadline of "${auction.title}" has passed.`, summary, "", link],
      },
      db,
    );
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
    db,
  );
}
