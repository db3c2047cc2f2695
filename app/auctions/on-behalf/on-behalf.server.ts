import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import type { Database } from "~db/database.server";
import { auctionInvitations, organizations } from "~db/schema";
import type { AuctionRow } from "../auction-rules";
import { tellBidEffectsSoon } from "../bidding/bid-notices.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import { CHOOSE_A_SELLER } from "./on-behalf-schema";

// Bids and minimums entered on an invited seller's behalf (issue 21, decision 020). Nothing here
// decides a bid: the request goes to the auction's queue like the seller's own (bid-queue.server.ts),
// with the note of who phoned, so every rule (terms, time, decrement, reserve, subscription, typo
// guard) is the same. The bid row and the auction's event name who entered it; the seller is told.

/** The invited sellers who may bid: those who accepted the terms (a seller who has not cannot bid). */
export async function sellersWhoMayBid(db: Database, auctionId: number) {
  return db
    .select({ organizationId: auctionInvitations.organizationId, name: organizations.name })
    .from(auctionInvitations)
    .innerJoin(organizations, eq(organizations.id, auctionInvitations.organizationId))
    .where(and(eq(auctionInvitations.auctionId, auctionId), isNotNull(auctionInvitations.termsAcceptedAt)))
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Whether the seller may be chosen: invited, terms accepted. */
export async function sellerMayBeChosen(db: Database, auctionId: number, sellerId: number): Promise<boolean> {
  const sellers = await sellersWhoMayBid(db, auctionId);
  return sellers.some((seller) => seller.organizationId === sellerId);
}

export type OnBehalfRequest = {
  auction: AuctionRow;
  /** The lot (issue 31); none: the auction's first. */
  lotId?: number;
  /** A bid on a lot priced by lines: its unit prices, whose total is `amountCents`. */
  unitCents?: number[];
  /** The consultant, buyer or staff user entering it. */
  userId: number;
  sellerId: number;
  what: "bid" | "minimum";
  amountCents: number;
  confirmed: boolean;
  note: string;
};

export type OnBehalfOutcome =
  | { kind: "accepted" }
  | { kind: "unconfirmed"; referenceCents: number; dropPercent: number }
  | { kind: "refused"; status: number; field: "seller" | "amount" | "form"; message: string };

/**
 * Places the bid or sets the minimum through the auction's queue, as the seller's own would be. The
 * round's own write stores the seller's notice (bid_effects); it is folded before this answers.
 */
export async function enterOnBehalf(services: MessageServices, request: OnBehalfRequest): Promise<OnBehalfOutcome> {
  const { db } = services;
  const { auction } = request;
  if (!(await sellerMayBeChosen(db, auction.id, request.sellerId))) {
    return { kind: "refused", status: 400, field: "seller", message: CHOOSE_A_SELLER };
  }
  const bidder = {
    auctionId: auction.id,
    lotId: request.lotId,
    organizationId: request.sellerId,
    userId: request.userId,
    onBehalfNote: request.note,
  };
  const outcome =
    request.what === "bid"
      ? await placeManualBid(db, {
          ...bidder,
          amountCents: request.amountCents,
          unitCents: request.unitCents,
          confirmed: request.confirmed,
        })
      : await setAutoBidMinimum(db, { ...bidder, minimumCents: request.amountCents });
  if (outcome.kind === "unconfirmed") return outcome;
  if (outcome.kind === "refused") {
    // 404: the invitation went meanwhile (the auction itself was read by the page).
    if (outcome.status === 404) return { kind: "refused", status: 400, field: "seller", message: CHOOSE_A_SELLER };
    const field = outcome.field === "form" ? "form" : "amount";
    return { kind: "refused", status: outcome.status, field, message: outcome.message };
  }
  // The round stored the seller's notice (and any outbid or extension ones) with the bid: told now,
  // or by the sweep if this process stops first (bid-notices.server.ts).
  await tellBidEffectsSoon(services, auction.id);
  return { kind: "accepted" };
}
