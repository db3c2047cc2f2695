import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Assessment, type Candidate, qualification, rankBids, technicalScore } from "./ranking";

// The evaluation's arithmetic (issue 10): examples of each rule, then properties over random
// criteria, scores and bids.

const criteria = [
  { id: 1, weight: 60 },
  { id: 2, weight: 40 },
];
const scored = (pairs: [number, number][], unacceptable = false): Assessment => ({
  scores: new Map(pairs),
  unacceptable,
});
const bid = (id: number, organizationId: number, amountCents: number, submittedAt = "2026-01-01T00:00:00Z") => ({
  id,
  organizationId,
  amountCents,
  submittedAt,
});

describe("the technical score", () => {
  it("weighs each criterion's score out of 10 into a score out of 100", () => {
    expect(
      technicalScore(
        criteria,
        new Map([
          [1, 10],
          [2, 5],
        ]),
      ),
    ).toBe(80);
    expect(
      technicalScore(
        criteria,
        new Map([
          [1, 7],
          [2, 4],
        ]),
      ),
    ).toBe(58);
    expect(
      technicalScore(
        [
          { id: 1, weight: 1 },
          { id: 2, weight: 2 },
        ],
        new Map([
          [1, 1],
          [2, 0],
        ]),
      ),
    ).toBe(3.3);
  });
  it("is unknown while a criterion is unscored, or without criteria", () => {
    expect(technicalScore(criteria, new Map([[1, 10]]))).toBeNull();
    expect(technicalScore([], new Map())).toBeNull();
  });
});

describe("qualification", () => {
  it("needs every criterion scored, no unacceptable verdict and the pass mark", () => {
    expect(
      qualification(
        criteria,
        scored([
          [1, 9],
          [2, 9],
        ]),
        50,
      ),
    ).toEqual({ qualified: true, technical: 90 });
    expect(qualification(criteria, scored([[1, 9]]), null)).toMatchObject({ qualified: false, reason: "unscored" });
    expect(
      qualification(
        criteria,
        scored(
          [
            [1, 9],
            [2, 9],
          ],
          true,
        ),
        null,
      ),
    ).toMatchObject({
      qualified: false,
      reason: "unacceptable",
    });
    expect(
      qualification(
        criteria,
        scored([
          [1, 4],
          [2, 4],
        ]),
        50,
      ),
    ).toMatchObject({
      qualified: false,
      technical: 40,
      reason: "below-pass-mark",
    });
    expect(
      qualification(
        criteria,
        scored([
          [1, 5],
          [2, 5],
        ]),
        50,
      ),
    ).toMatchObject({ qualified: true });
  });
  it("lets every bid qualify when the auction has no criteria", () => {
    expect(qualification([], undefined, 80)).toEqual({ qualified: true, technical: null });
  });
});

describe("the ranking", () => {
  it("combines price and technical score by the weights: a better proposal can beat a lower price", () => {
    const assessments = new Map([
      [
        10,
        scored([
          [1, 4],
          [2, 4],
        ]),
      ],
      [
        20,
        scored([
          [1, 9],
          [2, 9],
        ]),
      ],
    ]);
    const ranked = rankBids([bid(1, 10, 5_900_000), bid(2, 20, 7_000_000)], criteria, assessments, {
      priceWeightPercent: 60,
      passMark: null,
    });
    // Cheap: 60 % × 100 + 40 % × 40 = 76. Solid: 60 % × 84.3 + 40 % × 90 = 86.6.
    expect(ranked.map((item) => [item.organizationId, item.rank, item.priceScore, item.combined])).toEqual([
      [20, 1, 84.3, 86.6],
      [10, 2, 100, 76],
    ]);
  });
  it("leaves out bids that do not qualify, and prices against the lowest qualified bid", () => {
    const assessments = new Map([
      [
        10,
        scored(
          [
            [1, 9],
            [2, 9],
          ],
          true,
        ),
      ],
      [
        20,
        scored([
          [1, 9],
          [2, 9],
        ]),
      ],
      [
        30,
        scored([
          [1, 2],
          [2, 2],
        ]),
      ],
    ]);
    const ranked = rankBids([bid(1, 10, 100), bid(2, 20, 200), bid(3, 30, 50)], criteria, assessments, {
      priceWeightPercent: 50,
      passMark: 50,
    });
    expect(ranked[0]).toMatchObject({ organizationId: 20, rank: 1, priceScore: 100, qualified: true });
    expect(ranked.slice(1).map((item) => [item.organizationId, item.qualified, item.reason, item.rank])).toEqual([
      [30, false, "below-pass-mark", null],
      [10, false, "unacceptable", null],
    ]);
  });
  it("ranks by price alone without criteria, the earlier bid first at the same price", () => {
    const ranked = rankBids(
      [bid(1, 10, 300), bid(2, 20, 200, "2026-01-02T00:00:00Z"), bid(3, 30, 200, "2026-01-01T00:00:00Z")],
      [],
      new Map(),
      { priceWeightPercent: 40, passMark: 90 },
    );
    expect(ranked.map((item) => item.organizationId)).toEqual([30, 20, 10]);
  });
});

const criteriaArbitrary = fc.uniqueArray(
  fc.record({ id: fc.integer({ min: 1, max: 50 }), weight: fc.integer({ min: 1, max: 100 }) }),
  { minLength: 1, maxLength: 6, selector: (criterion) => criterion.id },
);

const fieldArbitrary = criteriaArbitrary.chain((someCriteria) =>
  fc.record({
    criteria: fc.constant(someCriteria),
    priceWeightPercent: fc.integer({ min: 0, max: 100 }),
    passMark: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    sellers: fc.uniqueArray(
      fc.record({
        organizationId: fc.integer({ min: 1, max: 10_000 }),
        amountCents: fc.integer({ min: 1, max: 10_000_000 }),
        unacceptable: fc.boolean(),
        complete: fc.boolean(),
        scores: fc.array(fc.integer({ min: 0, max: 10 }), {
          minLength: someCriteria.length,
          maxLength: someCriteria.length,
        }),
      }),
      { minLength: 1, maxLength: 8, selector: (seller) => seller.organizationId },
    ),
  }),
);

type Field = {
  criteria: { id: number; weight: number }[];
  priceWeightPercent: number;
  passMark: number | null;
  sellers: {
    organizationId: number;
    amountCents: number;
    unacceptable: boolean;
    complete: boolean;
    scores: number[];
  }[];
};

function fieldToInputs(field: Field) {
  const candidates: Candidate[] = field.sellers.map((seller, index) =>
    bid(index + 1, seller.organizationId, seller.amountCents, `2026-01-01T00:00:${String(index).padStart(2, "0")}Z`),
  );
  const assessments = new Map<number, Assessment>(
    field.sellers.map((seller) => [
      seller.organizationId,
      {
        unacceptable: seller.unacceptable,
        scores: new Map(
          field.criteria.flatMap((criterion, index) =>
            seller.complete || index > 0 ? [[criterion.id, seller.scores[index] ?? 0] as [number, number]] : [],
          ),
        ),
      },
    ]),
  );
  return { candidates, assessments };
}

describe("the ranking, for any criteria, scores and bids", () => {
  it("ranks exactly the qualified bids, 1 to n, each combined score no higher than the one before", () => {
    fc.assert(
      fc.property(fieldArbitrary, (field: Field) => {
        const { candidates, assessments } = fieldToInputs(field);
        const settings = { priceWeightPercent: field.priceWeightPercent, passMark: field.passMark };
        const ranked = rankBids(candidates, field.criteria, assessments, settings);
        expect(ranked).toHaveLength(candidates.length);
        const qualified = ranked.filter((item) => item.qualified);
        for (const item of ranked) {
          const verdict = qualification(field.criteria, assessments.get(item.organizationId), field.passMark);
          expect(item.qualified).toBe(verdict.qualified);
        }
        expect(qualified.map((item) => item.rank)).toEqual(qualified.map((_, index) => index + 1));
        expect(ranked.slice(qualified.length).every((item) => !item.qualified && item.rank === null)).toBe(true);
        for (let index = 1; index < qualified.length; index += 1) {
          expect((qualified[index]?.combined ?? 0) <= (qualified[index - 1]?.combined ?? 0) + 0.1).toBe(true);
        }
        for (const item of qualified) {
          expect(item.priceScore).toBeGreaterThanOrEqual(0);
          expect(item.priceScore).toBeLessThanOrEqual(100);
          expect(item.technical).toBeGreaterThanOrEqual(field.passMark ?? 0);
        }
      }),
    );
  });

  it("with price weight 100 ranks by price; with 0 by technical score", () => {
    fc.assert(
      fc.property(fieldArbitrary, (field: Field) => {
        const { candidates, assessments } = fieldToInputs(field);
        const byPrice = rankBids(candidates, field.criteria, assessments, { priceWeightPercent: 100, passMark: null })
          .filter((item) => item.qualified)
          .map((item) => item.amountCents);
        expect(byPrice).toEqual([...byPrice].sort((a, b) => a - b));
        const byTechnical = rankBids(candidates, field.criteria, assessments, { priceWeightPercent: 0, passMark: null })
          .filter((item) => item.qualified)
          .map((item) => item.technical ?? 0);
        expect(byTechnical).toEqual([...byTechnical].sort((a, b) => b - a));
      }),
    );
  });

  it("never ranks a bid better for asking more, all else equal", () => {
    fc.assert(
      fc.property(fieldArbitrary, fc.nat(), fc.integer({ min: 1, max: 1_000_000 }), (field: Field, pick, raise) => {
        const { candidates, assessments } = fieldToInputs(field);
        const settings = { priceWeightPercent: field.priceWeightPercent, passMark: field.passMark };
        const before = rankBids(candidates, field.criteria, assessments, settings);
        const qualified = before.filter((item) => item.qualified);
        const target = qualified[pick % Math.max(1, qualified.length)];
        if (!target) return;
        const raised = candidates.map((candidate) =>
          candidate.id === target.id ? { ...candidate, amountCents: candidate.amountCents + raise } : candidate,
        );
        const after = rankBids(raised, field.criteria, assessments, settings);
        expect(after.find((item) => item.id === target.id)?.rank ?? 0).toBeGreaterThanOrEqual(target.rank ?? 0);
      }),
    );
  });
});
