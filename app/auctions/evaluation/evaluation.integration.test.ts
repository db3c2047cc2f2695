import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import {
  auctionBidRequirements,
  auctions,
  evaluationCriteria,
  evaluationScores,
  notifications,
  sealedBids,
} from "~db/schema";
import {
  auctionRow,
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  offering,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// The technical evaluation (issue 10) as browsers without JavaScript use it: the named consultant
// sets criteria before bidding opens and scores the sealed bids after the deadline; the buyer reads
// and awards by the ranking; staff read; sellers see nothing. In a reverse auction the same
// evaluation gates which sellers may be invited.

describe.each(databaseKinds)("technical evaluation on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let consultant: Party;
  let alpha: Party;
  let bravo: Party;
  let charlie: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Evaluated Energy Ltd.");
    consultant = await createBuyer(db, "Scoring Consultants Inc.", 4);
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Scored Ltd.", ...offers });
    bravo = await createSeller(db, { name: "Bravo Scored Inc.", ...offers });
    charlie = await createSeller(db, { name: "Charlie Scored Co.", ...offers });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, consultant, alpha, bravo, charlie]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const page = (auctionId: number) => `/auctions/${auctionId}/evaluation`;

  /** A scheduled sealed auction (opens in an hour) evaluated by the consultant, Alpha, Bravo and Charlie invited. */
  async function scheduledSealedAuction() {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      serviceId: catalogue.serviceId,
      serviceAreaId: catalogue.serviceAreaId,
      kind: "sealed",
      status: "scheduled",
      startsAt: new Date(Date.now() + 3_600_000),
      endsAt: new Date(Date.now() + 7_200_000),
      reserveCents: 10_000_000,
      evaluatorOrganizationId: consultant.organizationId,
      priceWeightPercent: 60,
      technicalPassMark: 50,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo, charlie],
    });
    await db().insert(auctionBidRequirements).values({ auctionId: auction.id, name: "Proposal", sortOrder: 0 });
    return auction;
  }

  /** Sealed bids written straight to the table, then the deadline moved into the past. */
  async function bidsInAndDeadlinePassed(auctionId: number, amounts: [Party, number][]) {
    for (const [party, amountCents] of amounts) {
      await db().insert(sealedBids).values({ auctionId, organizationId: party.organizationId, amountCents });
    }
    await moveAuctionTimes(db(), auctionId, {
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 1_000),
    });
    await db().update(auctions).set({ status: "closed" }).where(eq(auctions.id, auctionId));
  }

  const criteriaOf = (auctionId: number) =>
    db().select().from(evaluationCriteria).where(eq(evaluationCriteria.auctionId, auctionId));

  function scoreForm(organizationId: number, scores: Record<number, string>, extra: Record<string, string> = {}) {
    const form: Record<string, string> = { intent: "score", organizationId: String(organizationId), ...extra };
    for (const [criterionId, score] of Object.entries(scores)) form[`score_${criterionId}`] = score;
    return form;
  }

  it("lets only the evaluator set criteria, before bidding opens, with messages at the fields", async () => {
    const auction = await scheduledSealedAuction();
    const evaluator = as(consultant);
    expect((await evaluator.request(page(auction.id))).status).toBe(200);
    const noWeight = await evaluator.request(page(auction.id), {
      form: { intent: "add-criterion", name: "Safety record", weight: "lots" },
    });
    expect(noWeight.status).toBe(400);
    const noWeightHtml = await noWeight.text();
    expectIn(noWeightHtml, "Please enter the weight as a whole number from 1 to 100");
    expectIn(noWeightHtml, 'value="Safety record"');
    for (const [name, weight] of [
      ["Safety record", "60"],
      ["Method", "40"],
    ] as const) {
      const added = await evaluator.request(page(auction.id), { form: { intent: "add-criterion", name, weight } });
      expect(added.status).toBe(302);
    }
    const duplicate = await evaluator.request(page(auction.id), {
      form: { intent: "add-criterion", name: "safety RECORD", weight: "5" },
    });
    expect(duplicate.status).toBe(400);
    expectIn(await duplicate.text(), "This auction already has a criterion with that name");
    expect(await criteriaOf(auction.id)).toHaveLength(2);

    // The buyer (a consultant is named) and staff read; a seller gets the auction's 404.
    expectIn(await (await as(buyer).request(page(auction.id))).text(), "Safety record");
    const buyerPost = await as(buyer).request(page(auction.id), {
      form: { intent: "add-criterion", name: "Price", weight: "5" },
    });
    expect(buyerPost.status).toBe(403);
    expect((await as("staff").request(page(auction.id))).status).toBe(200);
    expect(
      (await as("staff").request(page(auction.id), { form: { intent: "add-criterion", name: "X", weight: "5" } }))
        .status,
    ).toBe(403);
    expect((await as(alpha).request(page(auction.id))).status).toBe(404);

    // Once bidding opens the criteria are fixed.
    await db()
      .update(auctions)
      .set({ startsAt: new Date(Date.now() - 1_000) })
      .where(eq(auctions.id, auction.id));
    const late = await evaluator.request(page(auction.id), {
      form: { intent: "add-criterion", name: "Schedule", weight: "10" },
    });
    expect(late.status).toBe(409);
    expectIn(await late.text(), "Bidding has started: the criteria can no longer change.");
    const [first] = await criteriaOf(auction.id);
    const remove = await evaluator.request(page(auction.id), {
      form: { intent: "remove-criterion", criterionId: String(first?.id) },
    });
    expect(remove.status).toBe(409);
  });

  it("scores sealed bids only after the deadline, completes, and the buyer awards by the ranking", async () => {
    const auction = await scheduledSealedAuction();
    const evaluator = as(consultant);
    for (const [name, weight] of [
      ["Safety record", "50"],
      ["Method", "50"],
    ] as const) {
      await evaluator.request(page(auction.id), { form: { intent: "add-criterion", name, weight } });
    }
    const [safety, method] = await criteriaOf(auction.id);
    if (!safety || !method) throw new Error("no criteria");
    // Bids sent, deadline not passed: nobody sees who bid or for how much, and nothing can be scored.
    await db()
      .insert(sealedBids)
      .values({ auctionId: auction.id, organizationId: alpha.organizationId, amountCents: 5_900_000 });
    await db()
      .update(auctions)
      .set({ status: "open", startsAt: new Date(Date.now() - 60_000) })
      .where(eq(auctions.id, auction.id));
    for (const reader of [buyer, consultant, "staff"] as const) {
      const html = await (await as(reader).request(page(auction.id))).text();
      expectNotIn(html, "Alpha Scored Ltd.");
      expectNotIn(html, "$59,000.00");
      expectIn(html, "Bids stay sealed until the submission deadline");
    }
    const early = await evaluator.request(page(auction.id), {
      form: scoreForm(alpha.organizationId, { [safety.id]: "5", [method.id]: "5" }),
    });
    expect(early.status).toBe(409);
    await db().delete(sealedBids).where(eq(sealedBids.auctionId, auction.id));

    await bidsInAndDeadlinePassed(auction.id, [
      [alpha, 5_900_000],
      [bravo, 7_000_000],
      [charlie, 6_500_000],
    ]);
    // A score out of range is refused at its field, what was typed kept, nothing saved.
    const outOfRange = await evaluator.request(page(auction.id), {
      form: scoreForm(
        alpha.organizationId,
        { [safety.id]: "11", [method.id]: "4" },
        { [`comment_${method.id}`]: "Vague" },
      ),
    });
    expect(outOfRange.status).toBe(400);
    const outOfRangeHtml = await outOfRange.text();
    expectIn(outOfRangeHtml, "Please enter a whole number from 0 to 10, or leave it empty");
    expectIn(outOfRangeHtml, 'value="11"');
    expectIn(outOfRangeHtml, "Vague");
    expect(
      await db().select().from(evaluationScores).where(eq(evaluationScores.organizationId, alpha.organizationId)),
    ).toHaveLength(0);
    const noReason = await evaluator.request(page(auction.id), {
      form: scoreForm(charlie.organizationId, { [safety.id]: "9", [method.id]: "9" }, { unacceptable: "yes" }),
    });
    expect(noReason.status).toBe(400);
    expectIn(await noReason.text(), "Please say why the bid is technically unacceptable");

    // Alpha 5/10 (cheapest, just at the pass mark of 50), Bravo 9/10, Charlie unacceptable.
    for (const [party, score, extra] of [
      [alpha, "5", {}],
      [bravo, "9", {}],
      [charlie, "9", { unacceptable: "yes", unacceptable_reason: "No H2S certification" }],
    ] as const) {
      const saved = await evaluator.request(page(auction.id), {
        form: scoreForm(party.organizationId, { [safety.id]: score, [method.id]: score }, extra),
      });
      expect(saved.status).toBe(302);
    }
    // A seller never sees scores; the buyer cannot award before the evaluation is complete.
    expect((await as(bravo).request(page(auction.id))).status).toBe(404);
    const award = `/auctions/${auction.id}/award`;
    const bravoBid = (
      await db().select().from(sealedBids).where(eq(sealedBids.organizationId, bravo.organizationId))
    )[0];
    const alphaBid = (
      await db().select().from(sealedBids).where(eq(sealedBids.organizationId, alpha.organizationId))
    )[0];
    const charlieBid = (
      await db().select().from(sealedBids).where(eq(sealedBids.organizationId, charlie.organizationId))
    )[0];
    expectIn(await (await as(buyer).request(award)).text(), "The technical evaluation is not complete yet");
    const tooSoon = await as(buyer).request(award, { form: { bid: String(bravoBid?.id), confirm: "yes" } });
    expect(tooSoon.status).toBe(409);

    const question = await evaluator.request(page(auction.id), { form: { intent: "complete" } });
    expect(question.status).toBe(200);
    expectIn(await question.text(), "Yes, mark it complete");
    const completed = await evaluator.request(page(auction.id), { form: { intent: "complete", confirm: "yes" } });
    expect(completed.status).toBe(302);
    expect((await auctionRow(db(), auction.id)).evaluationCompletedAt).not.toBeNull();
    const told = await db().select().from(notifications).where(eq(notifications.auctionId, auction.id));
    expect(told.some((row) => row.kind === "evaluation-complete" && row.userId === buyer.userId)).toBe(true);
    const locked = await evaluator.request(page(auction.id), {
      form: scoreForm(alpha.organizationId, { [safety.id]: "10", [method.id]: "10" }),
    });
    expect(locked.status).toBe(409);

    // The ranking: Bravo (60 % × 84.3 + 40 % × 90 = 86.6) over Alpha (60 % × 100 + 40 % × 50 = 80); Charlie out.
    const awardHtml = await (await as(buyer).request(award)).text();
    expectIn(awardHtml, "Bravo Scored Inc.: $70,000.00 (best-ranked)");
    expectIn(awardHtml, "Not ranked: Technically unacceptable");
    const unqualified = await as(buyer).request(award, { form: { bid: String(charlieBid?.id) } });
    expect(unqualified.status).toBe(400);
    expectIn(await unqualified.text(), "This bid did not pass the technical evaluation and cannot be awarded");
    const passOver = await as(buyer).request(award, { form: { bid: String(alphaBid?.id) } });
    expect(passOver.status).toBe(400);
    const passOverHtml = await passOver.text();
    expectIn(passOverHtml, "Please say why you are passing over the best-ranked bid");
    const awarded = await as(buyer).request(award, { form: { bid: String(bravoBid?.id), confirm: "yes" } });
    expect(awarded.status).toBe(302);
    expect(await auctionRow(db(), auction.id)).toMatchObject({
      status: "awarded",
      awardedBidId: bravoBid?.id,
      awardedOrganizationId: bravo.organizationId,
      awardReason: null,
    });
    expectIn(await (await as(bravo).request(`/auctions/${auction.id}`)).text(), "You won this auction");
  });

  it("gates a reverse auction's invitations on pre-qualification", async () => {
    const draft = await createAuctionRow(db(), {
      owner: buyer,
      serviceId: catalogue.serviceId,
      serviceAreaId: catalogue.serviceAreaId,
      status: "draft",
      startsAt: new Date(Date.now() + 3_600_000),
      endsAt: new Date(Date.now() + 7_200_000),
      technicalPassMark: 60,
    });
    // No consultant named: the buyer evaluates.
    const owner = as(buyer);
    await owner.request(page(draft.id), { form: { intent: "add-criterion", name: "Fleet", weight: "1" } });
    const [fleet] = await criteriaOf(draft.id);
    if (!fleet) throw new Error("no criterion");
    expectIn(await (await owner.request(page(draft.id))).text(), "Alpha Scored Ltd.");
    for (const [party, score] of [
      [alpha, "8"],
      [bravo, "3"],
    ] as const) {
      const saved = await owner.request(page(draft.id), {
        form: scoreForm(party.organizationId, { [fleet.id]: score }),
      });
      expect(saved.status).toBe(302);
    }
    const sellersPage = await (await owner.request(`/auctions/${draft.id}/sellers`)).text();
    expectIn(sellersPage, "technically qualified (80)");
    expectIn(sellersPage, "Under the technical pass mark");
    const refused = await owner.request(`/auctions/${draft.id}/sellers`, {
      form: new URLSearchParams([["sellers", String(bravo.organizationId)]]),
    });
    expect(refused.status).toBe(400);
    expectIn(await refused.text(), "passed the technical pre-qualification");
    const invited = await owner.request(`/auctions/${draft.id}/sellers`, {
      form: new URLSearchParams([["sellers", String(alpha.organizationId)]]),
    });
    expect(invited.status).toBe(302);
  });
});
