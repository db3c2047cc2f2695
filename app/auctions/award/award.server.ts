import { and, eq, ne } from "drizzle-orm";
import { rankedCandidates } from "~/auctions/evaluation/evaluation.server";
import { markEmailed } from "~/invoices/invoice-delivery.server";
import { invoiceEmail } from "~/invoices/invoice-email";
import { invoiceIssuer } from "~/invoices/invoice-issuer";
import { issueInvoiceForAward } from "~/invoices/invoice-issuing.server";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import type { MessageServices } from "~/messaging/messaging.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
import { BUYER_AUCTION_FEE_CENTS } from "~/payments/fees";
import { formatCents } from "~/shared/money";
import type { Database } from "~db/database.server";
import { auctions } from "~db/schema";
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
import { statusAt } from "../auction-rules";

// Awarding an auction after it closes (issues 9 and 10). The candidates are ranked: by price alone,
// or, when the auction has technical criteria, by the price/technical weights with the bids that did
// not qualify left out. The best-ranked bid wins unless the buyer records why another qualified bid
// does. Once only; the per-auction buyer fee is recorded and invoiced (issue 19: the invoice is issued
// in the same transaction, so an award never stands without its invoice, nor an invoice without it);
// the winner and the others are e-mailed.

export const PASS_OVER_REASON_REQUIRED = "Please say why you are passing over the lowest bid";
export const PASS_OVER_RANKED_REASON_REQUIRED = "Please say why you are passing over the best-ranked bid";
export const EVALUATION_NOT_COMPLETE = "The technical evaluation is not complete yet.";
export const NOT_QUALIFIED = "This bid did not pass the technical evaluation and cannot be awarded";

export const passOverMessage = (hasCriteria: boolean) =>
  hasCriteria ? PASS_OVER_RANKED_REASON_REQUIRED : PASS_OVER_REASON_REQUIRED;

/**
 * The award's buyer fee invoiced in the award's own transaction (issue 19): an award never stands
 * without its invoice. Email Invoice: the PDF goes to the accounting contact through the durable
 * queue, committed with the award; from there the message's own state (/staff/messages) says whether
 * it arrived. Shared by a single price's award and a lotted auction's (issue 31).
 */
export async function invoiceTheAward(
  services: MessageServices,
  tx: Parameters<typeof issueInvoiceForAward>[0],
  auction: Parameters<typeof issueInvoiceForAward>[2],
  now: Date,
) {
  const invoice = await issueInvoiceForAward(tx, services.env, auction, BUYER_AUCTION_FEE_CENTS, now);
  if (invoice.deliveryState === "to_email" && invoice.billToEmail) {
    const email = invoiceEmail(invoice, invoice.pdf, {
      issuer: invoiceIssuer(services.env),
      appUrl: services.env.APP_URL,
    });
    await queueMessage(tx, services.messaging, { channel: "email", kind: "invoice", ...email });
    await markEmailed(tx, invoice.id, now);
  }
}

export async function awardAuction(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  choice: { bidId: number; reason?: string },
  now = new Date(),
): Promise<AuctionChange> {
  const outcome = await services.db.transaction(async (tx) => {
    const auction = await lockOwned(tx, auctionId, actor);
    if (!auction) return { change: refused(404, NOT_FOUND) };
    const status = statusAt(auction, now);
    if (status !== "closed") {
      return {
        change: refused(
          409,
          status === "awarded"
            ? "This auction has already been awarded."
            : "An auction is awarded after bidding closes.",
        ),
      };
    }
    const candidates = await rankedCandidates(tx as unknown as Database, auction, now);
    if (!candidates) return { change: refused(409, "An auction is awarded after bidding closes.") };
    const { ranked, hasCriteria } = candidates;
    if (hasCriteria && auction.kind === "sealed" && !auction.evaluationCompletedAt) {
      return { change: refused(409, EVALUATION_NOT_COMPLETE) };
    }
    const chosen = ranked.find((row) => row.id === choice.bidId);
    if (!chosen) return { change: refused(400, "Please choose one of the bids", "bid") };
    if (!chosen.qualified) return { change: refused(400, NOT_QUALIFIED, "bid") };
    const best = ranked[0];
    const passesOver = chosen.id !== best?.id;
    if (passesOver && !choice.reason) return { change: refused(400, passOverMessage(hasCriteria), "reason") };
    const awarded = await tx
      .update(auctions)
      .set({
        status: "awarded",
        closedAt: auction.closedAt ?? auction.endsAt,
        awardedBidId: chosen.id,
        awardedOrganizationId: chosen.organizationId,
        awardReason: passesOver ? (choice.reason ?? null) : null,
        awardedAt: now,
        awardedByUserId: actor.userId,
        buyerFeeCents: BUYER_AUCTION_FEE_CENTS,
        updatedAt: now,
      })
      .where(and(eq(auctions.id, auctionId), ne(auctions.status, "awarded")))
      .returning({ id: auctions.id });
    // Under the auction's row lock the status was checked above; the guard makes a second award a no-op.
    if (awarded.length === 0) return { change: refused(409, "This auction has already been awarded.") };
    await invoiceTheAward(services, tx, auction, now);
    await logEvent(tx, auctionId, "awarded", actor, {
      bidId: chosen.id,
      organizationId: chosen.organizationId,
      amountCents: chosen.amountCents,
      combined: chosen.combined,
      passedOver: passesOver ? (best?.id ?? null) : null,
      reason: passesOver ? choice.reason : null,
      buyerFeeCents: BUYER_AUCTION_FEE_CENTS,
    });
    await notifyAuction(tx, auctionId);
    // The notices are part of the award (notification rows and their queued e-mails).
    const link = auctionLink(services, auctionId);
    const kind = kindName(auction);
    await notifyOrganizations(
      services,
      [chosen.organizationId],
      {
        kind: "awarded",
        auctionId,
        subject: `You won: ${auction.title}`,
        lines: [
          `Your bid of ${formatCents(chosen.amountCents)} has been awarded the ${kind} "${auction.title}".`,
          "The buyer will contact you about the work.",
          "",
          link,
        ],
      },
      tx,
    );
    await notifyOrganizations(
      services,
      ranked.filter((row) => row.organizationId !== chosen.organizationId).map((row) => row.organizationId),
      {
        kind: "not-awarded",
        auctionId,
        subject: `Not awarded: ${auction.title}`,
        lines: [`The ${kind} "${auction.title}" has been awarded to another seller. Thank you for bidding.`, "", link],
      },
      tx,
    );
    return { change: { kind: "done" as const, auctionId } };
  });
  return outcome.change;
}
