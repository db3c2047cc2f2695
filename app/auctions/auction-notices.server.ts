import type { MessageServices } from "~/messaging/messaging.server";

// What every auction e-mail shares: how it names the auction's kind and the link to the auction (a
// time is written with utcMinute, app/shared/dates.ts).

/** How e-mails name the auction's kind. */
export const kindName = (auction: { kind: "reverse" | "sealed" }) =>
  auction.kind === "sealed" ? "sealed-bid auction" : "reverse auction";

export const auctionLink = (services: MessageServices, auctionId: number) =>
  `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auctionId}`;
