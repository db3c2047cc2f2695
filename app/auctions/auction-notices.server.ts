import type { AppServices } from "~/server/app-context";

// What every auction e-mail shares: the services sending it needs, how it names the auction's kind,
// the link to the auction and how it writes a time.

/** What sending the auction e-mails needs (the worker process has no more than this). */
export type AuctionServices = Pick<AppServices, "db" | "messaging" | "env">;

/** How e-mails name the auction's kind. */
export const kindName = (auction: { kind: "reverse" | "sealed" }) =>
  auction.kind === "sealed" ? "sealed-bid auction" : "reverse auction";

export const auctionLink = (services: AuctionServices, auctionId: number) =>
  `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auctionId}`;

export const utcMinute = (date: Date) => `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;
