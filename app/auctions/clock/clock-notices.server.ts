import { asc, eq, inArray } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { utcMinute } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import { auctionBids, auctionInvitations, auctionLots, type auctions, organizations, sealedBids } from "~db/schema";
import { auctionLink } from "../auction-notices.server";
import { sealedReceivedNotice } from "../auction-words";
import { lotName } from "../lots/lot-words";

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
  const lots = await db
    .select()
    .from(auctionLots)
    .where(eq(auctionLots.auctionId, auction.id))
    .orderBy(asc(auctionLots.position));
  const leaderIds = lots.flatMap((lot) => (lot.leaderOrganizationId ? [lot.leaderOrganizationId] : []));
  const leaders =
    !sealed && leaderIds.length > 0
      ? await db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(inArray(organizations.id, leaderIds))
      : [];
  // Each lot's lowest (issue 31); an auction of one lot says it without the lot's name.
  const lowestOf = (lot: (typeof lots)[number]) => {
    const leader = leaders.find((row) => row.id === lot.leaderOrganizationId);
    return leader && lot.lowestCents !== null ? { cents: lot.lowestCents, name: leader.name } : undefined;
  };
  const lotsSummary =
    lots.length > 1
      ? lots.map((lot) => {
          const lowest = lowestOf(lot);
          return `${lotName(lot)}: ${lowest ? `the lowest bid is ${formatCents(lowest.cents)} by ${lowest.name}.` : "nobody bid."}`;
        })
      : undefined;
  const only = lots[0] ? lowestOf(lots[0]) : undefined;
  const summary: string[] = sealed
    ? [sealedReceivedNotice(bidders.length)]
    : (lotsSummary ?? [only ? `The lowest bid is ${formatCents(only.cents)} by ${only.name}.` : "Nobody bid."]);
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
        ...summary,
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
        lines: [`The submission deadline of "${auction.title}" has passed.`, ...summary, "", link],
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
