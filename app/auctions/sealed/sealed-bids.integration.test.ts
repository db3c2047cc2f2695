import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import {
  auctionBidRequirements,
  auctionEvents,
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
import { EXE, PDF, XLSX } from "../../../tests/support/document-samples";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { HAULING } from "../../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { type Viewer, viewsFor } from "../auction-views.server";
import { advanceAuctions } from "../clock/auction-clock.server";

// Sealed-bid auctions (issue 10) as browsers without JavaScript use them: the buyer writes one with
// its required documents and a consultant to evaluate; invited sellers send and replace one bid with
// its documents; nobody else, staff included, reads a bid (page, download, CSV, live view) before the
// deadline; afterwards the buyer, the evaluator and staff see every bid side by side.

describe.each(databaseKinds)("sealed-bid auctions on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let consultant: Party;
  let otherConsultant: Party;
  let alpha: Party;
  let bravo: Party;
  let uninvited: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Sealed Buyer Energy Ltd.");
    consultant = await createBuyer(db, "Prairie Evaluation Consulting", 4);
    otherConsultant = await createBuyer(db, "Unrelated Consulting", 4);
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Sealed Hauling", ...offers });
    bravo = await createSeller(db, { name: "Bravo Sealed Trucking", ...offers });
    uninvited = await createSeller(db, { name: "Uninvited Sealed Co.", ...offers });
    as = await signedInClients(
      () => createClient(app.baseURL),
      [buyer, consultant, otherConsultant, alpha, bravo, uninvited],
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  /** A sealed bid's total and, for its one lot (issue 31), its unit prices. */
  const withUnits = async (row: typeof sealedBids.$inferSelect | undefined) => {
    const lots = await db()
      .select()
      .from(sealedBidLots)
      .where(eq(sealedBidLots.sealedBidId, row?.id ?? 0));
    return { ...row, lotCount: lots.length, unitCents: lots[0]?.unitCents ?? null };
  };

  /** An open sealed auction with Alpha and Bravo invited (terms accepted) and its requirements. */
  async function openSealedAuction() {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      serviceId: catalogue.serviceId,
      serviceAreaId: catalogue.serviceAreaId,
      kind: "sealed",
      reserveCents: 5_000_000,
      evaluatorOrganizationId: consultant.organizationId,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo],
    });
    const requirements = await db()
      .insert(auctionBidRequirements)
      .values([
        { auctionId: auction.id, name: "Price schedule", sortOrder: 0 },
        { auctionId: auction.id, name: "Technical proposal", sortOrder: 1 },
      ])
      .returning();
    const [schedule, proposal] = requirements;
    if (!schedule || !proposal) throw new Error("no requirements");
    return { auction, schedule, proposal };
  }

  function sealedForm(amount: string, files: Record<number, { name: string; bytes: Buffer }>) {
    const form = new FormData();
    form.set("amount", amount);
    for (const [requirementId, file] of Object.entries(files)) {
      form.set(`document_${requirementId}`, new File([new Uint8Array(file.bytes)], file.name));
    }
    return form;
  }

  /** Moves the deadline into the past (the times' order is kept: start < scheduled end <= end). */
  async function passDeadline(auctionId: number) {
    await moveAuctionTimes(db(), auctionId, {
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 1_000),
    });
  }

  it("creates a sealed auction from the form: required documents, evaluator, weights; no decrement needed", async () => {
    const base = {
      kind: "sealed",
      title: "Sealed: wellsite supervision",
      description: "Supervision for a 3-well pad.",
      service: String(catalogue.serviceId),
      service_area: String(catalogue.serviceAreaId),
      reserve: "80000",
      decrement_kind: "amount",
      decrement_amount: "",
      starts_at: "2099-01-01T09:00",
      ends_at: "2099-01-08T17:00",
      soft_close_window: "5",
      soft_close_extension: "5",
      soft_close_cap: "60",
      evaluator: String(consultant.organizationId),
      price_weight: "60",
      pass_mark: "70",
    };
    const missing = await as(buyer).request("/auctions/new", { form: { ...base, requirements: "  \n " } });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expectIn(missingHtml, "Please list the documents each bid must carry, one per line");
    expectIn(missingHtml, 'value="Sealed: wellsite supervision"');
    const strange = await as(buyer).request("/auctions/new", {
      form: { ...base, requirements: "Price schedule", evaluator: String(alpha.organizationId), price_weight: "140" },
    });
    expect(strange.status).toBe(400);
    const strangeHtml = await strange.text();
    expectIn(strangeHtml, "Please enter the price weight as a whole number from 0 to 100");

    const created = await as(buyer).request("/auctions/new", {
      form: { ...base, requirements: "Price schedule\nTechnical proposal\nprice schedule\n\nSafety documents" },
    });
    expect(created.status).toBe(302);
    const auctionId = Number(/\/auctions\/(\d+)\//.exec(created.headers.get("location") ?? "")?.[1]);
    expect(await auctionRow(db(), auctionId)).toMatchObject({
      kind: "sealed",
      evaluatorOrganizationId: consultant.organizationId,
      priceWeightPercent: 60,
      technicalPassMark: 70,
      softCloseWindowMinutes: 0,
      softCloseCapMinutes: 0,
    });
    const names = await db()
      .select({ name: auctionBidRequirements.name })
      .from(auctionBidRequirements)
      .where(eq(auctionBidRequirements.auctionId, auctionId))
      .orderBy(auctionBidRequirements.sortOrder);
    expect(names.map((row) => row.name)).toEqual(["Price schedule", "Technical proposal", "Safety documents"]);
    // The edit form shows them back; the named consultant sees the draft and may not edit it.
    expectIn(await (await as(buyer).request(`/auctions/${auctionId}/edit`)).text(), "Safety documents");
    expect((await as(consultant).request(`/auctions/${auctionId}`)).status).toBe(200);
    expect((await as(consultant).request(`/auctions/${auctionId}/edit`)).status).toBe(403);
    expect((await as(otherConsultant).request(`/auctions/${auctionId}`)).status).toBe(404);
    expectIn(await (await as(consultant).request("/auctions")).text(), "Sealed: wellsite supervision");

    // Publishing tells the invited sellers and the evaluator.
    const invited = await as(buyer).request(`/auctions/${auctionId}/sellers`, {
      form: new URLSearchParams([["sellers", String(alpha.organizationId)]]),
    });
    expect(invited.status).toBe(302);
    expect((await as(buyer).request(`/auctions/${auctionId}`, { form: { intent: "publish" } })).status).toBe(302);
    const told = await db().select().from(notifications).where(eq(notifications.auctionId, auctionId));
    expect(told.some((row) => row.userId === consultant.userId && row.subject.startsWith("You evaluate"))).toBe(true);
    expect(told.some((row) => row.userId === alpha.userId && row.text.includes("sealed-bid auction"))).toBe(true);
  });

  it("takes one bid per seller with every document, replaceable until the deadline, checked at each field", async () => {
    const { auction, schedule, proposal } = await openSealedAuction();
    const page = `/auctions/${auction.id}/sealed-bid`;
    const seller = as(alpha);
    expectIn(await (await seller.request(`/auctions/${auction.id}`)).text(), "Send your sealed bid");

    const noProposal = await seller.request(page, {
      multipart: sealedForm("41234.56", { [schedule.id]: { name: "alpha-schedule.pdf", bytes: PDF } }),
    });
    expect(noProposal.status).toBe(400);
    const noProposalHtml = await noProposal.text();
    expectIn(noProposalHtml, "Please attach the Technical proposal");
    expectIn(noProposalHtml, 'value="41234.56"');
    const wrongType = await seller.request(page, {
      multipart: sealedForm("41234.56", {
        [schedule.id]: { name: "alpha-schedule.pdf", bytes: EXE },
        [proposal.id]: { name: "alpha-proposal.pdf", bytes: PDF },
      }),
    });
    expect(wrongType.status).toBe(400);
    const overReserve = await seller.request(page, {
      multipart: sealedForm("50000.01", {
        [schedule.id]: { name: "alpha-schedule.pdf", bytes: PDF },
        [proposal.id]: { name: "alpha-proposal.pdf", bytes: PDF },
      }),
    });
    expect(overReserve.status).toBe(400);
    expectIn(await overReserve.text(), "Your bid cannot be higher than the reserve price of $50,000.00");
    const badAmount = await seller.request(page, { multipart: sealedForm("lots", {}) });
    expect(badAmount.status).toBe(400);
    expect(await db().select().from(sealedBids).where(eq(sealedBids.auctionId, auction.id))).toHaveLength(0);

    const sent = await seller.request(page, {
      multipart: sealedForm("41,234.56", {
        [schedule.id]: { name: "alpha-schedule.pdf", bytes: PDF },
        [proposal.id]: { name: "alpha-proposal.xlsx", bytes: XLSX },
      }),
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/auctions/${auction.id}?done=sealed&revision=1`);
    // Replaced: a new amount and only the schedule; the proposal stays as sent.
    const replaced = await seller.request(page, {
      multipart: sealedForm("39000", { [schedule.id]: { name: "alpha-schedule-v2.pdf", bytes: PDF } }),
    });
    expect(replaced.status).toBe(302);
    const [bid] = await db().select().from(sealedBids).where(eq(sealedBids.auctionId, auction.id));
    expect(bid).toMatchObject({ amountCents: 3_900_000, revision: 2, organizationId: alpha.organizationId });
    const documents = await db()
      .select({ fileName: sealedBidDocuments.fileName })
      .from(sealedBidDocuments)
      .where(eq(sealedBidDocuments.sealedBidId, bid?.id ?? 0));
    expect(documents.map((row) => row.fileName).sort()).toEqual(["alpha-proposal.xlsx", "alpha-schedule-v2.pdf"]);
    // The log says who and which revision, never the amount.
    const events = await db().select().from(auctionEvents).where(eq(auctionEvents.auctionId, auction.id));
    expect(JSON.stringify(events)).not.toContain("3900000");
    const ownPage = await (await seller.request(`/auctions/${auction.id}`)).text();
    expectIn(ownPage, "$39,000.00");
    expectIn(ownPage, "Replace your sealed bid");

    // Reverse bidding does not apply; an owner cannot bid.
    const reverseBid = await seller.request(`/auctions/${auction.id}`, { form: { intent: "bid", amount: "100" } });
    expect(reverseBid.status).toBe(409);
    expect((await as(buyer).request(page, { multipart: sealedForm("1", {}) })).status).toBe(403);
    expect((await as(uninvited).request(page, { multipart: sealedForm("1", {}) })).status).toBe(404);

    // After the deadline nothing more is taken.
    await passDeadline(auction.id);
    const late = await seller.request(page, { multipart: sealedForm("1000", {}) });
    expect(late.status).toBe(409);
    expectIn(await late.text(), "Bids are accepted only between the start and the submission deadline.");
  });

  it("shows no sealed bid to anyone but its seller before the deadline, and all of them side by side after", async () => {
    const { auction, schedule, proposal } = await openSealedAuction();
    const page = `/auctions/${auction.id}/sealed-bid`;
    for (const [party, amount, prefix] of [
      [alpha, "43210.98", "alpha-secret"],
      [bravo, "44321.09", "bravo-secret"],
    ] as const) {
      const sent = await as(party).request(page, {
        multipart: sealedForm(amount, {
          [schedule.id]: { name: `${prefix}-schedule.pdf`, bytes: PDF },
          [proposal.id]: { name: `${prefix}-proposal.pdf`, bytes: PDF },
        }),
      });
      expect(sent.status).toBe(302);
    }
    const bids = await db().select().from(sealedBids).where(eq(sealedBids.auctionId, auction.id));
    const documents = await db().select().from(sealedBidDocuments);
    const alphaBid = bids.find((bid) => bid.organizationId === alpha.organizationId);
    const alphaDocument = documents.find((document) => document.sealedBidId === alphaBid?.id);
    if (!alphaBid || !alphaDocument) throw new Error("no bid");
    const alphaDocumentUrl = `/auctions/${auction.id}/sealed-bids/${alphaBid.id}/documents/${alphaDocument.id}`;
    const secrets = ["$43,210.98", "43210.98", "4321098", "alpha-secret", "$44,321.09", "bravo-secret"];
    const pages = [
      `/auctions/${auction.id}`,
      `/auctions/${auction.id}/award`,
      `/auctions/${auction.id}/bids.csv`,
      `/auctions/${auction.id}/evaluation`,
      `/auctions/${auction.id}/sellers`,
      `/auctions/${auction.id}/documents`,
      page,
      "/auctions",
      "/account",
      // No API serves auctions; these answer the API's 404.
      `/api/auctions/${auction.id}`,
      `/api/auctions/${auction.id}/bids`,
    ];
    const readers: [string, Party | "staff"][] = [
      ["the buyer", buyer],
      ["the evaluator", consultant],
      ["staff", "staff"],
      ["another consultant", otherConsultant],
      ["an uninvited seller", uninvited],
    ];
    for (const [, reader] of readers) {
      for (const path of pages) {
        const answer = await as(reader).request(path);
        expect(answer.status).toBeLessThan(500);
        const text = await answer.text();
        for (const secret of secrets) expect(text, `${path} shows ${secret}`).not.toContain(secret);
      }
      expect((await as(reader).request(alphaDocumentUrl)).status).toBe(404);
    }
    // The other bidder sees only their own bid; the document of another seller is a 404 for them.
    const bravoPage = await (await as(bravo).request(`/auctions/${auction.id}`)).text();
    expectIn(bravoPage, "$44,321.09");
    for (const secret of ["$43,210.98", "alpha-secret"]) expectNotIn(bravoPage, secret);
    expect((await as(bravo).request(alphaDocumentUrl)).status).toBe(404);
    const own = await as(alpha).request(alphaDocumentUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-disposition")).toContain("alpha-secret");
    // A seller's page links their documents by requirement (issue 17): the bid's and documents' ids are
    // counted across every seller's bids, and their gaps would tell how many the others sent.
    const ownPath = `/auctions/${auction.id}/sealed-bids/own/documents/${proposal.id}`;
    const alphaPage = await (await as(alpha).request(`/auctions/${auction.id}`)).text();
    expectIn(alphaPage, ownPath);
    expectNotIn(alphaPage, `/sealed-bids/${alphaBid.id}/`);
    const alphaOwn = await as(alpha).request(ownPath);
    expect(alphaOwn.status).toBe(200);
    expect(alphaOwn.headers.get("content-disposition")).toContain("alpha-secret-proposal.pdf");
    expect((await as(bravo).request(ownPath)).headers.get("content-disposition")).toContain(
      "bravo-secret-proposal.pdf",
    );
    for (const reader of [buyer, consultant, uninvited, "staff"] as const) {
      expect((await as(reader).request(ownPath)).status).toBe(404);
    }
    // The live views (what the event stream sends) hold no bid either, for every viewer.
    const viewers: Viewer[] = [
      { kind: "owner", organizationId: buyer.organizationId },
      { kind: "evaluator", organizationId: consultant.organizationId },
      { kind: "staff" },
      { kind: "seller", organizationId: bravo.organizationId },
    ];
    const liveBefore = JSON.stringify(await viewsFor(db(), await auctionRow(db(), auction.id), viewers));
    for (const secret of ["4321098", "alpha-secret"]) expect(liveBefore).not.toContain(secret);
    // Staff and the buyer learn only how many came.
    expectIn(await (await as(buyer).request(`/auctions/${auction.id}`)).text(), "2 sealed bids received");

    await passDeadline(auction.id);
    // The clock closes it: the buyer, the evaluator and both bidders are told, without any amount.
    await advanceAuctions(app.services);
    const told = await db().select().from(notifications).where(eq(notifications.auctionId, auction.id));
    const toldUsers = new Set(told.filter((row) => row.kind === "closed").map((row) => row.userId));
    for (const party of [buyer, consultant, alpha, bravo]) expect(toldUsers.has(party.userId)).toBe(true);
    expect(toldUsers.has(uninvited.userId)).toBe(false);
    expect(JSON.stringify(told)).not.toContain("43,210");
    expect(JSON.stringify(told)).toContain("2 sealed bids were received");
    for (const reader of [buyer, consultant, "staff"] as const) {
      const html = await (await as(reader).request(`/auctions/${auction.id}`)).text();
      expectIn(html, "$43,210.98");
      expectIn(html, "$44,321.09");
      expectIn(html, "Alpha Sealed Hauling");
      expectIn(html, "alpha-secret-proposal.pdf");
      expect((await as(reader).request(alphaDocumentUrl)).status).toBe(200);
    }
    for (const reader of [bravo, uninvited, otherConsultant]) {
      expect((await as(reader).request(alphaDocumentUrl)).status).toBe(404);
      const text = await (await as(reader).request(`/auctions/${auction.id}`)).text();
      expect(text).not.toContain("$43,210.98");
    }
  });

  it("takes a price schedule (a unit price per line) with the documents, sealed until the deadline, then side by side line by line", async () => {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      reserveCents: 200_000,
      evaluatorOrganizationId: consultant.organizationId,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo],
      lots: [{ title: "", reserveCents: 200_000, decrementKind: "percent", decrementValue: 100, lines: HAULING }],
    });
    const [proposal] = await db()
      .insert(auctionBidRequirements)
      .values({ auctionId: auction.id, name: "Technical proposal", sortOrder: 0 })
      .returning();
    if (!proposal) throw new Error("no requirement");
    const page = `/auctions/${auction.id}/sealed-bid`;
    const form = await (await as(alpha).request(page)).text();
    expectIn(form, "Unit price, line 1: Vacuum truck, per hour");
    expectIn(form, "Download the price sheet (CSV)");
    expectNotIn(form, 'name="amount"');
    // The auction page sends the seller to that page for the schedule.
    expectIn(await (await as(alpha).request(`/auctions/${auction.id}`)).text(), "Enter your price schedule");

    const schedule = (prices: string[], file = true) => {
      const body = sealedForm("", file ? { [proposal.id]: { name: "proposal.pdf", bytes: PDF } } : {});
      body.delete("amount");
      body.set("pricing", "lines");
      for (const [index, price] of prices.entries()) body.set(`prices[${index}]`, price);
      return body;
    };
    // Line 3 over its ceiling of $4.00: refused at its field and in the summary, the prices kept, nothing stored.
    const over = await as(alpha).request(page, { multipart: schedule(["100.00", "50.00", "4.50"]) });
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expectIn(overHtml, "Line 3: the unit price cannot be more than the ceiling of $4.00");
    expectIn(overHtml, 'href="#sealed-price-2"');
    expectIn(overHtml, 'value="4.50"');
    const missing = await as(alpha).request(page, { multipart: schedule(["100.00", "", "3.00"]) });
    expect(missing.status).toBe(400);
    expectIn(await missing.text(), "Please enter a unit price for line 2");
    expect(await db().select().from(sealedBids).where(eq(sealedBids.auctionId, auction.id))).toEqual([]);

    // 10 h × $100.00 + 2.5 km × $50.00 + 100 m³ × $3.00 = $1,425.00; Bravo: $90.00, $50.00, $3.50 = $1,375.00.
    expect((await as(alpha).request(page, { multipart: schedule(["100.00", "50.00", "3.00"]) })).status).toBe(302);
    expect((await as(bravo).request(page, { multipart: schedule(["90", "50", "3.50"]) })).status).toBe(302);
    const rows = await db().select().from(sealedBids).where(eq(sealedBids.auctionId, auction.id));
    const alphaRow = rows.find((row) => row.organizationId === alpha.organizationId);
    const bravoRow = rows.find((row) => row.organizationId === bravo.organizationId);
    expect(await withUnits(alphaRow)).toMatchObject({
      amountCents: 142_500,
      lotCount: 1,
      unitCents: [10_000, 5_000, 300],
    });
    expect(await withUnits(bravoRow)).toMatchObject({ amountCents: 137_500, unitCents: [9_000, 5_000, 350] });
    const own = await (await as(alpha).request(page)).text();
    expectIn(own, "Your unit prices");
    expectIn(own, "$1,425.00");

    // The price sheet: downloaded with the seller's own unit prices, sent back filled in (a message per
    // wrong row, nothing changed), replacing the bid.
    const sheetPath = `/auctions/${auction.id}/lots/${auction.lots[0]?.id}/price-sheet.csv`;
    expectIn(own, `href="${sheetPath}"`);
    const sheet = await as(alpha).request(sheetPath);
    expect(sheet.status).toBe(200);
    const sheetText = await sheet.text();
    expectIn(sheetText, "Vacuum truck");
    expectIn(sheetText, "100.00");
    expect((await as(uninvited).request(sheetPath)).status).toBe(404);
    const withSheet = (csv: string) => {
      const body = schedule(["", "", ""], false);
      body.set("price_sheet", new File([csv], "sheet.csv", { type: "text/csv" }));
      return body;
    };
    const badSheet = await as(alpha).request(page, { multipart: withSheet("line,unit_price\n1,95.00\n2,abc\n3,3.00") });
    expect(badSheet.status).toBe(400);
    expectIn(await badSheet.text(), "Row 3:");
    expect(
      (
        await db()
          .select()
          .from(sealedBids)
          .where(eq(sealedBids.id, alphaRow?.id ?? 0))
      )[0]?.revision,
    ).toBe(1);
    const goodSheet = await as(alpha).request(page, {
      multipart: withSheet("line,unit_price\n1,95.00\n2,50.00\n3,3.00"),
    });
    expect(goodSheet.status).toBe(302);
    // 10 h × $95.00 + $125.00 + $300.00 = $1,375.00, as Bravo's: the earlier sent stays first.
    expect(
      await withUnits(
        (
          await db()
            .select()
            .from(sealedBids)
            .where(eq(sealedBids.id, alphaRow?.id ?? 0))
        )[0],
      ),
    ).toMatchObject({
      amountCents: 137_500,
      unitCents: [9_500, 5_000, 300],
      revision: 2,
    });

    // Before the deadline nobody but the seller reads a price.
    for (const reader of [buyer, consultant, "staff", bravo] as const) {
      const response = await as(reader).request(`/auctions/${auction.id}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expectNotIn(html, "$1,425.00");
      expectNotIn(html, "$100.00");
    }
    await passDeadline(auction.id);
    await advanceAuctions(app.services);
    for (const reader of [buyer, consultant, "staff"] as const) {
      const html = await (await as(reader).request(`/auctions/${auction.id}`)).text();
      expectIn(html, "The price schedules side by side, line by line, lowest total first");
      for (const text of ["1. Vacuum truck", "2.5 km", "$90.00", "$900.00", "$950.00", "$350.00", "$1,375.00"]) {
        expectIn(html, text);
      }
      // Lowest total first.
      const table = html.slice(html.indexOf("The price schedules side by side"));
      expect(table.indexOf("Bravo Sealed Trucking")).toBeLessThan(table.indexOf("Alpha Sealed Hauling"));
      expectNotIn(html, "$1,425.00");
    }
    // The award page shows the same schedules above the choice.
    const award = await (await as(buyer).request(`/auctions/${auction.id}/award`)).text();
    expectIn(award, "The price schedules side by side, line by line, lowest total first");
    expectIn(award, "$950.00");
    // And the evaluation page, where the bids are scored.
    const evaluation = await (await as(buyer).request(`/auctions/${auction.id}/evaluation`)).text();
    expectIn(evaluation, "The price schedules side by side, line by line, lowest total first");
    expectIn(evaluation, "$950.00");
  });
});
