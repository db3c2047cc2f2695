// The technical evaluation's arithmetic (issue 10), as pure functions: a seller's technical score
// from weighted criteria, whether a bid qualifies, and the ranking that combines price and technical
// score by the auction's weights. The pages, the invitation gate and the award all use these.

export type Criterion = { id: number; weight: number };
/** A seller's scores (0 to 10) by criterion id, and whether it was judged technically unacceptable. */
export type Assessment = { scores: ReadonlyMap<number, number>; unacceptable: boolean };

/**
 * Σ(weight × score / 10) ÷ Σ weight × 100: from 0 to 100, rounded to one decimal. Null while any
 * criterion is unscored, or when there are no criteria.
 */
export function technicalScore(criteria: readonly Criterion[], scores: ReadonlyMap<number, number>): number | null {
  if (criteria.length === 0) return null;
  let weighted = 0;
  let weights = 0;
  for (const criterion of criteria) {
    const score = scores.get(criterion.id);
    if (score === undefined) return null;
    weighted += criterion.weight * (score / 10);
    weights += criterion.weight;
  }
  return weights === 0 ? null : Math.round((weighted / weights) * 1000) / 10;
}

export type Qualification =
  | { qualified: true; technical: number | null }
  | { qualified: false; technical: number | null; reason: "unscored" | "unacceptable" | "below-pass-mark" };

/**
 * Without criteria every bid qualifies. With them a seller qualifies when scored on every criterion,
 * not judged unacceptable, and (when the auction has one) at or above the pass mark.
 */
export function qualification(
  criteria: readonly Criterion[],
  assessment: Assessment | undefined,
  passMark: number | null,
): Qualification {
  if (criteria.length === 0) return { qualified: true, technical: null };
  const technical = technicalScore(criteria, assessment?.scores ?? new Map());
  if (assessment?.unacceptable) return { qualified: false, technical, reason: "unacceptable" };
  if (technical === null) return { qualified: false, technical, reason: "unscored" };
  if (passMark !== null && technical < passMark) return { qualified: false, technical, reason: "below-pass-mark" };
  return { qualified: true, technical };
}

export const QUALIFICATION_TEXTS = {
  unscored: "Not yet scored on every criterion",
  unacceptable: "Technically unacceptable",
  "below-pass-mark": "Under the technical pass mark",
} as const;

export type Candidate = { id: number; organizationId: number; amountCents: number; submittedAt: string };

export type Ranked<C extends Candidate> = C & {
  technical: number | null;
  /** lowest qualified price ÷ this price × 100, one decimal; null when not qualified. */
  priceScore: number | null;
  /** priceWeight % of the price score plus the rest of the technical score; null when not qualified. */
  combined: number | null;
  qualified: boolean;
  reason?: keyof typeof QUALIFICATION_TEXTS;
  /** 1 for the best-ranked qualified bid; null when not qualified. */
  rank: number | null;
};

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * The qualified bids ranked by combined score (highest first), then price (lowest first), then the
 * earlier submission; the others after them, not ranked. Without criteria the ranking is by price.
 */
export function rankBids<C extends Candidate>(
  candidates: readonly C[],
  criteria: readonly Criterion[],
  assessments: ReadonlyMap<number, Assessment>,
  settings: { priceWeightPercent: number; passMark: number | null },
): Ranked<C>[] {
  const judged = candidates.map((candidate) => ({
    candidate,
    verdict: qualification(criteria, assessments.get(candidate.organizationId), settings.passMark),
  }));
  const qualifiedPrices = judged.filter((item) => item.verdict.qualified).map((item) => item.candidate.amountCents);
  const lowest = qualifiedPrices.length > 0 ? Math.min(...qualifiedPrices) : null;
  const priceWeight = criteria.length === 0 ? 100 : settings.priceWeightPercent;
  const ranked: { item: Ranked<C>; exact: number }[] = [];
  const others: Ranked<C>[] = [];
  for (const { candidate, verdict } of judged) {
    if (!verdict.qualified || lowest === null) {
      others.push({
        ...candidate,
        technical: verdict.technical,
        priceScore: null,
        combined: null,
        qualified: false,
        reason: verdict.qualified ? undefined : verdict.reason,
        rank: null,
      });
      continue;
    }
    const priceScore = (lowest / candidate.amountCents) * 100;
    // The exact value orders the ranking; the rounded one is shown.
    const exact = (priceWeight / 100) * priceScore + ((100 - priceWeight) / 100) * (verdict.technical ?? 0);
    ranked.push({
      item: {
        ...candidate,
        technical: verdict.technical,
        priceScore: oneDecimal(priceScore),
        combined: oneDecimal(exact),
        qualified: true,
        rank: null,
      },
      exact,
    });
  }
  ranked.sort(
    (a, b) =>
      b.exact - a.exact ||
      a.item.amountCents - b.item.amountCents ||
      a.item.submittedAt.localeCompare(b.item.submittedAt) ||
      a.item.id - b.item.id,
  );
  others.sort((a, b) => a.amountCents - b.amountCents || a.id - b.id);
  const qualified = ranked.map(({ item }, index) => ({ ...item, rank: index + 1 }));
  return [...qualified, ...others];
}
