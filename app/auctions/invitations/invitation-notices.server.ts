import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { auctionLink, kindName } from "../auction-notices.server";

// The e-mail an invited seller gets once the auction is published (at publication, or when invited later).

export async function tellInvited(
  services: MessageServices,
  auctionId: number,
  organizationIds: number[],
  auction: { title: string; kind: "reverse" | "sealed" },
  executor?: NoticeExecutor,
) {
  const { title } = auction;
  await notifyOrganizations(
    services,
    organizationIds,
    {
      kind: "invited",
      auctionId,
      subject: `You are invited to bid: ${title}`,
      lines: [
        `You are invited to bid in the ${kindName(auction)} "${title}".`,
        "",
        "Read its terms and accept them to bid here:",
        auctionLink(services, auctionId),
      ],
    },
    executor,
  );
}
