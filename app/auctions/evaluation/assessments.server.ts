import { asc, eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { evaluationCriteria, evaluationScores, evaluationVerdicts } from "~db/schema";
import { type Assessment, qualification } from "./ranking";

// What the evaluation has recorded for an auction: its criteria and each seller's scores and verdict.
// Kept free of the auction modules so that inviting (pre-qualification) and awarding can both read it.

export type CriterionRow = { id: number; name: string; weight: number };

export async function criteriaOf(db: Pick<Database, "select">, auctionId: number): Promise<CriterionRow[]> {
  return db
    .select({ id: evaluationCriteria.id, name: evaluationCriteria.name, weight: evaluationCriteria.weight })
    .from(evaluationCriteria)
    .where(eq(evaluationCriteria.auctionId, auctionId))
    .orderBy(asc(evaluationCriteria.sortOrder), asc(evaluationCriteria.id));
}

export type SellerAssessment = Assessment & {
  comments: ReadonlyMap<number, string>;
  unacceptableReason: string | null;
};

/** Every seller's scores, comments and verdict for the auction. */
export async function assessmentsOf(
  db: Pick<Database, "select">,
  auctionId: number,
): Promise<Map<number, SellerAssessment>> {
  const [scores, verdicts] = await Promise.all([
    db
      .select({
        criterionId: evaluationScores.criterionId,
        organizationId: evaluationScores.organizationId,
        score: evaluationScores.score,
        comment: evaluationScores.comment,
      })
      .from(evaluationScores)
      .innerJoin(evaluationCriteria, eq(evaluationCriteria.id, evaluationScores.criterionId))
      .where(eq(evaluationCriteria.auctionId, auctionId)),
    db
      .select({
        organizationId: evaluationVerdicts.organizationId,
        unacceptable: evaluationVerdicts.unacceptable,
        comment: evaluationVerdicts.comment,
      })
      .from(evaluationVerdicts)
      .where(eq(evaluationVerdicts.auctionId, auctionId)),
  ]);
  const assessments = new Map<
    number,
    {
      scores: Map<number, number>;
      comments: Map<number, string>;
      unacceptable: boolean;
      unacceptableReason: string | null;
    }
  >();
  const of = (organizationId: number) => {
    let found = assessments.get(organizationId);
    if (!found) {
      found = { scores: new Map(), comments: new Map(), unacceptable: false, unacceptableReason: null };
      assessments.set(organizationId, found);
    }
    return found;
  };
  for (const row of scores) {
    const assessment = of(row.organizationId);
    assessment.scores.set(row.criterionId, row.score);
    if (row.comment) assessment.comments.set(row.criterionId, row.comment);
  }
  for (const row of verdicts) {
    const assessment = of(row.organizationId);
    assessment.unacceptable = row.unacceptable;
    assessment.unacceptableReason = row.comment;
  }
  return assessments;
}

/** Whether a seller passes the pre-qualification of a reverse auction with criteria (used to gate invitations). */
export async function prequalification(
  db: Pick<Database, "select">,
  auction: { id: number; technicalPassMark: number | null },
) {
  const [criteria, assessments] = await Promise.all([criteriaOf(db, auction.id), assessmentsOf(db, auction.id)]);
  return {
    gated: criteria.length > 0,
    verdict: (organizationId: number) =>
      qualification(criteria, assessments.get(organizationId), auction.technicalPassMark),
  };
}
