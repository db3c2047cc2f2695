import { and, eq, inArray, sql } from "drizzle-orm";
import { type Actor, notifyAuction } from "~/auctions/auction-changes.server";
import { kindName } from "~/auctions/auction-notices.server";
import { type AuctionRow, statusAt, termsEditable } from "~/auctions/auction-rules";
import type { Viewer } from "~/auctions/auction-views.server";
import { bestBidPerSeller } from "~/auctions/bidding/best-bids.server";
import { eligibleSellers } from "~/auctions/invitations/eligibility.server";
import { bidsOnLot, readableSealedBids } from "~/auctions/sealed/sealed-bids.server";
import type { MessageServices } from "~/messaging/messaging.server";
import { notifyOrganizations } from "~/notifications/notifications.server";
import type { Database, Transaction } from "~db/database.server";
import {
  auctionEvents,
  auctionInvitations,
  auctions,
  evaluationCriteria,
  evaluationScores,
  evaluationVerdicts,
  organizations,
} from "~db/schema";
import { evaluatedText } from "../auction-words";
import { assessmentsOf, criteriaOf } from "./assessments.server";
import { type Candidate, type Criterion, rankBids } from "./ranking";

// The technical evaluation (issue 10): the evaluator (the consultant organization named on the
// auction, or the auction's own organization when none is) sets weighted criteria before bids open,
// scores each seller 0 to 10 per criterion with comments, may judge one technically unacceptable,
// and marks the evaluation complete, which tells the buyer. Who is scored: in a sealed auction the
// sellers who sent a bid, only once the bids may be read (after the deadline); in a reverse auction
// the eligible and invited sellers before it opens (pre-qualification: only qualified ones may then
// be invited). Every write is one transaction under the auction's row lock, with its event.

export const MAX_CRITERIA = 20;

export const EVALUATION_MESSAGES = {
  notEvaluator: "Only the evaluator of this auction can change its evaluation.",
  criteriaLocked: "Bidding has started: the criteria can no longer change.",
  tooMany: `An evaluation has at most ${MAX_CRITERIA} criteria.`,
  duplicate: "This auction already has a criterion with that name",
  completed: "The evaluation is complete: its scores can no longer change.",
  notScoreable: "This seller cannot be scored now.",
  noCriteria: "Please add at least one criterion first.",
  incomplete: "Please score every seller on every criterion (or judge them unacceptable) first.",
  notYet: "Bids can be evaluated once the submission deadline has passed.",
} as const;

export type EvaluationChange =
  | { kind: "done" }
  | { kind: "refused"; status: 400 | 403 | 404 | 409; message: string; field?: string };

const refused = (status: 400 | 403 | 404 | 409, message: string, field?: string): EvaluationChange => ({
  kind: "refused",
  status,
  message,
  field,
});

/** Whether this viewer evaluates the auction's bids. */
export function isEvaluator(auction: Pick<AuctionRow, "evaluatorOrganizationId">, viewer: Viewer): boolean {
  if (viewer.kind === "evaluator") return true;
  return viewer.kind === "owner" && auction.evaluatorOrganizationId === null;
}

/** The organization that may evaluate: the named consultant, else the auction's own. */
const evaluatorOrganizationOf = (auction: AuctionRow) => auction.evaluatorOrganizationId ?? auction.organizationId;

/** Criteria may change until bidding starts. */
export const criteriaEditable = (auction: AuctionRow, now: Date) => termsEditable(statusAt(auction, now));

export type Subject = {
  organizationId: number;
  name: string;
  amountCents: number | null;
  /** A sealed bid's amount on each lot it names (issue 31). */
  lots?: { lotId: number; amountCents: number }[];
};

/**
 * Who is scored now. Sealed: the sellers who sent a bid, once the bids may be read (before that,
 * nobody, and nothing of the bids is read). Reverse: before it opens, the eligible and the invited
 * sellers; afterwards, those who bid.
 */
export async function subjectsOf(db: Database, auction: AuctionRow, now = new Date()): Promise<Subject[] | null> {
  if (auction.kind === "sealed") {
    const bids = await readableSealedBids(db, auction, now);
    return (
      bids?.map((bid) => ({
        organizationId: bid.organizationId,
        name: bid.organizationName,
        amountCents: bid.amountCents,
        lots: bid.lots.map((row) => ({ lotId: row.lotId, amountCents: row.amountCents })),
      })) ?? null
    );
  }
  if (criteriaEditable(auction, now)) {
    const [eligible, invited] = await Promise.all([
      eligibleSellers(db, auction),
      db
        .select({ organizationId: auctionInvitations.organizationId, name: organizations.name })
        .from(auctionInvitations)
        .innerJoin(organizations, eq(organizations.id, auctionInvitations.organizationId))
        .where(eq(auctionInvitations.auctionId, auction.id)),
    ]);
    const subjects = new Map<number, Subject>();
    for (const seller of [...invited, ...eligible]) {
      subjects.set(seller.organizationId, {
        organizationId: seller.organizationId,
        name: seller.name,
        amountCents: null,
      });
    }
    return [...subjects.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
  const bids = await bestBidPerSeller(db, auction.id);
  return bids.map((bid) => ({ organizationId: bid.organizationId, name: bid.name, amountCents: bid.amountCents }));
}

/** Whether scores may change now: criteria exist, not completed, and the subjects are open to scoring. */
export function scoringOpen(auction: AuctionRow, now: Date): boolean {
  if (auction.evaluationCompletedAt) return false;
  const status = statusAt(auction, now);
  if (auction.kind === "sealed") return status === "closed";
  return termsEditable(status);
}

/** The auction, locked, when the actor's organization evaluates it; or why not. */
async function lockForEvaluator(tx: Transaction, auctionId: number, actor: Actor) {
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
  if (!auction) return { refusal: refused(404, "This auction does not exist.") };
  if (evaluatorOrganizationOf(auction) !== actor.organizationId) {
    return { refusal: refused(403, EVALUATION_MESSAGES.notEvaluator) };
  }
  return { auction };
}

async function logEvent(tx: Transaction, auctionId: number, kind: string, actor: Actor, data: Record<string, unknown>) {
  await tx.insert(auctionEvents).values({
    auctionId,
    kind,
    userId: actor.userId,
    organizationId: actor.organizationId,
    data,
  });
}

export async function addCriterion(
  db: Database,
  auctionId: number,
  actor: Actor,
  criterion: { name: string; weight: number },
  now = new Date(),
): Promise<EvaluationChange> {
  return db.transaction(async (tx) => {
    const { auction, refusal } = await lockForEvaluator(tx, auctionId, actor);
    if (!auction) return refusal;
    if (!criteriaEditable(auction, now)) return refused(409, EVALUATION_MESSAGES.criteriaLocked);
    const existing = await criteriaOf(tx, auctionId);
    if (existing.length >= MAX_CRITERIA) return refused(409, EVALUATION_MESSAGES.tooMany);
    if (existing.some((row) => row.name.toLowerCase() === criterion.name.toLowerCase())) {
      return refused(400, EVALUATION_MESSAGES.duplicate, "name");
    }
    await tx.insert(evaluationCriteria).values({
      auctionId,
      name: criterion.name,
      weight: criterion.weight,
      sortOrder: existing.length,
    });
    await logEvent(tx, auctionId, "criterion-added", actor, criterion);
    return { kind: "done" };
  });
}

export async function removeCriterion(
  db: Database,
  auctionId: number,
  actor: Actor,
  criterionId: number,
  now = new Date(),
): Promise<EvaluationChange> {
  return db.transaction(async (tx) => {
    const { auction, refusal } = await lockForEvaluator(tx, auctionId, actor);
    if (!auction) return refusal;
    if (!criteriaEditable(auction, now)) return refused(409, EVALUATION_MESSAGES.criteriaLocked);
    const [removed] = await tx
      .delete(evaluationCriteria)
      .where(and(eq(evaluationCriteria.id, criterionId), eq(evaluationCriteria.auctionId, auctionId)))
      .returning({ name: evaluationCriteria.name });
    if (!removed) return refused(404, "This criterion does not exist.");
    await logEvent(tx, auctionId, "criterion-removed", actor, { name: removed.name });
    return { kind: "done" };
  });
}

export type ScoreSheet = {
  organizationId: number;
  /** Per criterion: a score from 0 to 10, or null for not scored yet; and a comment. */
  scores: { criterionId: number; score: number | null; comment: string }[];
  unacceptable: boolean;
  unacceptableReason: string;
};

/** Saves one seller's scores and verdict (replacing what was there). */
export async function saveScoreSheet(
  db: Database,
  auctionId: number,
  actor: Actor,
  sheet: ScoreSheet,
  now = new Date(),
): Promise<EvaluationChange> {
  return db.transaction(async (tx) => {
    const { auction, refusal } = await lockForEvaluator(tx, auctionId, actor);
    if (!auction) return refusal;
    if (auction.evaluationCompletedAt) return refused(409, EVALUATION_MESSAGES.completed);
    if (!scoringOpen(auction, now)) {
      return refused(409, auction.kind === "sealed" ? EVALUATION_MESSAGES.notYet : EVALUATION_MESSAGES.criteriaLocked);
    }
    const subjects = await subjectsOf(tx as unknown as Database, auction, now);
    if (!subjects?.some((subject) => subject.organizationId === sheet.organizationId)) {
      return refused(404, EVALUATION_MESSAGES.notScoreable);
    }
    const criteria = await criteriaOf(tx, auctionId);
    if (criteria.length === 0) return refused(409, EVALUATION_MESSAGES.noCriteria);
    const known = new Set(criteria.map((criterion) => criterion.id));
    if (sheet.scores.some((score) => !known.has(score.criterionId))) {
      return refused(400, "Please score only this auction's criteria.");
    }
    await tx
      .delete(evaluationScores)
      .where(
        and(
          eq(evaluationScores.organizationId, sheet.organizationId),
          inArray(evaluationScores.criterionId, [...known]),
        ),
      );
    const rows = sheet.scores.flatMap((score) =>
      score.score === null
        ? []
        : [
            {
              criterionId: score.criterionId,
              organizationId: sheet.organizationId,
              score: score.score,
              comment: score.comment || null,
              scoredByUserId: actor.userId,
              updatedAt: now,
            },
          ],
    );
    if (rows.length > 0) await tx.insert(evaluationScores).values(rows);
    const verdict = {
      unacceptable: sheet.unacceptable,
      comment: sheet.unacceptable ? sheet.unacceptableReason : null,
      updatedByUserId: actor.userId,
      updatedAt: now,
    };
    await tx
      .insert(evaluationVerdicts)
      .values({ auctionId, organizationId: sheet.organizationId, ...verdict })
      .onConflictDoUpdate({ target: [evaluationVerdicts.auctionId, evaluationVerdicts.organizationId], set: verdict });
    await logEvent(tx, auctionId, "scored", actor, {
      organizationId: sheet.organizationId,
      scored: rows.length,
      unacceptable: sheet.unacceptable,
    });
    await notifyAuction(tx, auctionId);
    return { kind: "done" };
  });
}

/** Marks the evaluation complete once every seller is scored on every criterion or judged unacceptable; tells the buyer. */
export async function completeEvaluation(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  now = new Date(),
): Promise<EvaluationChange> {
  const outcome = await services.db.transaction(async (tx) => {
    const { auction, refusal } = await lockForEvaluator(tx, auctionId, actor);
    if (!auction) return { change: refusal };
    if (auction.evaluationCompletedAt) return { change: refused(409, EVALUATION_MESSAGES.completed) };
    if (auction.kind === "sealed" && statusAt(auction, now) !== "closed") {
      return { change: refused(409, EVALUATION_MESSAGES.notYet) };
    }
    const criteria = await criteriaOf(tx, auctionId);
    if (criteria.length === 0) return { change: refused(409, EVALUATION_MESSAGES.noCriteria) };
    const subjects = (await subjectsOf(tx as unknown as Database, auction, now)) ?? [];
    const assessments = await assessmentsOf(tx, auctionId);
    const unfinished = subjects.filter((subject) => {
      const assessment = assessments.get(subject.organizationId);
      return !assessment?.unacceptable && criteria.some((criterion) => !assessment?.scores.has(criterion.id));
    });
    if (unfinished.length > 0) return { change: refused(409, EVALUATION_MESSAGES.incomplete) };
    await tx
      .update(auctions)
      .set({ evaluationCompletedAt: now, updatedAt: now })
      .where(and(eq(auctions.id, auctionId), sql`${auctions.evaluationCompletedAt} is null`));
    await logEvent(tx, auctionId, "evaluation-completed", actor, { subjects: subjects.length });
    await notifyAuction(tx, auctionId);
    // The buyer's notice is part of the change (the notification row and its queued e-mail).
    await notifyOrganizations(
      services,
      [auction.organizationId],
      {
        kind: "evaluation-complete",
        auctionId,
        subject: `Evaluation complete: ${auction.title}`,
        lines: [
          `The technical evaluation of the ${kindName(auction)} "${auction.title}" is complete ${evaluatedText(subjects.length)}.`,
          "",
          "See the ranking and award the auction here:",
          `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auctionId}/award`,
        ],
      },
      tx,
    );
    return { change: { kind: "done" as const }, auction, subjects: subjects.length };
  });
  return outcome.change;
}

export type AwardCandidate = Candidate & { name: string };

/** A reverse auction's best bid per seller as a candidate: equal amounts, the earlier bid (lower rank) first, as the auction ranks them. */
const reverseCandidate = (bid: Awaited<ReturnType<typeof bestBidPerSeller>>[number]): AwardCandidate => ({
  id: bid.bidId,
  organizationId: bid.organizationId,
  name: bid.name,
  amountCents: bid.amountCents,
  submittedAt: String(bid.rank).padStart(12, "0"),
});

/** Ranks each list of candidates by the auction's criteria, scores and weights (read once). */
async function rankEach(db: Database, auction: AuctionRow, lists: readonly AwardCandidate[][]) {
  const [criteria, assessments] = await Promise.all([criteriaOf(db, auction.id), assessmentsOf(db, auction.id)]);
  const settings = { priceWeightPercent: auction.priceWeightPercent, passMark: auction.technicalPassMark };
  return {
    rankings: lists.map((candidates) => rankBids(candidates, criteria as Criterion[], assessments, settings)),
    hasCriteria: criteria.length > 0,
  };
}

/**
 * The bids the buyer awards from, ranked: a sealed auction's sealed bids (once readable), a reverse
 * auction's best bid per seller. Null for a sealed auction before its deadline.
 */
export async function rankedCandidates(db: Database, auction: AuctionRow, now = new Date()) {
  let candidates: AwardCandidate[];
  if (auction.kind === "sealed") {
    const bids = await readableSealedBids(db, auction, now);
    if (!bids) return null;
    candidates = bids.map((bid) => ({
      id: bid.id,
      organizationId: bid.organizationId,
      name: bid.organizationName,
      amountCents: bid.amountCents,
      submittedAt: bid.updatedAt,
    }));
  } else {
    candidates = (await bestBidPerSeller(db, auction.id)).map(reverseCandidate);
  }
  const { rankings, hasCriteria } = await rankEach(db, auction, [candidates]);
  return { ranked: rankings[0] ?? [], hasCriteria };
}

type LotOfRanking = { id: number; position: number; title: string };

/**
 * An auction ranked lot by lot: on each lot, each seller's bid on that lot (their sealed price for
 * it, or their best bid there), its price score against the lowest qualified price on the same lot,
 * with the seller's one technical score. Totals over different lots are not comparable: a seller who
 * bid on one lot would look the cheapest. Null for a sealed auction before its deadline.
 */
export async function rankedLots(
  db: Database,
  auction: AuctionRow & { lots: readonly LotOfRanking[] },
  now = new Date(),
) {
  let perLot: AwardCandidate[][];
  if (auction.kind === "sealed") {
    const bids = await readableSealedBids(db, auction, now);
    if (!bids) return null;
    perLot = auction.lots.map((lot) =>
      bidsOnLot(bids, lot.id).map(({ bid, own }) => ({
        id: bid.id,
        organizationId: bid.organizationId,
        name: bid.organizationName,
        amountCents: own.amountCents,
        submittedAt: bid.updatedAt,
      })),
    );
  } else {
    const best = await Promise.all(auction.lots.map((lot) => bestBidPerSeller(db, auction.id, lot.id)));
    perLot = best.map((bids) => bids.map(reverseCandidate));
  }
  const { rankings, hasCriteria } = await rankEach(db, auction, perLot);
  return { lots: auction.lots.map((lot, index) => ({ lot, ranked: rankings[index] ?? [] })), hasCriteria };
}
