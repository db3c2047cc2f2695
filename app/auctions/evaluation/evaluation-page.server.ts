import type { SubmissionResult } from "@conform-to/react";
import { data, type RouterContextProvider, redirect } from "react-router";
import { requireAuction } from "~/auctions/auction-access.server";
import { statusAt } from "~/auctions/auction-rules";
import type { AuctionWithLots } from "~/auctions/auction-views.server";
import { parseSubmission } from "~/forms/parse-submission.server";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { idOf } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import type { Database } from "~db/database.server";
import { lotName } from "../lots/lot-words";
import { sealedSchedules } from "../sealed/sealed-bids.server";
import { assessmentsOf, criteriaOf } from "./assessments.server";
import {
  type AwardCandidate,
  addCriterion,
  completeEvaluation,
  criteriaEditable,
  isEvaluator,
  rankedCandidates,
  rankedLots,
  removeCriterion,
  type Subject,
  saveScoreSheet,
  scoringOpen,
  subjectsOf,
} from "./evaluation.server";
import { evaluationFormSchema, oneEvaluationError, typedValuesShownBack } from "./evaluation-schema";
import { QUALIFICATION_TEXTS, qualification, type Ranked } from "./ranking";

// Loader and action of /auctions/{id}/evaluation. The evaluator changes criteria and scores with
// plain forms (POST/redirect/GET); the buyer's side and staff read it. Sellers get the auction's 404:
// they never see scores. Refusals come back (Conform's reply) with the one message at its field and
// what was typed.

type Context = Readonly<RouterContextProvider>;

const DONE = ["criterion-added", "criterion-removed", "scored", "completed"] as const;
export type EvaluationNotice = (typeof DONE)[number];

async function requireEvaluationReader(request: Request, context: Context, rawId: string | undefined) {
  const found = await requireAuction(request, context, rawId);
  if (found.viewer.kind === "seller") throw data(null, { status: 404 });
  return found;
}

/**
 * "Bid: $5,400.00", or for a sealed bid on several lots (issue 31) each lot's amount with the total:
 * "Bid: $1,400.00 on Lot 1: Hauling, $4,000.00 on Lot 2: Cementing; $5,400.00 in all". Null for a
 * seller who has not bid.
 */
function bidTextOf(subject: Subject, lots: readonly { id: number; position: number; title: string }[]) {
  if (subject.amountCents === null) return null;
  if (lots.length < 2 || !subject.lots) return `Bid: ${formatCents(subject.amountCents)}`;
  const named = lots.flatMap((lot) => {
    const own = subject.lots?.find((row) => row.lotId === lot.id);
    return own ? [`${formatCents(own.amountCents)} on ${lotName(lot)}`] : [];
  });
  return `Bid: ${named.join(", ")}; ${formatCents(subject.amountCents)} in all`;
}

const rankingRow = (row: Ranked<AwardCandidate>) => ({
  id: row.id,
  name: row.name,
  amountCents: row.amountCents,
  technical: row.technical,
  priceScore: row.priceScore,
  combined: row.combined,
  rank: row.rank,
  reason: row.reason ? QUALIFICATION_TEXTS[row.reason] : null,
});

/**
 * The ranking shown once bidding has closed, where the evaluation has criteria: one for an auction of
 * one lot (`lot` null), one per lot for an auction of several (each lot's prices compared on their own).
 */
async function rankingsOf(db: Database, auction: AuctionWithLots, now: Date) {
  const byLot = auction.lots.length > 1 ? await rankedLots(db, auction, now) : null;
  if (byLot) {
    if (!byLot.hasCriteria) return null;
    return byLot.lots.map(({ lot, ranked }) => ({ lot: lotName(lot), rows: ranked.map(rankingRow) }));
  }
  const ranking = await rankedCandidates(db, auction, now);
  return ranking?.hasCriteria ? [{ lot: null, rows: ranking.ranked.map(rankingRow) }] : null;
}

export async function loadEvaluationPage(request: Request, context: Context, rawId: string | undefined) {
  const { auction, viewer } = await requireEvaluationReader(request, context, rawId);
  const { db } = context.get(appServicesContext);
  const now = new Date();
  const [criteria, assessments, subjects, schedules] = await Promise.all([
    criteriaOf(db, auction.id),
    assessmentsOf(db, auction.id),
    subjectsOf(db, auction, now),
    // A sealed auction priced by lines (issue 31): the price schedules side by side, after the deadline only.
    auction.kind === "sealed" ? sealedSchedules(db, auction, now) : null,
  ]);
  const status = statusAt(auction, now);
  const rankings = status === "closed" || status === "awarded" ? await rankingsOf(db, auction, now) : null;
  const params = new URL(request.url).searchParams;
  return {
    auction: {
      id: auction.id,
      title: auction.title,
      kind: auction.kind,
      status,
      priceWeightPercent: auction.priceWeightPercent,
      technicalPassMark: auction.technicalPassMark,
      evaluationCompleted: auction.evaluationCompletedAt !== null,
    },
    canEvaluate: isEvaluator(auction, viewer),
    criteriaEditable: criteriaEditable(auction, now),
    scoringOpen: scoringOpen(auction, now),
    criteria,
    subjects:
      subjects?.map((subject) => {
        const assessment = assessments.get(subject.organizationId);
        const verdict = qualification(criteria, assessment, auction.technicalPassMark);
        return {
          organizationId: subject.organizationId,
          name: subject.name,
          bidText: bidTextOf(subject, auction.lots),
          scores: Object.fromEntries(assessment?.scores ?? []),
          comments: Object.fromEntries(assessment?.comments ?? []),
          unacceptable: assessment?.unacceptable ?? false,
          unacceptableReason: assessment?.unacceptableReason ?? "",
          technical: verdict.technical,
          result: verdict.qualified ? "Qualified" : QUALIFICATION_TEXTS[verdict.reason],
        };
      }) ?? null,
    rankings,
    schedules,
    notice: DONE.find((name) => params.get("done") === name) ?? null,
    scoredName: params.get("seller"),
  };
}

export type EvaluationActionData =
  | {
      /** The server's answer to a form: its one problem, what was typed. */
      result: SubmissionResult<string[]>;
      /** The form it belongs to: the criterion form, a seller's score sheet, or none (form-wide). */
      form?: "criterion" | { organizationId: number };
      confirmComplete?: undefined;
    }
  | {
      result?: undefined;
      form?: undefined /** The question before completing the evaluation. */;
      confirmComplete: true;
    };

export async function submitEvaluationPage(request: Request, context: Context, rawId: string | undefined) {
  const { auction, viewer, user } = await requireEvaluationReader(request, context, rawId);
  const services = context.get(appServicesContext);
  if (!isEvaluator(auction, viewer) || viewer.kind === "staff" || viewer.kind === "seller") {
    throw data(null, { status: 403 });
  }
  const actor = { userId: user.id, organizationId: viewer.organizationId };
  const criteria = await criteriaOf(services.db, auction.id);
  const submission = parseSubmission(await readFormBody(request), { schema: evaluationFormSchema(criteria) });
  const sent = submission.payload;
  const formOf = (): EvaluationActionData["form"] => {
    if (sent.intent === "add-criterion") return "criterion";
    const organizationId = sent.intent === "score" ? idOf(sent.organizationId) : undefined;
    return organizationId ? { organizationId } : undefined;
  };
  /** A refusal, with what was typed shown back trimmed and capped as the page always has. */
  const refuse = (status: number, reply: Parameters<typeof submission.reply>[0] = {}) => {
    const form = formOf();
    const result = submission.reply(form ? reply : { ...reply, hideFields: Object.keys(sent) });
    if (form) result.initialValue = typedValuesShownBack(sent, criteria);
    return data<EvaluationActionData>({ result, form }, { status });
  };
  const page = `/auctions/${auction.id}/evaluation`;

  if (submission.status !== "success") {
    oneEvaluationError(submission.error, criteria);
    return refuse(400);
  }
  const value = submission.value;

  if (value.intent === "add-criterion") {
    const added = await addCriterion(services.db, auction.id, actor, { name: value.name, weight: value.weight });
    if (added.kind === "refused") {
      return refuse(
        added.status,
        added.field === "name" ? { fieldErrors: { name: [added.message] } } : { formErrors: [added.message] },
      );
    }
    return redirect(`${page}?done=criterion-added`);
  }

  if (value.intent === "remove-criterion") {
    const removed = await removeCriterion(services.db, auction.id, actor, value.criterionId);
    if (removed.kind === "refused") return refuse(removed.status, { formErrors: [removed.message] });
    return redirect(`${page}?done=criterion-removed`);
  }

  if (value.intent === "score") {
    const { organizationId, scores, unacceptable, unacceptableReason } = value;
    const saved = await saveScoreSheet(services.db, auction.id, actor, {
      organizationId,
      scores,
      unacceptable,
      unacceptableReason,
    });
    if (saved.kind === "refused") return refuse(saved.status, { formErrors: [saved.message] });
    return redirect(`${page}?done=scored&seller=${organizationId}#seller-${organizationId}`);
  }

  if (!value.confirm) return data<EvaluationActionData>({ confirmComplete: true });
  const completed = await completeEvaluation(services, auction.id, actor);
  if (completed.kind === "refused") return refuse(completed.status, { formErrors: [completed.message] });
  return redirect(`${page}?done=completed`);
}
