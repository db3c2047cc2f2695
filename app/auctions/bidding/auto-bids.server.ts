import { blockedSellers } from "~/payments/subscriptions/standing.server";
import type { Database } from "~db/database.server";
import { auctionAutoBids, auctionEvents } from "~db/schema";
import { setLotAutoBid } from "../lots/lot-bidding";
import { lineRefusalMessage } from "../lots/lot-messages";
import { refusalMessage } from "./bid-messages";
import {
  acceptedOutcome,
  type BidOutcome,
  type Change,
  checkBidder,
  type MinimumRequest,
  NOT_INVITED,
  Round,
  refused,
} from "./bid-round.server";
import { type BiddingState, type NewBid, setAutoBid } from "./bidding";
import { lockAndRead } from "./bidding-read.server";
import { knownStatesOf, lotKey } from "./known-states.server";
import { writeRound } from "./round-write.server";

// A seller's secret minimum (issue 9): set or changed in a transaction that holds the auction's row
// lock, with the automatic bids it sets off; the next round reads the auction again.

/** A minimum on the round's lot: on one amount, or (issue 31) on a lot's total, scaling the seller's latest lines. */
function decideMinimum(
  round: Round,
  request: MinimumRequest,
): { ok: true; outcome: { bids: NewBid[]; state: BiddingState } } | { ok: false; message: string } {
  const { sheet } = round;
  if (!sheet) {
    const outcome = setAutoBid(round.state, request.organizationId, request.minimumCents, round.nextRank);
    return outcome.ok ? { ok: true, outcome } : { ok: false, message: refusalMessage(outcome) };
  }
  const outcome = setLotAutoBid(round.lotState(sheet), request.organizationId, request.minimumCents, round.nextRank);
  if (!outcome.ok) return { ok: false, message: lineRefusalMessage(outcome) };
  sheet.latestUnits = new Map(outcome.state.latestUnits);
  return { ok: true, outcome: { bids: outcome.bids, state: outcome.state.bidding } };
}

export function minimumChange(db: Database, request: MinimumRequest): Promise<BidOutcome> {
  // The auto-bids change: the next round reads them again.
  knownStatesOf(db).delete(lotKey(request));
  return db.transaction(async (tx): Promise<BidOutcome> => {
    const read = await lockAndRead(tx, request.auctionId, request.lotId, [request.organizationId], true);
    if (!read) return refused(404, NOT_INVITED);
    const now = request.now ?? new Date();
    const problem = checkBidder(read, read.auction, read.lot, request.organizationId, now);
    if (problem) return problem;
    // Other sellers' minimums held back by their subscription (issue 19) bid nothing meanwhile.
    const others = read.autoBids.map((autoBid) => autoBid.seller).filter((seller) => seller !== request.organizationId);
    const round = new Round(read, new Set((await blockedSellers(tx, others, now)).keys()));
    const decided = decideMinimum(round, request);
    if (!decided.ok) return refused(400, decided.message, "minimum");
    const { outcome } = decided;
    const entered = outcome.state.autoBids.find((autoBid) => autoBid.seller === request.organizationId);
    if (!entered) throw new Error("the auto-bid was not kept");
    const row = {
      minimumCents: entered.minimum,
      enteredSequence: entered.enteredAt,
      setByUserId: request.userId,
      // The seller's own minimum clears the note of one set on their behalf.
      onBehalfNote: request.onBehalfNote ?? null,
      updatedAt: now,
    };
    const [autoBid] = await tx
      .insert(auctionAutoBids)
      .values({ auctionId: read.auction.id, lotId: read.lot.id, organizationId: request.organizationId, ...row })
      .onConflictDoUpdate({ target: [auctionAutoBids.lotId, auctionAutoBids.organizationId], set: row })
      .returning({ id: auctionAutoBids.id });
    if (!autoBid) throw new Error("no auto-bid row");
    // Private to the seller: the minimum is in the audit trail, never in anything another seller sees.
    await tx.insert(auctionEvents).values({
      auctionId: read.auction.id,
      kind: "auto-bid-set",
      userId: request.userId,
      organizationId: request.organizationId,
      data: {
        autoBidId: autoBid.id,
        lotId: read.lot.id,
        minimumCents: entered.minimum,
        ...(request.onBehalfNote === undefined ? {} : { onBehalf: true, onBehalfNote: request.onBehalfNote }),
      },
      createdAt: now,
    });
    // A minimum set on the seller's behalf: the notice is owed from this transaction's commit on.
    const onBehalf =
      request.onBehalfNote === undefined
        ? undefined
        : {
            sellerId: request.organizationId,
            what: "minimum" as const,
            amountCents: request.minimumCents,
            userId: request.userId,
            note: request.onBehalfNote,
          };
    round.add(outcome.bids, outcome.state, { userId: request.userId, autoBidId: autoBid.id, onBehalf }, now);
    const ids = await writeRound(tx, round, now);
    if (!ids) throw new Error("the auction changed under its row lock");
    return acceptedOutcome(round.changes[0] as Change, ids[0] ?? []);
  });
}
