import type { MessageServices } from "~/messaging/messaging.server";

// What every auction e-mail shares: how it names the auction's kind, the link to the auction and how
// it writes a time.

/** How e-mails name the auction's kind. */
export const kindName = (auction: { kind: "reverse" | "sealed" }) =>
  auction.kind === "sealed" ? "sealed-bid auction" : "reverse auction";

export const auctionLink = (services: MessageServices, auctionId: number) =>
  `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auctionId}`;

export const utcMinute = (date: Date) => `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;
