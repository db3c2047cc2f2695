import { and, asc, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { type NoticeExecutor, notifyOrganizations } from "~/notifications/notifications.server";
import { logger } from "~/platform/logger.server";
import { startPeriodic } from "~/platform/periodic.server";
import { utcMinute } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import type { Database } from "~db/database.server";
import { auctionInvitations, auctionLots, auctions, bidEffects } from "~db/schema";
import { auctionLink } from "../auction-notices.server";
import { lotOfAuction } from "../lots/lot-words";
import { tellSellerOnBehalf } from "../on-behalf/on-behalf-notice.server";

// What accepted bids tell the other parties (issue 9): the sellers outbid, and everyone concerned
// when a late bid moved the end. Durable (issue 19, decision 016): each round's guarded write stores
// what it means in `bid_effects` (round-write.server.ts), the bids and minimums entered on a seller's
// behalf among it (issue 21), and a fold claims an auction's pending rows,
// writes the notices (notification rows and queued e-mails) and deletes the rows in ONE transaction.
// The process that took the bid folds at once after the commit; a sweep (at start and every 30 s, in
// every app process and the worker) folds what a crash or a stopped process left.

/** Rows left longer than this are the sweep's: younger ones are being folded by the process that wrote them. */
export const BID_EFFECTS_SWEEP_AGE_MS = 10_000;
const SWEEP_INTERVAL_MS = 30_000;
/** At most this many auctions per sweep pass (the next pass takes the rest). */
const SWEEP_BATCH = 100;

type Folding = { running: Promise<void>; again: boolean };

/** Per database handle: the auctions being folded in this process now. */
const foldsUnderWay = new WeakMap<Database, Map<number, Folding>>();

/**
 * Claims the auction's pending effects (rows another process is folding are skipped), folds them and
 * tells them: each seller who lost the lead in one of them and has not taken it back is told once, and
 * when the end moved the parties are told the latest end. The notices and the rows' deletion commit
 * together: a crash before the commit leaves the rows for the next fold, after it nothing is owed.
 * Answers whether there was anything to fold.
 */
export async function foldBidEffects(services: MessageServices, auctionId: number): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(bidEffects)
      .where(eq(bidEffects.auctionId, auctionId))
      .orderBy(asc(bidEffects.id))
      .for("update", { skipLocked: true });
    if (rows.length === 0) return false;
    // Folded lot by lot: a seller outbid on one lot may lead another.
    for (const lotId of new Set(rows.map((row) => row.lotId))) {
      const outbid = new Set<number>();
      let extended = false;
      let endsAt: Date | undefined;
      for (const row of rows.filter((row) => row.lotId === lotId)) {
        for (const organizationId of row.outbidOrganizationIds) outbid.add(organizationId);
        extended ||= row.extended;
        if (!endsAt || row.endsAt > endsAt) endsAt = row.endsAt;
      }
      await tellBidEffects(services, auctionId, lotId, { outbid: [...outbid], extended, endsAt: endsAt as Date }, tx);
    }
    // Each bid or minimum entered on a seller's behalf is told on its own, in the order entered.
    // On an auction of several lots, the notice names the lot (issue 31).
    const onBehalf = rows.flatMap((row) => row.onBehalf.map((effect) => ({ effect, lotId: row.lotId })));
    if (onBehalf.length > 0) {
      const [auction] = await tx
        .select({ id: auctions.id, title: auctions.title })
        .from(auctions)
        .where(eq(auctions.id, auctionId));
      const lots = await tx
        .select({ id: auctionLots.id, position: auctionLots.position, title: auctionLots.title })
        .from(auctionLots)
        .where(eq(auctionLots.auctionId, auctionId));
      if (auction) {
        for (const { effect, lotId } of onBehalf) {
          const lot = lots.find((row) => row.id === lotId);
          const named = lot ? lotOfAuction(auction.title, lot, lots.length) : `"${auction.title}"`;
          await tellSellerOnBehalf(services, { ...auction, named }, effect, tx);
        }
      }
    }
    // Deleted rather than marked: the notifications and the auction's events are the record, and a
    // table of pending rows only stays a few rows long without a clean-up job.
    await tx.delete(bidEffects).where(
      inArray(
        bidEffects.id,
        rows.map((row) => row.id),
      ),
    );
    return true;
  });
}

/**
 * Folds the auction's effects in the background, after a commit that stored some (the bid stands
 * whatever happens to the notices; the sweep takes what this leaves). While a fold is under way in
 * this process, the rounds that commit meanwhile are folded into one more: in a bidding war each
 * seller gets one notice per fold, not one per bid, and the notice says where the auction stands when
 * it is sent. Resolves when this process's folds of the auction are done.
 */
export function tellBidEffectsSoon(services: MessageServices, auctionId: number): Promise<void> {
  let underWay = foldsUnderWay.get(services.db);
  if (!underWay) {
    underWay = new Map();
    foldsUnderWay.set(services.db, underWay);
  }
  const folds = underWay;
  const running = folds.get(auctionId);
  if (running) {
    running.again = true;
    return running.running;
  }
  const folding: Folding = { running: Promise.resolve(), again: true };
  folding.running = (async () => {
    try {
      while (folding.again) {
        folding.again = false;
        await foldBidEffects(services, auctionId).catch((error) => logger.error({ err: error }, "bid notices failed"));
      }
    } finally {
      folds.delete(auctionId);
    }
  })();
  folds.set(auctionId, folding);
  return folding.running;
}

/**
 * Folds every auction's effects stored before `before` (by default, old enough that the process that
 * wrote them should have folded them): what a crash, or a process stopped between a bid's commit and
 * its notices, left. Safe on several machines at once (the claim skips locked rows). Answers how many
 * auctions it looked at.
 */
export async function sweepBidEffects(
  services: MessageServices,
  before = new Date(Date.now() - BID_EFFECTS_SWEEP_AGE_MS),
): Promise<number> {
  const pending = await services.db
    .selectDistinct({ auctionId: bidEffects.auctionId })
    .from(bidEffects)
    .where(lt(bidEffects.createdAt, before))
    .limit(SWEEP_BATCH);
  for (const { auctionId } of pending) await tellBidEffectsSoon(services, auctionId);
  return pending.length;
}

/** The sweep at start and on a timer (every app process and the worker). Stopping waits for the pass under way. */
export function startBidEffectsSweep(services: MessageServices, intervalMs = SWEEP_INTERVAL_MS) {
  const sweep = startPeriodic("bid notices sweep", () => sweepBidEffects(services), intervalMs);
  return {
    async stop() {
      await sweep.stop();
      await Promise.all([...(foldsUnderWay.get(services.db)?.values() ?? [])].map((folding) => folding.running));
    },
  };
}

/**
 * After accepted bids: each seller who lost the lead (and has not taken it back) is told it was
 * outbid (the notifications module e-mails at most one such notice per user and auction every five
 * minutes), and when the end moved, the buyer side and the sellers who accepted the terms are told
 * the new end. Given `executor`, the notices are part of that transaction.
 */
export async function tellBidEffects(
  services: MessageServices,
  auctionId: number,
  lotId: number,
  effects: { outbid: number[]; extended: boolean; endsAt: Date },
  executor: NoticeExecutor = services.db,
) {
  const [auction] = await executor.select().from(auctions).where(eq(auctions.id, auctionId));
  const lots = await executor
    .select()
    .from(auctionLots)
    .where(eq(auctionLots.auctionId, auctionId))
    .orderBy(asc(auctionLots.position));
  const lot = lots.find((row) => row.id === lotId);
  if (!auction || !lot) return;
  const link = auctionLink(services, auctionId);
  const named = lotOfAuction(auction.title, lot, lots.length);
  const outbid = effects.outbid.filter((organizationId) => organizationId !== lot.leaderOrganizationId);
  if (outbid.length > 0) {
    await notifyOrganizations(
      services,
      outbid,
      {
        kind: "outbid",
        auctionId,
        subject: `Outbid: ${auction.title}`,
        lines: [
          // Ranks only (issue 31): the price is not the seller's to know.
          `Another seller now has the lowest bid in ${named}${lot.lowestCents !== null && auction.sellerView !== "rank" ? `: ${formatCents(lot.lowestCents)}` : ""}.`,
          `Bidding ends ${utcMinute(lot.endsAt)}.`,
          "",
          link,
        ],
      },
      executor,
    );
  }
  if (effects.extended) {
    const accepted = await executor
      .select({ organizationId: auctionInvitations.organizationId })
      .from(auctionInvitations)
      .where(and(eq(auctionInvitations.auctionId, auctionId), isNotNull(auctionInvitations.termsAcceptedAt)));
    await notifyOrganizations(
      services,
      [auction.organizationId, ...accepted.map((row) => row.organizationId)],
      {
        kind: "extended",
        auctionId,
        subject: `Extended: ${auction.title}`,
        lines: [`A late bid moved the end of ${named} to ${utcMinute(effects.endsAt)}.`, "", link],
      },
      executor,
    );
  }
}
