import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import {
  auctionBidRequirements,
  auctions,
  evaluationCriteria,
  evaluationScores,
  evaluationVerdicts,
  notifications,
  sealedBidDocuments,
  sealedBidLots,
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
import { PDF } from "../../../tests/support/document-samples";
import { expectIn, expectNotIn, htmlBetween, tableRowTexts } from "../../../tests/support/html";
import { HAULING_AND_CEMENTING } from "../../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { advanceAuctions } from "../clock/auction-clock.server";
import { type SealedLotBid, submitSealedBid } from "./sealed-bids.server";

// A sealed auction of several lots (issue 31) as browsers without JavaScript use it: each seller bids
// on the lots they choose (an amount, or a unit price per line within each ceiling), replaces the bid
// until the deadline, and nobody else reads it before then (decision 008); afterwards the buyer sees
// each lot's schedules side by side and awards each lot, or every lot to one seller, never to a
// seller the evaluation did not qualify.

describe.each(databaseKinds)("sealed auctions of several lots on %s", (kind) => {
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
    buyer = await createBuyer(db, "Lotted Sealed Buyer Ltd.");
    consultant = await createBuyer(db, "Lotted Evaluation Consulting", 4);
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Lots Hauling", ...offers });
    bravo = await createSeller(db, { name: "Bravo Lots Trucking", ...offers });
    charlie = await createSeller(db, { name: "Charlie Lots Cementing", ...offers });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, consultant, alpha, bravo, charlie]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;

  /** An open sealed auction of two lots: "Hauling" by lines ($2,000.00), "Cementing" one amount ($5,000.00). */
  const twoLots = (evaluated = false) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      evaluatorOrganizationId: consultant.organizationId,
      technicalPassMark: evaluated ? 50 : undefined,
      priceWeightPercent: evaluated ? 60 : 100,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo, charlie],
      lots: HAULING_AND_CEMENTING,
    });

  /** The sealed-bid form: each lot's fields by position (`prices` for lot 1, `amount` for lot 2). */
  function lotsForm(lots: { hauling?: string[]; cementing?: string }, file: number | null) {
    const form = new FormData();
    form.set("pricing", "lots");
    for (const [index, price] of (lots.hauling ?? ["", "", ""]).entries()) form.set(`lots[0].prices[${index}]`, price);
    form.set("lots[1].amount", lots.cementing ?? "");
    if (file !== null) form.set(`document_${file}`, new File([new Uint8Array(PDF)], "proposal.pdf"));
    return form;
  }

  const bidLots = async (bidId: number) =>
    (await db().select().from(sealedBidLots).where(eq(sealedBidLots.sealedBidId, bidId))).sort(
      (a, b) => a.lotId - b.lotId,
    );
  const bidOf = async (auctionId: number, party: Party) =>
    (
      await db()
        .select()
        .from(sealedBids)
        .where(and(eq(sealedBids.auctionId, auctionId), eq(sealedBids.organizationId, party.organizationId)))
    )[0];

  async function passDeadline(auctionId: number) {
    await moveAuctionTimes(db(), auctionId, {
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 1_000),
    });
    await advanceAuctions(app.services);
  }

  it("takes a bid on some lots or all, each checked at its fields, replaced as sent, sealed until the deadline", async () => {
    const auction = await twoLots();
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const [proposal] = await db()
      .insert(auctionBidRequirements)
      .values({ auctionId: auction.id, name: "Technical proposal", sortOrder: 0 })
      .returning();
    if (!proposal) throw new Error("no requirement");
    const page = `/auctions/${auction.id}/sealed-bid`;
    const form = await (await as(alpha).request(page)).text();
    expectIn(form, "Lot 1: Hauling (reserve $2,000.00)");
    expectIn(form, "Lot 2: Cementing (reserve $5,000.00)");
    expectIn(form, 'name="lots[0].prices[0]"');
    expectIn(form, 'name="lots[1].amount"');
    expectIn(form, "Leave a lot empty to not bid on it.");
    expectNotIn(form, 'name="amount"');
    expectIn(
      await (await as(alpha).request(`/auctions/${auction.id}`)).text(),
      "Bid on the lots and send your sealed bid",
    );

    const nothingStored = async () => expect(await bidOf(auction.id, alpha)).toBeUndefined();
    // No lot at all: one message, linked from the summary.
    const none = await as(alpha).request(page, { multipart: lotsForm({}, proposal.id) });
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expectIn(noneHtml, "Please bid on at least one lot");
    expectIn(noneHtml, 'href="#sealed-lots"');
    await nothingStored();
    // A line over its ceiling: at its field and in the summary, what was typed kept, nothing stored.
    const over = await as(alpha).request(page, {
      multipart: lotsForm({ hauling: ["100.00", "50.00", "4.50"], cementing: "4500" }, proposal.id),
    });
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expectIn(overHtml, "Lot 1: Hauling: Line 3: the unit price cannot be more than the ceiling of $4.00");
    expectIn(overHtml, 'href="#sealed-lot-1-price-2"');
    expectIn(overHtml, 'value="4.50"');
    expectIn(overHtml, 'value="4500"');
    await nothingStored();
    // A lot half priced: every line of a lot bid on needs a price.
    const half = await as(alpha).request(page, {
      multipart: lotsForm({ hauling: ["100.00", "", "3.00"] }, proposal.id),
    });
    expect(half.status).toBe(400);
    expectIn(await half.text(), "Lot 1: Hauling: Please enter a unit price for line 2");
    // A lot over its own reserve, and an amount that is not one.
    const overReserve = await as(alpha).request(page, { multipart: lotsForm({ cementing: "6000" }, proposal.id) });
    expect(overReserve.status).toBe(400);
    const overReserveHtml = await overReserve.text();
    expectIn(overReserveHtml, "Your bid on Lot 2: Cementing cannot be higher than its reserve price of $5,000.00");
    expectIn(overReserveHtml, 'href="#sealed-lot-2-amount"');
    const garbled = await as(alpha).request(page, { multipart: lotsForm({ cementing: "abc" }, proposal.id) });
    expect(garbled.status).toBe(400);
    expectIn(await garbled.text(), "Please enter an amount in dollars and cents, like 12500.00");
    await nothingStored();

    // Alpha bids on both lots, Bravo on Hauling only, Charlie on Cementing only.
    const send = (party: Party, lots: { hauling?: string[]; cementing?: string }) =>
      as(party).request(page, { multipart: lotsForm(lots, proposal.id) });
    expect((await send(alpha, { hauling: ["100.00", "50.00", "3.00"], cementing: "4500" })).status).toBe(302);
    expect((await send(bravo, { hauling: ["90", "50", "3.50"] })).status).toBe(302);
    expect((await send(charlie, { cementing: "4800.00" })).status).toBe(302);
    const alphaBid = await bidOf(auction.id, alpha);
    expect(alphaBid).toMatchObject({ amountCents: 592_500, revision: 1 });
    expect((await bidLots(alphaBid?.id ?? 0)).map((row) => [row.lotId, row.amountCents, row.unitCents])).toEqual([
      [hauling.id, 142_500, [10_000, 5_000, 300]],
      [cementing.id, 450_000, null],
    ]);
    const bravoBid = await bidOf(auction.id, bravo);
    expect((await bidLots(bravoBid?.id ?? 0)).map((row) => row.lotId)).toEqual([hauling.id]);
    // The seller reads their own bid, lot by lot, and the form starts from it.
    const own = await (await as(alpha).request(page)).text();
    expectIn(own, "Your bid, lot by lot");
    expectIn(own, "$1,425.00");
    expectIn(own, "$4,500.00");
    expectIn(own, 'value="100.00"');
    expectIn(own, "a lot you leave empty is withdrawn from your bid");

    // A replacement is the bid as sent: Hauling left empty is withdrawn; the documents stay.
    expect((await as(alpha).request(page, { multipart: lotsForm({ cementing: "4400" }, null) })).status).toBe(302);
    expect((await bidLots(alphaBid?.id ?? 0)).map((row) => [row.lotId, row.amountCents])).toEqual([
      [cementing.id, 440_000],
    ]);
    expect(await bidOf(auction.id, alpha)).toMatchObject({ amountCents: 440_000, revision: 2 });
    expect(
      await db()
        .select()
        .from(sealedBidDocuments)
        .where(eq(sealedBidDocuments.sealedBidId, alphaBid?.id ?? 0)),
    ).toHaveLength(1);
    expect((await send(alpha, { hauling: ["100.00", "50.00", "3.00"], cementing: "4400" })).status).toBe(302);

    // Before the deadline nobody else reads a price: not the buyer, the evaluator, staff or another seller.
    const documentUrl = async () => {
      const [document] = await db()
        .select({ id: sealedBidDocuments.id })
        .from(sealedBidDocuments)
        .where(eq(sealedBidDocuments.sealedBidId, alphaBid?.id ?? 0));
      return `/auctions/${auction.id}/sealed-bids/${alphaBid?.id}/documents/${document?.id}`;
    };
    for (const reader of [buyer, consultant, "staff", bravo] as const) {
      for (const path of [`/auctions/${auction.id}`, `/auctions/${auction.id}/evaluation`]) {
        const response = await as(reader).request(path);
        if (response.status !== 200) continue;
        const html = await response.text();
        expectNotIn(html, "$1,425.00");
        expectNotIn(html, "$4,400.00");
        expectNotIn(html, "$100.00");
      }
      expect((await as(reader).request(await documentUrl())).status).toBe(404);
    }
    expectIn(await (await as(buyer).request(`/auctions/${auction.id}`)).text(), "3 sealed bids received");
    expect((await as(bravo).request(`/auctions/${auction.id}/award`)).status).toBe(404);
    const bravoSheet = await (
      await as(bravo).request(`/auctions/${auction.id}/lots/${hauling.id}/price-sheet.csv`)
    ).text();
    expectIn(bravoSheet, "90.00");
    expectNotIn(bravoSheet, "100.00");

    // After the deadline: each lot's schedules side by side, lowest first, on every page of the auction side.
    await passDeadline(auction.id);
    expect((await send(alpha, { cementing: "1000" })).status).toBe(409);
    for (const [reader, path] of [
      [buyer, `/auctions/${auction.id}`],
      [consultant, `/auctions/${auction.id}`],
      ["staff", `/auctions/${auction.id}`],
      [buyer, `/auctions/${auction.id}/evaluation`],
      [buyer, `/auctions/${auction.id}/award`],
    ] as const) {
      const html = await (await as(reader).request(path)).text();
      expectIn(html, "Lot 1: Hauling: the price schedules side by side, line by line, lowest total first");
      expectIn(html, "Lot 2: Cementing: the price schedules side by side, line by line, lowest total first");
      const haulingTable = htmlBetween(
        html,
        "Lot 1: Hauling: the price schedules",
        "Lot 2: Cementing: the price schedules",
      );
      expect(haulingTable.indexOf("Bravo Lots Trucking")).toBeLessThan(haulingTable.indexOf("Alpha Lots Hauling"));
      expectNotIn(haulingTable, "Charlie Lots Cementing");
      for (const text of ["$900.00", "$1,375.00", "$1,425.00", "$4,400.00", "$4,800.00"]) expectIn(html, text);
    }
    expect((await as(buyer).request(await documentUrl())).status).toBe(200);
  });

  it("reads a lot's filled-in price sheet when none of its prices is typed, a message per wrong row at its field", async () => {
    const auction = await twoLots();
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const page = `/auctions/${auction.id}/sealed-bid`;
    const form = await (await as(charlie).request(page)).text();
    expectIn(form, 'name="lots[0].price_sheet"');
    expectIn(form, "Or attach Lot 1: Hauling&#x27;s filled-in price sheet (CSV, optional)");
    expectNotIn(form, 'name="lots[1].price_sheet"');
    const sheet = await (
      await as(charlie).request(`/auctions/${auction.id}/lots/${hauling.id}/price-sheet.csv`)
    ).text();
    expectIn(sheet, "unit_price");
    const withSheet = (csv: string) => {
      const sent = lotsForm({ cementing: "4400" }, null);
      sent.set("lots[0].price_sheet", new File([csv], "hauling.csv", { type: "text/csv" }));
      return as(charlie).request(page, { multipart: sent });
    };

    // A price that is not one and a line left out: each row's message at the sheet and in the summary,
    // the amount typed on the other lot kept, nothing stored.
    const wrong = await withSheet("line,unit_price\n1,80.00\n2,forty\n");
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expectIn(
      wrongHtml,
      "Lot 1: Hauling: Row 3: Please enter the unit price of line 2 in dollars and cents, like 185.00",
    );
    expectIn(wrongHtml, "Lot 1: Hauling: Row 4: Please give a unit price for line 3");
    expectIn(wrongHtml, 'href="#sealed-lot-1-sheet"');
    expectIn(wrongHtml, 'aria-describedby="sealed-lot-1-sheet-hint sealed-lot-1-sheet-error"');
    expectIn(wrongHtml, 'value="4400"');
    expect(await bidOf(auction.id, charlie)).toBeUndefined();

    // A file far larger than any price sheet is refused unread, at the sheet.
    const huge = await withSheet(`line,unit_price\n${"1,1.00\n".repeat(100_000)}`);
    expect(huge.status).toBe(400);
    expectIn(await huge.text(), "Lot 1: Hauling: This file is too large to be a price sheet");
    expect(await bidOf(auction.id, charlie)).toBeUndefined();

    // Rows in any order; typed prices would win over the sheet, none are typed here.
    expect((await withSheet("line,unit_price\n3,3.00\n1,80.00\n2,40.00\n")).status).toBe(302);
    const sent = await bidOf(auction.id, charlie);
    expect((await bidLots(sent?.id ?? 0)).map((row) => [row.lotId, row.amountCents, row.unitCents])).toEqual([
      [hauling.id, 120_000, [8_000, 4_000, 300]],
      [cementing.id, 440_000, null],
    ]);
  });

  /** Bids straight through the one submission path (no documents required). */
  async function bid(auctionId: number, party: Party, lots: SealedLotBid[]) {
    const outcome = await submitSealedBid(db(), {
      auctionId,
      organizationId: party.organizationId,
      userId: party.userId,
      lots,
      files: [],
    });
    expect(outcome.kind).toBe("saved");
    return outcome;
  }

  it("awards each lot to its lowest bid or, with a reason, another; tells each seller which lots they won", async () => {
    const auction = await twoLots();
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    // Hauling: Bravo $1,375.00 < Alpha $1,425.00; Cementing: Alpha $4,400.00 < Charlie $4,800.00.
    await bid(auction.id, alpha, [
      { position: 1, unitCents: [10_000, 5_000, 300] },
      { position: 2, amountCents: 440_000 },
    ]);
    await bid(auction.id, bravo, [{ position: 1, unitCents: [9_000, 5_000, 350] }]);
    await bid(auction.id, charlie, [{ position: 2, amountCents: 480_000 }]);
    const award = `/auctions/${auction.id}/award`;
    expectIn(await (await as(buyer).request(award)).text(), "An auction is awarded after bidding closes.");
    await passDeadline(auction.id);

    const page = await (await as(buyer).request(award)).text();
    expectIn(page, "Each lot to its lowest bid");
    expectIn(page, "$5,775.00"); // 1,375 + 4,400
    expectIn(page, "Every lot to Alpha Lots Hauling");
    expectIn(page, "$5,825.00"); // 1,425 + 4,400: $50.00 over
    expectIn(page, "$50.00");
    expectNotIn(page, "Every lot to Bravo");

    const alphaBid = await bidOf(auction.id, alpha);
    const bravoBid = await bidOf(auction.id, bravo);
    const toAlpha = { [`lot_${hauling.id}`]: String(alphaBid?.id), [`lot_${cementing.id}`]: String(alphaBid?.id) };
    const noReason = await as(buyer).request(award, { form: toAlpha });
    expect(noReason.status).toBe(400);
    const noReasonHtml = await noReason.text();
    expectIn(noReasonHtml, "Lot 1: Hauling: Please say why you are passing over the lowest bid on this lot");
    expectIn(noReasonHtml, `href="#award-lot-${hauling.id}-${bravoBid?.id}"`);
    // A bid that is not on the lot (Bravo did not bid on Cementing) is no choice.
    const wrong = await as(buyer).request(award, {
      form: { [`lot_${hauling.id}`]: String(bravoBid?.id), [`lot_${cementing.id}`]: String(bravoBid?.id) },
    });
    expect(wrong.status).toBe(400);
    expectIn(await wrong.text(), "Lot 2: Cementing: Please choose one of this lot&#x27;s bids");
    expect((await auctionRow(db(), auction.id)).status).toBe("closed");

    const choices = { ...toAlpha, [`reason_${hauling.id}`]: "One crew for both lots" };
    const asked = await as(buyer).request(award, { form: choices });
    expect(asked.status).toBe(200);
    const askedHtml = await asked.text();
    expectIn(askedHtml, "Lot 1: Hauling: Alpha Lots Hauling at $1,425.00");
    expectIn(askedHtml, "Lot 2: Cementing: Alpha Lots Hauling at $4,400.00");
    const done = await as(buyer).request(award, { form: { ...choices, confirm: "yes" } });
    expect(done.status).toBe(302);
    const awarded = await auctionRow(db(), auction.id);
    expect(awarded.status).toBe("awarded");
    expect(awarded.buyerFeeCents).not.toBeNull();
    expect(awarded.lots.map((lot) => [lot.awardedBidId, lot.awardedOrganizationId, lot.awardReason])).toEqual([
      [alphaBid?.id, alpha.organizationId, "One crew for both lots"],
      [alphaBid?.id, alpha.organizationId, null],
    ]);
    // Once only.
    expect((await as(buyer).request(award, { form: { ...choices, confirm: "yes" } })).status).toBe(409);

    const told = await db().select().from(notifications).where(eq(notifications.auctionId, auction.id));
    expect(told.filter((row) => row.kind === "awarded").length).toBeGreaterThan(0);
    expect(JSON.stringify(told.filter((row) => row.kind === "awarded"))).toContain("Lot 1: Hauling: $1,425.00");
    expect(JSON.stringify(told.filter((row) => row.kind === "awarded"))).toContain("Lot 2: Cementing: $4,400.00");
    const console = await (await as(buyer).request(`/auctions/${auction.id}`)).text();
    expectIn(console, "Awarded lot by lot");
    expectIn(
      console,
      "Lot 1: Hauling: Alpha Lots Hauling at $1,425.00. The lowest bid was passed over: One crew for both lots",
    );
    const alphaPage = await (await as(alpha).request(`/auctions/${auction.id}`)).text();
    expectIn(alphaPage, "You won lots of this auction");
    expectIn(alphaPage, "Lot 2: Cementing");
    for (const loser of [bravo, charlie]) {
      expectIn(await (await as(loser).request(`/auctions/${auction.id}`)).text(), "Not awarded to you");
    }
    // The savings report reads the sealed lots' awards.
    const report = await as(buyer).request(`/account/reports/${auction.id}`);
    expect(report.status).toBe(200);
    expectIn(await report.text(), "$5,825.00");
  });

  it("ranks each lot's bids on their own in the evaluation, not the sellers' totals over different lots", async () => {
    const auction = await twoLots(true);
    const [criterion] = await db()
      .insert(evaluationCriteria)
      .values({ auctionId: auction.id, name: "Safety record", weight: 100, sortOrder: 0 })
      .returning();
    if (!criterion) throw new Error("no criterion");
    // Alpha bids on Hauling only ($1,200.00 in all: the lowest total, yet not the best on any lot);
    // Bravo on both ($1,400.00 and $4,000.00); Charlie on Cementing only ($4,800.00).
    await bid(auction.id, alpha, [{ position: 1, unitCents: [8_000, 4_000, 300] }]);
    await bid(auction.id, bravo, [
      { position: 1, unitCents: [10_000, 4_000, 300] },
      { position: 2, amountCents: 400_000 },
    ]);
    await bid(auction.id, charlie, [{ position: 2, amountCents: 480_000 }]);
    await passDeadline(auction.id);
    await db()
      .insert(evaluationScores)
      .values(
        (
          [
            [alpha, 5],
            [bravo, 9],
            [charlie, 10],
          ] as const
        ).map(([party, score]) => ({ criterionId: criterion.id, organizationId: party.organizationId, score })),
      );

    const html = await (await as(buyer).request(`/auctions/${auction.id}/evaluation`)).text();
    expectIn(html, "Each lot is ranked on its own");
    // Each score sheet says what the seller bid on which lot, not only their total.
    expectIn(html, "Bid: $1,400.00 on Lot 1: Hauling, $4,000.00 on Lot 2: Cementing; $5,400.00 in all");
    expectIn(html, "Bid: $1,200.00 on Lot 1: Hauling; $1,200.00 in all");
    const lotSection = (position: number) =>
      htmlBetween(html, `id="ranking-lot-${position}"`, `id="ranking-lot-${position + 1}"`);
    // Price 60 %, technical 40 %: on Hauling Bravo's 85.7 for price and 90 beat Alpha's 100 and 50.
    expect(tableRowTexts(lotSection(1)).slice(1)).toEqual([
      "1 | Bravo Lots Trucking | $1,400.00 | 85.7 | 90 | 87.4",
      "2 | Alpha Lots Hauling | $1,200.00 | 100 | 50 | 80",
    ]);
    expect(tableRowTexts(lotSection(2)).slice(1)).toEqual([
      "1 | Bravo Lots Trucking | $4,000.00 | 100 | 90 | 96",
      "2 | Charlie Lots Cementing | $4,800.00 | 83.3 | 100 | 90",
    ]);
    expectIn(lotSection(1), "Lot 1: Hauling");
    expectIn(lotSection(2), "Lot 2: Cementing");

    // The award follows each lot's ranking, as an auction of one lot does: the best-ranked first and
    // ticked, a reason asked to pass it over for the lowest price.
    await db().update(auctions).set({ evaluationCompletedAt: new Date() }).where(eq(auctions.id, auction.id));
    const award = `/auctions/${auction.id}/award`;
    const page = await (await as(buyer).request(award)).text();
    const [hauling, cementing] = auction.lots;
    const alphaBid = await bidOf(auction.id, alpha);
    const bravoBid = await bidOf(auction.id, bravo);
    if (!hauling || !cementing || !alphaBid || !bravoBid) throw new Error("no lots or bids");
    expectIn(page, "Lot 1: Hauling: each bidder&#x27;s best total, best-ranked first");
    expectIn(page, "Bravo Lots Trucking: $1,400.00 (best-ranked)");
    expectIn(page, "Bravo Lots Trucking: $4,000.00 (best-ranked)");
    expect(page.indexOf("Bravo Lots Trucking: $1,400.00")).toBeLessThan(page.indexOf("Alpha Lots Hauling: $1,200.00"));
    expect(page).toMatch(new RegExp(`id="award-lot-${hauling.id}-${bravoBid.id}"[^>]*checked`));
    expect(tableRowTexts(htmlBetween(page, 'id="award-compare"', "</table>")).slice(1, 2)).toEqual([
      "Each lot to its best-ranked bid | $5,400.00 | —",
    ]);
    const lowest = await as(buyer).request(award, {
      form: { [`lot_${hauling.id}`]: String(alphaBid.id), [`lot_${cementing.id}`]: String(bravoBid.id) },
    });
    expect(lowest.status).toBe(400);
    expectIn(await lowest.text(), "Please say why you are passing over the best-ranked bid on this lot");
    const choices = { [`lot_${hauling.id}`]: String(bravoBid.id), [`lot_${cementing.id}`]: String(bravoBid.id) };
    expect((await as(buyer).request(award, { form: choices })).status).toBe(200);
    expect((await as(buyer).request(award, { form: { ...choices, confirm: "yes" } })).status).toBe(302);
    const awarded = await auctionRow(db(), auction.id);
    expect(awarded.lots.map((lot) => lot.awardedOrganizationId)).toEqual([bravo.organizationId, bravo.organizationId]);
  });

  it("awards every lot to one seller, after the evaluation, never to a seller it found unacceptable", async () => {
    const auction = await twoLots(true);
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const [criterion] = await db()
      .insert(evaluationCriteria)
      .values({ auctionId: auction.id, name: "Safety record", weight: 100, sortOrder: 0 })
      .returning();
    if (!criterion) throw new Error("no criterion");
    // Charlie is cheapest on both lots but will be found unacceptable; Bravo bids on both, Alpha on Hauling.
    await bid(auction.id, charlie, [
      { position: 1, unitCents: [8_000, 4_000, 300] },
      { position: 2, amountCents: 300_000 },
    ]);
    await bid(auction.id, bravo, [
      { position: 1, unitCents: [9_500, 5_000, 350] },
      { position: 2, amountCents: 420_000 },
    ]);
    await bid(auction.id, alpha, [{ position: 1, unitCents: [9_000, 5_000, 350] }]);
    await passDeadline(auction.id);
    const award = `/auctions/${auction.id}/award`;
    const charlieBid = await bidOf(auction.id, charlie);
    const bravoBid = await bidOf(auction.id, bravo);
    // The evaluation is not complete: the award waits.
    expectIn(await (await as(buyer).request(award)).text(), "The technical evaluation is not complete yet");
    const early = await as(buyer).request(award, {
      form: {
        [`lot_${hauling.id}`]: String(bravoBid?.id),
        [`lot_${cementing.id}`]: String(bravoBid?.id),
        [`reason_${hauling.id}`]: "Why not",
        confirm: "yes",
      },
    });
    expect(early.status).toBe(409);
    expectIn(await early.text(), "The technical evaluation is not complete yet.");
    expect((await auctionRow(db(), auction.id)).status).toBe("closed");

    await db()
      .insert(evaluationScores)
      .values(
        [alpha, bravo, charlie].map((party) => ({
          criterionId: criterion.id,
          organizationId: party.organizationId,
          score: 8,
        })),
      );
    await db().insert(evaluationVerdicts).values({
      auctionId: auction.id,
      organizationId: charlie.organizationId,
      unacceptable: true,
      comment: "No H2S certification",
    });
    await db().update(auctions).set({ evaluationCompletedAt: new Date() }).where(eq(auctions.id, auction.id));

    const page = await (await as(buyer).request(`${award}?seller=${bravo.organizationId}`)).text();
    expectIn(page, "Not offered, as the technical evaluation did not qualify them: Charlie Lots Cementing");
    expectIn(page, "Technically unacceptable");
    expectIn(page, "Every lot to Bravo Lots Trucking");
    expectNotIn(page, `value="${charlieBid?.id}"`);
    // Choosing Bravo for every lot ticks Bravo's bid on each lot.
    expect(page).toMatch(new RegExp(`id="award-lot-${hauling.id}-${bravoBid?.id}"[^>]*checked`));
    // Charlie's bid cannot be chosen, even sent by hand.
    const unacceptable = await as(buyer).request(award, {
      form: { [`lot_${hauling.id}`]: String(bravoBid?.id), [`lot_${cementing.id}`]: String(charlieBid?.id) },
    });
    expect(unacceptable.status).toBe(400);
    expectIn(await unacceptable.text(), "This bid did not pass the technical evaluation and cannot be awarded");

    // Every lot to Bravo: Hauling passes over Alpha's lower bid, so it needs a reason.
    const choices = {
      [`lot_${hauling.id}`]: String(bravoBid?.id),
      [`lot_${cementing.id}`]: String(bravoBid?.id),
      [`reason_${hauling.id}`]: "One seller for the whole program",
    };
    expect((await as(buyer).request(award, { form: choices })).status).toBe(200);
    expect((await as(buyer).request(award, { form: { ...choices, confirm: "yes" } })).status).toBe(302);
    const awarded = await auctionRow(db(), auction.id);
    expect(awarded.lots.map((lot) => lot.awardedOrganizationId)).toEqual([bravo.organizationId, bravo.organizationId]);
    expectIn(await (await as(charlie).request(`/auctions/${auction.id}`)).text(), "Not awarded to you");
  });
});
