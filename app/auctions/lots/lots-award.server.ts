import { asc, eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
import { BUYER_AUCTION_FEE_CENTS } from "~/payments/fees";
import { formatCents } from "~/shared/money";
import type { Database } from "~db/database.server";
import { auctionLots, auctions } from "~db/schema";
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
import { type AuctionRow, statusAt } from "../auction-rules";
import { awardedLotsPhrase } from "../auction-words";
import { EVALUATION_NOT_COMPLETE, invoiceTheAward, NOT_QUALIFIED } from "../award/award.server";
import { rankedLots } from "../evaluation/evaluation.server";
import { QUALIFICATION_TEXTS } from "../evaluation/ranking";
import { compareAwards } from "./lot-award";
import { lotName } from "./lot-words";

// Awarding a lotted auction after its last lot closes (issue 31): each lot to its lowest bid (its
// best-ranked where the evaluation has criteria), or to
// another seller's best bid on it with the reason recorded, or every lot to one seller. Once, in one
// transaction with the auction's buyer fee and its invoice (as a single price's award); each seller
// is told which lots they won.

export const CHOOSE_A_LOT_BID = "Please choose one of this lot's bids";
export const NO_QUALIFIED_BID = "No bid passed the technical evaluation, so there is nothing to award.";

type CandidateBid = { bidId: number; organizationId: number; name: string; amountCents: number; rank: number };

/** Passing over a lot's first bid: the lowest, or the best-ranked where the evaluation has criteria. */
export const passOverLotMessage = (ranked: boolean) =>
  ranked
    ? "Please say why you are passing over the best-ranked bid on this lot"
    : "Please say why you are passing over the lowest bid on this lot";

/**
 * Each lot with its sellers' best bids and what each way of awarding costs. The bids come from the
 * lot-by-lot ranking (`rankedLots`): lowest first, or where the evaluation has criteria in the order
 * of each lot's ranking (price and technical score together, as an auction of one lot is awarded),
 * the sellers it did not qualify left out and listed apart. A sealed auction's bids are read once
 * the deadline has passed (before it every lot has none); its award waits for the evaluation where
 * it has criteria (`evaluationPending`).
 */
export async function lotAwardCandidates(db: Database, auction: AuctionRow, now = new Date()) {
  const lots = await db
    .select()
    .from(auctionLots)
    .where(eq(auctionLots.auctionId, auction.id))
    .orderBy(asc(auctionLots.position));
  const ranking = await rankedLots(db, { ...auction, lots }, now);
  const ranked = Boolean(ranking?.hasCriteria);
  const notQualified = new Map<number, { bidId: number; name: string; reason: string }>();
  const withBids: { lot: (typeof lots)[number]; bids: CandidateBid[] }[] = lots.map((lot, index) => {
    const rows = ranking?.lots[index]?.ranked ?? [];
    for (const row of rows) {
      if (!row.qualified && !notQualified.has(row.organizationId)) {
        const reason = row.reason ? QUALIFICATION_TEXTS[row.reason] : "";
        notQualified.set(row.organizationId, { bidId: row.id, name: row.name, reason });
      }
    }
    const bids = rows
      .filter((row) => row.qualified)
      .map((row, position) => ({
        bidId: row.id,
        organizationId: row.organizationId,
        name: row.name,
        amountCents: row.amountCents,
        rank: position + 1,
      }));
    return { lot, bids };
  });
  const comparison = compareAwards(
    withBids.map(({ lot, bids }) => ({
      lot: lot.id,
      reserve: lot.reserveCents,
      bids: bids.map((bid) => ({ seller: bid.organizationId, amount: bid.amountCents, rank: bid.rank })),
    })),
    ranked ? "ranking" : "lowest",
  );
  const bidders = new Set((ranking?.lots ?? []).flatMap((lot) => lot.ranked.map((row) => row.organizationId)));
  return {
    lots: withBids,
    comparison,
    /** Each lot's first bid is its best-ranked, not its lowest: the evaluation has criteria. */
    ranked,
    /** Everyone who bid on any lot (those not awarded are told so). */
    bidders: [...bidders],
    /** The sellers the evaluation did not qualify: they cannot be awarded. */
    notQualified: [...notQualified.values()],
    evaluationPending: Boolean(auction.kind === "sealed" && ranked && !auction.evaluationCompletedAt),
  };
}

export type LotAwardChoice = { lotId: number; bidId: number; reason?: string };

/** Why a lot's choice is refused, by lot id; none: the choices stand. */
export type LotAwardRefusal = {
  kind: "refused";
  status: 400 | 404 | 409;
  message: string;
  lots?: Record<number, string>;
};

/** Checks the buyer's choices against the lots' bids: every lot with bids chosen, a reason where its first is passed over. */
export function checkLotChoices(
  candidates: Awaited<ReturnType<typeof lotAwardCandidates>>,
  choices: LotAwardChoice[],
): Record<number, string> {
  const problems: Record<number, string> = {};
  const notQualified = new Set(candidates.notQualified.map((row) => row.bidId));
  for (const { lot, bids } of candidates.lots) {
    if (bids.length === 0) continue;
    const choice = choices.find((row) => row.lotId === lot.id);
    const chosen = bids.find((bid) => bid.bidId === choice?.bidId);
    if (!chosen && choice && notQualified.has(choice.bidId)) problems[lot.id] = NOT_QUALIFIED;
    else if (!chosen) problems[lot.id] = CHOOSE_A_LOT_BID;
    else if (chosen.bidId !== bids[0]?.bidId && !choice?.reason?.trim()) {
      problems[lot.id] = passOverLotMessage(candidates.ranked);
    }
  }
  return problems;
}

export async function awardLots(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  choices: LotAwardChoice[],
  now = new Date(),
): Promise<AuctionChange | LotAwardRefusal> {
  const outcome = await services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return refused(404, NOT_FOUND);
    const status = statusAt(auction, now);
    if (status !== "closed") {
      return refused(
        409,
        status === "awarded" ? "This auction has already been awarded." : "An auction is awarded after bidding closes.",
      );
    }
    const candidates = await lotAwardCandidates(tx as unknown as Database, auction, now);
    if (candidates.evaluationPending) return refused(409, EVALUATION_NOT_COMPLETE);
    if (candidates.lots.every(({ bids }) => bids.length === 0)) {
      return refused(409, candidates.notQualified.length > 0 ? NO_QUALIFIED_BID : "Nobody bid on any lot.");
    }
    const problems = checkLotChoices(candidates, choices);
    if (Object.keys(problems).length > 0) {
      return {
        kind: "refused" as const,
        status: 400 as const,
        message: "Please correct the lots below.",
        lots: problems,
      };
    }
    const won = new Map<number, string[]>();
    const awardedLots: Record<string, unknown>[] = [];
    for (const { lot, bids } of candidates.lots) {
      const choice = choices.find((row) => row.lotId === lot.id);
      const chosen = bids.find((bid) => bid.bidId === choice?.bidId);
      if (!chosen) continue;
      const passesOver = chosen.bidId !== bids[0]?.bidId;
      await tx
        .update(auctionLots)
        .set({
          awardedBidId: chosen.bidId,
          awardedOrganizationId: chosen.organizationId,
          awardReason: passesOver ? (choice?.reason?.trim() ?? null) : null,
        })
        .where(eq(auctionLots.id, lot.id));
      won.set(chosen.organizationId, [
        ...(won.get(chosen.organizationId) ?? []),
        `${lotName(lot)}: ${formatCents(chosen.amountCents)}`,
      ]);
      awardedLots.push({
        lotId: lot.id,
        bidId: chosen.bidId,
        organizationId: chosen.organizationId,
        amountCents: chosen.amountCents,
        passedOver: passesOver ? (bids[0]?.bidId ?? null) : null,
        reason: passesOver ? choice?.reason : null,
      });
    }
    await tx
      .update(auctions)
      .set({
        status: "awarded",
        closedAt: auction.closedAt ?? auction.endsAt,
        awardedAt: now,
        awardedByUserId: actor.userId,
        buyerFeeCents: BUYER_AUCTION_FEE_CENTS,
        updatedAt: now,
      })
      .where(eq(auctions.id, auctionId));
    await invoiceTheAward(services, tx, auction, now);
    await logEvent(tx, auctionId, "awarded", actor, { lots: awardedLots, buyerFeeCents: BUYER_AUCTION_FEE_CENTS });
    await notifyAuction(tx, auctionId);
    const link = auctionLink(services, auctionId);
    const kind = kindName(auction);
    for (const [organizationId, lines] of won) {
      await notifyOrganizations(
        services,
        [organizationId],
        {
          kind: "awarded",
          auctionId,
          subject: `You won: ${auction.title}`,
          lines: [
            `The buyer awarded you ${awardedLotsPhrase(lines.length)} of the ${kind} "${auction.title}":`,
            ...lines.map((line) => `- ${line}`),
            "The buyer will contact you about the work.",
            "",
            link,
          ],
        },
        tx,
      );
    }
    const losers = [...new Set(candidates.bidders)].filter((organizationId) => !won.has(organizationId));
    await notifyOrganizations(
      services,
      losers,
      {
        kind: "not-awarded",
        auctionId,
        subject: `Not awarded: ${auction.title}`,
        lines: [`The ${kind} "${auction.title}" has been awarded to other sellers. Thank you for bidding.`, "", link],
      },
      tx,
    );
    return { kind: "done" as const, auctionId };
  });
  return outcome;
}
