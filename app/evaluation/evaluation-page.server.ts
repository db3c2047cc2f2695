import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { requireAuction } from "~/auctions/auction-access.server";
import { statusAt } from "~/auctions/auction-rules";
import { DISALLOWED_CHARACTERS, hasDisallowedCharacters, textField } from "~/forms/text-schema";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { assessmentsOf, criteriaOf } from "./assessments.server";
import {
  addCriterion,
  completeEvaluation,
  criteriaEditable,
  isEvaluator,
  rankedCandidates,
  removeCriterion,
  saveScoreSheet,
  scoringOpen,
  subjectsOf,
} from "./evaluation.server";
import { commentFieldId, reasonFieldId, scoreFieldId } from "./evaluation-fields";
import { QUALIFICATION_TEXTS, qualification } from "./ranking";

// Loader and action of /auctions/{id}/evaluation. The evaluator changes criteria and scores with
// plain forms (POST/redirect/GET); the buyer's side and staff read it. Sellers get the auction's 404:
// they never see scores. Refusals come back with the message at the field and what was typed.

type Context = Readonly<RouterContextProvider>;

const DONE = ["criterion-added", "criterion-removed", "scored", "completed"] as const;
export type EvaluationNotice = (typeof DONE)[number];

async function requireEvaluationReader(request: Request, context: Context, rawId: string | undefined) {
  const found = await requireAuction(request, context, rawId);
  if (found.viewer.kind === "seller") throw data(null, { status: 404 });
  return found;
}

export async function loadEvaluationPage(request: Request, context: Context, rawId: string | undefined) {
  const { auction, viewer } = await requireEvaluationReader(request, context, rawId);
  const { db } = context.get(appServicesContext);
  const now = new Date();
  const [criteria, assessments, subjects] = await Promise.all([
    criteriaOf(db, auction.id),
    assessmentsOf(db, auction.id),
    subjectsOf(db, auction, now),
  ]);
  const status = statusAt(auction, now);
  const ranking = status === "closed" || status === "awarded" ? await rankedCandidates(db, auction, now) : null;
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
          ...subject,
          scores: Object.fromEntries(assessment?.scores ?? []),
          comments: Object.fromEntries(assessment?.comments ?? []),
          unacceptable: assessment?.unacceptable ?? false,
          unacceptableReason: assessment?.unacceptableReason ?? "",
          technical: verdict.technical,
          result: verdict.qualified ? "Qualified" : QUALIFICATION_TEXTS[verdict.reason],
        };
      }) ?? null,
    ranking: ranking?.hasCriteria
      ? ranking.ranked.map((row) => ({
          id: row.id,
          name: row.name,
          amountCents: row.amountCents,
          technical: row.technical,
          priceScore: row.priceScore,
          combined: row.combined,
          rank: row.rank,
          reason: row.reason ? QUALIFICATION_TEXTS[row.reason] : null,
        }))
      : null,
    notice: DONE.find((name) => params.get("done") === name) ?? null,
    scoredName: params.get("seller"),
  };
}

const NAME_REQUIRED = "Please name the criterion";
const WEIGHT_MESSAGE = "Please enter the weight as a whole number from 1 to 100";
const SCORE_MESSAGE = "Please enter a whole number from 0 to 10, or leave it empty";
const REASON_REQUIRED = "Please say why the bid is technically unacceptable";

const idText = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

const criterionForm = z.object({
  intent: z.literal("add-criterion"),
  name: textField({ error: NAME_REQUIRED }).min(1, NAME_REQUIRED).max(100, "Please use at most 100 characters"),
  weight: textField({ error: WEIGHT_MESSAGE })
    .regex(/^\d{1,3}$/, WEIGHT_MESSAGE)
    .transform(Number)
    .pipe(z.number().min(1, WEIGHT_MESSAGE).max(100, WEIGHT_MESSAGE)),
});

export type EvaluationActionData = {
  error?: string;
  /** The control the message belongs to (its id on the page). */
  fieldId?: string;
  /** The seller whose score sheet was refused, with what was typed. */
  organizationId?: number;
  typed?: Record<string, string>;
  /** The question before completing the evaluation. */
  confirmComplete?: boolean;
};

/** A refused submission: always a message. */
export type EvaluationRefusal = EvaluationActionData & { error: string };

const refuse = (status: number, body: EvaluationRefusal) => data(body, { status });

export async function submitEvaluationPage(request: Request, context: Context, rawId: string | undefined) {
  const { auction, viewer, user } = await requireEvaluationReader(request, context, rawId);
  const services = context.get(appServicesContext);
  if (!isEvaluator(auction, viewer) || viewer.kind === "staff" || viewer.kind === "seller") {
    throw data(null, { status: 403 });
  }
  const actor = { userId: user.id, organizationId: viewer.organizationId };
  const form = await readFormBody(request);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const page = `/auctions/${auction.id}/evaluation`;
  const intent = text("intent");

  if (intent === "add-criterion") {
    const parsed = criterionForm.safeParse(Object.fromEntries(form));
    const typed = { name: text("name").slice(0, 200), weight: text("weight").slice(0, 20) };
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const onName = issue?.path[0] === "name";
      return refuse(400, {
        error: issue?.message ?? NAME_REQUIRED,
        fieldId: onName ? "criterion-name" : "criterion-weight",
        typed,
      });
    }
    const added = await addCriterion(services.db, auction.id, actor, parsed.data);
    if (added.kind === "refused") {
      return refuse(added.status, {
        error: added.message,
        fieldId: added.field === "name" ? "criterion-name" : undefined,
        typed,
      });
    }
    return redirect(`${page}?done=criterion-added`);
  }

  if (intent === "remove-criterion") {
    const id = idText.safeParse(text("criterionId"));
    if (!id.success) return refuse(400, { error: "Please choose a criterion to remove." });
    const removed = await removeCriterion(services.db, auction.id, actor, id.data);
    if (removed.kind === "refused") return refuse(removed.status, { error: removed.message });
    return redirect(`${page}?done=criterion-removed`);
  }

  if (intent === "score") {
    const organization = idText.safeParse(text("organizationId"));
    if (!organization.success) return refuse(400, { error: "Please choose a seller to score." });
    const organizationId = organization.data;
    const criteria = await criteriaOf(services.db, auction.id);
    const typed: Record<string, string> = {};
    const scores = [];
    let problem: { error: string; fieldId: string } | undefined;
    for (const criterion of criteria) {
      const scoreText = text(`score_${criterion.id}`).trim().slice(0, 20);
      const comment = text(`comment_${criterion.id}`).trim();
      typed[`score_${criterion.id}`] = scoreText;
      typed[`comment_${criterion.id}`] = comment.slice(0, 2000);
      const score = scoreText === "" ? null : /^\d{1,2}$/.test(scoreText) ? Number(scoreText) : Number.NaN;
      if (score !== null && !(score >= 0 && score <= 10)) {
        problem ??= { error: SCORE_MESSAGE, fieldId: scoreFieldId(organizationId, criterion.id) };
      } else if (hasDisallowedCharacters(comment, { multiline: true })) {
        problem ??= { error: DISALLOWED_CHARACTERS, fieldId: commentFieldId(organizationId, criterion.id) };
      } else if (comment.length > 1000) {
        problem ??= {
          error: "Please use at most 1000 characters",
          fieldId: commentFieldId(organizationId, criterion.id),
        };
      }
      scores.push({ criterionId: criterion.id, score, comment });
    }
    const unacceptable = text("unacceptable") === "yes";
    const unacceptableReason = text("unacceptable_reason").trim();
    typed.unacceptable = unacceptable ? "yes" : "";
    typed.unacceptable_reason = unacceptableReason.slice(0, 2000);
    if (!problem && hasDisallowedCharacters(unacceptableReason, { multiline: true })) {
      problem = { error: DISALLOWED_CHARACTERS, fieldId: reasonFieldId(organizationId) };
    } else if (!problem && unacceptable && unacceptableReason === "") {
      problem = { error: REASON_REQUIRED, fieldId: reasonFieldId(organizationId) };
    } else if (!problem && unacceptableReason.length > 1000) {
      problem = { error: "Please use at most 1000 characters", fieldId: reasonFieldId(organizationId) };
    }
    if (problem) return refuse(400, { ...problem, organizationId, typed });
    const saved = await saveScoreSheet(services.db, auction.id, actor, {
      organizationId,
      scores,
      unacceptable,
      unacceptableReason,
    });
    if (saved.kind === "refused") return refuse(saved.status, { error: saved.message, organizationId, typed });
    return redirect(`${page}?done=scored&seller=${organizationId}#seller-${organizationId}`);
  }

  if (intent === "complete") {
    if (text("confirm") !== "yes") return { confirmComplete: true } satisfies EvaluationActionData;
    const completed = await completeEvaluation(services, auction.id, actor);
    if (completed.kind === "refused") return refuse(completed.status, { error: completed.message });
    return redirect(`${page}?done=completed`);
  }

  return refuse(400, { error: "Please choose what to do." });
}
