import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionAutoBids, auctionBids, auctionEvents, auctions, notifications, outboxMessages } from "~db/schema";
import {
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
import { HAULING_AND_CEMENTING } from "../../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Bids entered on a seller's behalf (issue 21) through the pages, as a browser without JavaScript
// sends them: who may (the auction's consultant; the buyer only when no consultant is part of it;
// staff), that every bidding rule is the seller's own, that bad input is answered at the field with
// nothing written, and that the bid is marked everywhere and the seller told.

describe.each(databaseKinds)("bids on a seller's behalf on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let otherBuyer: Party;
  let consultant: Party;
  let evaluator: Party;
  let alpha: Party;
  let bravo: Party;
  let charlie: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Foothills Energy Ltd.");
    otherBuyer = await createBuyer(db, "Other Energy Ltd.");
    consultant = await createBuyer(db, "Prairie Auctioneers Ltd.", 4);
    evaluator = await createBuyer(db, "Evaluating Consultants Inc.", 4);
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Hauling Ltd.", ...offers });
    bravo = await createSeller(db, { name: "Bravo Trucking Inc.", ...offers });
    charlie = await createSeller(db, { name: "Charlie Crushing Inc.", ...offers });
    as = await signedInClients(
      () => createClient(app.baseURL),
      [buyer, otherBuyer, consultant, evaluator, alpha, bravo, charlie],
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  /** Now on the clock of the one entering it (no time zone set: America/Edmonton). */
  const nowText = () =>
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "America/Edmonton",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date());
  const auction = (owner: Party, options: Partial<Parameters<typeof createAuctionRow>[1]> = {}) =>
    createAuctionRow(db(), {
      owner,
      ...catalogue,
      sellers: [alpha, bravo],
      reserveCents: 1_000_000,
      decrement: { kind: "amount", value: 10_000 },
      ...options,
    });
  const form = (seller: Party, amount: string, changes: Record<string, string> = {}) => ({
    seller: String(seller.organizationId),
    what: "bid",
    amount,
    caller: "Sam Seller",
    calledAt: nowText(),
    details: "Their internet is down",
    ...changes,
  });
  const enter = (party: Party | "staff", auctionId: number, body: Record<string, string>) =>
    as(party).request(`/auctions/${auctionId}/on-behalf`, { form: body });
  const bidCount = async (auctionId: number) =>
    (await db().select({ total: count() }).from(auctionBids).where(eq(auctionBids.auctionId, auctionId)))[0]?.total;
  const noticesOf = async (party: Party) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, party.userId), eq(notifications.kind, "bid-on-behalf")));

  it("lets the auction's consultant, the buyer only without a consultant, and staff in; nobody else", async () => {
    const byBuyer = await auction(buyer);
    const byConsultant = await auction(consultant);
    const evaluated = await auction(buyer, { evaluatorOrganizationId: evaluator.organizationId });
    const allowed: [Party | "staff", number][] = [
      [buyer, byBuyer.id],
      ["staff", byBuyer.id],
      [consultant, byConsultant.id],
      [evaluator, evaluated.id],
      ["staff", evaluated.id],
    ];
    for (const [party, auctionId] of allowed) {
      const page = await as(party).request(`/auctions/${auctionId}/on-behalf`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expectIn(html, "Alpha Hauling Ltd.");
      expectIn(html, "Name of the person who phoned");
      // The console links to the page.
      expectIn(await (await as(party).request(`/auctions/${auctionId}`)).text(), `/auctions/${auctionId}/on-behalf`);
    }
    const refused: [Party, number, number][] = [
      [buyer, evaluated.id, 403], // a consultant is part of it: the buyer does not
      [alpha, byBuyer.id, 404],
      [otherBuyer, byBuyer.id, 404],
      [consultant, byBuyer.id, 404],
    ];
    for (const [party, auctionId, status] of refused) {
      expect((await as(party).request(`/auctions/${auctionId}/on-behalf`)).status).toBe(status);
      expect((await enter(party, auctionId, form(alpha, "9000"))).status).toBe(status);
      expect(await bidCount(auctionId)).toBe(0);
    }
    expectNotIn(await (await as(buyer).request(`/auctions/${evaluated.id}`)).text(), "/on-behalf");
    expectNotIn(await (await as(alpha).request(`/auctions/${byBuyer.id}`)).text(), "/on-behalf");
  });

  it("places the bid as the seller's own, marks it everywhere and tells the seller", async () => {
    const open = await auction(consultant);
    const entered = await enter(consultant, open.id, form(alpha, "9,000.00"));
    expect(entered.status).toBe(302);
    expect(entered.headers.get("location")).toBe(`/auctions/${open.id}/on-behalf?done=bid`);
    const [bid] = await db().select().from(auctionBids).where(eq(auctionBids.auctionId, open.id));
    expect(bid).toMatchObject({
      organizationId: alpha.organizationId,
      amountCents: 900_000,
      kind: "manual",
      userId: null,
      enteredByUserId: consultant.userId,
    });
    expect(bid?.onBehalfNote).toMatch(
      /^Phoned by Sam Seller at \d\d:\d\d \(America\/Edmonton\): Their internet is down$/,
    );
    // The audit trail: the bid's event names who entered it and carries the note.
    const [event] = await db()
      .select()
      .from(auctionEvents)
      .where(and(eq(auctionEvents.auctionId, open.id), eq(auctionEvents.kind, "bid")));
    expect(event).toMatchObject({ userId: consultant.userId, organizationId: alpha.organizationId });
    expect(event?.data).toMatchObject({ onBehalf: true, onBehalfNote: bid?.onBehalfNote });
    // The seller: a notification, its e-mail queued, and the bid in their list.
    const [notice] = await noticesOf(alpha);
    expect(notice?.subject).toBe(`Bid entered on your behalf: ${open.title}`);
    expect(notice?.text).toContain("Prairie Auctioneers Ltd.");
    expect(notice?.text).toContain("Phoned by Sam Seller");
    const [mail] = await db()
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, alpha.email), eq(outboxMessages.subject, notice?.subject ?? "")));
    expect(mail).toBeDefined();
    for (const path of [`/auctions/${open.id}`, `/auctions/${open.id}/own-bids`]) {
      const html = await (await as(alpha).request(path)).text();
      expectIn(html, "Entered on your behalf by");
      expectIn(html, "Prairie Auctioneers Ltd.");
    }
    // The buyer's side: the console and the CSV.
    const console = await (await as(consultant).request(`/auctions/${open.id}`)).text();
    expectIn(console, "behalf by");
    expectIn(console, "Phoned by Sam Seller");
    const csv = await (await as(consultant).request(`/auctions/${open.id}/bids.csv`)).text();
    expect(csv.split("\r\n")[0]).toBe(
      "bid_id,placed_at_utc,seller,amount,kind,triggered_by_bid_id,entered_on_behalf_by,on_behalf_note",
    );
    expect(csv).toContain("Prairie Auctioneers Ltd.");
    expect(csv).toContain("Phoned by Sam Seller");
    // Another seller sees nothing of it but the price.
    const bravoPage = await (await as(bravo).request(`/auctions/${open.id}`)).text();
    expectNotIn(bravoPage, "Alpha Hauling");
    expectNotIn(bravoPage, "Sam Seller");
  });

  it("applies the seller's own rules: decrement, reserve, typo guard; closed and sealed are refused", async () => {
    const open = await auction(buyer);
    expect((await enter(buyer, open.id, form(alpha, "9000"))).status).toBe(302);
    // Not the decrement under the lowest: the message of the seller's own bid, at the amount.
    const own = await as(bravo).request(`/auctions/${open.id}`, { form: { intent: "bid", amount: "8950" } });
    expect(own.status).toBe(400);
    const refused = await enter(buyer, open.id, form(bravo, "8950"));
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expectIn(html, "$8,900.00 or less");
    expectIn(await own.text(), "$8,900.00 or less");
    expectIn(html, 'value="Sam Seller"'); // what was typed is kept
    // Over the reserve, for a seller with no bid yet.
    const fresh = await auction(buyer);
    expect((await enter(buyer, fresh.id, form(alpha, "10,000.01"))).status).toBe(400);
    expect(await bidCount(fresh.id)).toBe(0);
    // A bid far under the price is asked about once more, then placed when confirmed with the caller.
    const asked = await enter(buyer, open.id, form(bravo, "100"));
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "The caller confirmed this amount");
    expect(await bidCount(open.id)).toBe(1);
    expect((await enter(buyer, open.id, form(bravo, "100", { confirm: "yes" }))).status).toBe(302);
    expect(await bidCount(open.id)).toBe(2);
    // A seller who has not accepted the terms cannot be chosen.
    const notAccepted = await auction(buyer, { sellers: [alpha] });
    const notInvited = await enter(buyer, notAccepted.id, form(charlie, "9000"));
    expect(notInvited.status).toBe(400);
    expectIn(await notInvited.text(), "Choose the seller who phoned");
    // Closed, not yet open, sealed: the usual bidding messages, nothing written.
    const closed = await auction(buyer, {
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 60_000),
    });
    const late = await enter(buyer, closed.id, form(alpha, "9000"));
    expect(late.status).toBe(409);
    expectIn(await late.text(), "Bidding has closed.");
    const scheduled = await auction(buyer, {
      status: "scheduled",
      startsAt: new Date(Date.now() + 3_600_000),
      endsAt: new Date(Date.now() + 7_200_000),
    });
    const early = await enter(buyer, scheduled.id, form(alpha, "9000"));
    expect(early.status).toBe(409);
    expectIn(await early.text(), "Bidding has not started yet.");
    const sealed = await auction(buyer, { kind: "sealed" });
    expectIn(await (await as(buyer).request(`/auctions/${sealed.id}/on-behalf`)).text(), "sealed-bid auction");
    expect((await enter(buyer, sealed.id, form(alpha, "9000"))).status).toBe(409);
    for (const id of [closed.id, scheduled.id, sealed.id]) expect(await bidCount(id)).toBe(0);
  });

  it("answers bad input at the fields with nothing written", async () => {
    const open = await auction(buyer);
    const before = (await noticesOf(alpha)).length;
    const cases: [Record<string, string>, string][] = [
      [form(alpha, "9000", { caller: "" }), "Enter the name of the person who phoned"],
      [form(alpha, "nine thousand"), "Enter an amount in dollars and cents"],
      [form(alpha, ""), "Enter the amount the seller asked for"],
      [form(alpha, "9000", { calledAt: "25:00" }), "Enter the time of the call as hours and minutes"],
      [form(alpha, "9000", { calledAt: "" }), "Enter the time of the call as hours and minutes"],
      [form(alpha, "9000", { seller: "x" }), "Choose the seller who phoned"],
      [form(alpha, "9000", { what: "sealed" }), "Choose whether to place a bid or set a minimum"],
      [form(alpha, "9000", { caller: "Sam\u0000" }), "characters that are not allowed"],
    ];
    for (const [body, message] of cases) {
      const answer = await enter(buyer, open.id, body);
      expect(answer.status, message).toBe(400);
      const html = await answer.text();
      expectIn(html, message);
      expectIn(html, "aria-invalid");
    }
    // A call time in the future (an hour from now) is refused too.
    const [hours = 0, minutes = 0] = nowText().split(":").map(Number);
    const later = `${String((hours + 1) % 24).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
    const future = await enter(buyer, open.id, form(alpha, "9000", { calledAt: later }));
    expect(future.status).toBe(400);
    expectIn(await future.text(), "within the last 12 hours");
    expect(await bidCount(open.id)).toBe(0);
    expect((await noticesOf(alpha)).length).toBe(before);
  });

  it("takes only the digits of the seller's id: hex, exponent, spaced, decimal and binary forms are refused", async () => {
    const open = await auction(buyer);
    const id = alpha.organizationId;
    // The brief's literal forms, and the same forms of a seller who may bid here.
    const literal = ["0x10", "1e1", " 7", "7.0", "0b11"];
    const ofAlpha = [`0x${id.toString(16)}`, `${id}e0`, ` ${id}`, `${id}.0`, `0b${id.toString(2)}`];
    for (const seller of [...literal, ...ofAlpha]) {
      const answer = await enter(buyer, open.id, form(alpha, "9000", { seller }));
      expect(answer.status, seller).toBe(400);
      const html = await answer.text();
      expectIn(html, "Choose the seller who phoned");
      expectIn(html, "aria-invalid");
    }
    expect(await bidCount(open.id)).toBe(0);
  });

  it("sets a minimum on the seller's behalf; the seller's own minimum clears the mark", async () => {
    const open = await auction(consultant);
    const set = await enter("staff", open.id, form(bravo, "8000", { what: "minimum" }));
    expect(set.status).toBe(302);
    const [autoBid] = await db()
      .select()
      .from(auctionAutoBids)
      .where(and(eq(auctionAutoBids.auctionId, open.id), eq(auctionAutoBids.organizationId, bravo.organizationId)));
    expect(autoBid?.minimumCents).toBe(800_000);
    expect(autoBid?.onBehalfNote).toMatch(/^Phoned by Sam Seller/);
    const [event] = await db()
      .select()
      .from(auctionEvents)
      .where(and(eq(auctionEvents.auctionId, open.id), eq(auctionEvents.kind, "auto-bid-set")));
    expect(event?.data).toMatchObject({ onBehalf: true, minimumCents: 800_000 });
    const [notice] = (await noticesOf(bravo)).filter((row) => row.auctionId === open.id);
    expect(notice?.subject).toBe(`Minimum set on your behalf: ${open.title}`);
    expect(notice?.text).toContain("marketplace staff");
    await as(bravo).request(`/auctions/${open.id}`, { form: { intent: "auto-bid", minimum: "7000" } });
    const [own] = await db()
      .select()
      .from(auctionAutoBids)
      .where(and(eq(auctionAutoBids.auctionId, open.id), eq(auctionAutoBids.organizationId, bravo.organizationId)));
    expect(own).toMatchObject({ minimumCents: 700_000, onBehalfNote: null });
  });
  // Lots (issue 31): lot 1 "Cementing" as one amount, lot 2 "Hauling" priced by three lines (the last
  // with a ceiling of $4.00); `gap` minutes between the lots' closings.
  const lotted = (options: Partial<Parameters<typeof createAuctionRow>[1]> = {}) => {
    const [hauling, cementing] = HAULING_AND_CEMENTING;
    return auction(consultant, { lots: [cementing, hauling].filter((lot) => lot !== undefined), ...options });
  };
  const haulingPrices = (prices: string[], changes: Record<string, string> = {}) => {
    const { amount: _, ...rest } = form(alpha, "");
    return {
      ...rest,
      ...Object.fromEntries(prices.map((price, index) => [`prices[${index}]`, price])),
      pricing: "lines",
      ...changes,
    };
  };
  /** As the browser sends it: to the lot's own address. */
  const enterOn = (auctionId: number, lotId: number, body: Record<string, string>) =>
    as(consultant).request(`/auctions/${auctionId}/on-behalf?lot=${lotId}`, { form: body });
  const bidsOf = (auctionId: number) => db().select().from(auctionBids).where(eq(auctionBids.auctionId, auctionId));

  it("enters a bid by phone on lot 2 by its unit prices: the total asked about, then the bid on that lot, marked and told", async () => {
    const open = await lotted();
    const [cementing, hauling] = open.lots;
    if (!cementing || !hauling) throw new Error("no lots");
    const page = `/auctions/${open.id}/on-behalf`;
    // The lots to choose from, each by position and title with its closing; the first is shown.
    const first = await (await as(consultant).request(page)).text();
    expectIn(first, "Which lot did they ask about?");
    expectIn(first, "Lot 1: Cementing (open for bidding, closes");
    expectIn(first, "Lot 2: Hauling (open for bidding, closes");
    expectIn(first, "Amount in dollars");
    expectNotIn(first, "Unit price, line 1");
    // Chosen with a plain GET: lot 2's lines, a unit price each.
    const second = await (await as(consultant).request(`${page}?lot=${hauling.id}`)).text();
    expectIn(second, "Unit price, line 3: Disposal, per m³");
    expectIn(second, `name="lot" value="${hauling.id}"`);
    expectIn(second, "$4.00"); // the ceiling
    expectIn(second, "Their secret minimum for the lot&#x27;s total, in dollars");

    // Without JavaScript: the total first, nothing placed.
    const body = haulingPrices(["100.00", "50", "3.00"], { lot: String(hauling.id) });
    const review = await enterOn(open.id, hauling.id, body);
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expectIn(reviewHtml, "Place a bid of $1,425.00 in total on Lot 2: Hauling?");
    expectIn(reviewHtml, "Yes, place this bid");
    expectIn(reviewHtml, 'value="Sam Seller"');
    expect(await bidsOf(open.id)).toEqual([]);

    // Confirmed: on lot 2, with its unit prices and who entered it.
    const placed = await enterOn(open.id, hauling.id, { ...body, confirm: "yes" });
    expect(placed.status).toBe(302);
    expect(placed.headers.get("location")).toBe(`${page}?lot=${hauling.id}&done=bid`);
    const [bid] = await bidsOf(open.id);
    expect(bid).toMatchObject({
      lotId: hauling.id,
      organizationId: alpha.organizationId,
      amountCents: 142_500,
      unitCents: [10_000, 5_000, 300],
      kind: "manual",
      userId: null,
      enteredByUserId: consultant.userId,
    });
    expect(bid?.onBehalfNote).toMatch(
      /^Phoned by Sam Seller at \d\d:\d\d \(America\/Edmonton\): Their internet is down$/,
    );
    expectIn(await (await as(consultant).request(`${page}?lot=${hauling.id}&done=bid`)).text(), "on Lot 2: Hauling");
    const [event] = await db()
      .select()
      .from(auctionEvents)
      .where(and(eq(auctionEvents.auctionId, open.id), eq(auctionEvents.kind, "bid")));
    expect(event).toMatchObject({ userId: consultant.userId, organizationId: alpha.organizationId });
    expect(event?.data).toMatchObject({ onBehalf: true, onBehalfNote: bid?.onBehalfNote });
    // The seller is told, with the lot and its unit prices.
    const [notice] = (await noticesOf(alpha)).filter((row) => row.auctionId === open.id);
    expect(notice?.subject).toBe(`Bid entered on your behalf: ${open.title}`);
    expect(notice?.text).toContain(`"${open.title}", Lot 2: Hauling`);
    expect(notice?.text).toContain("a bid of $1,425.00 in total (unit prices, line by line: $100.00, $50.00, $3.00)");
    expect(notice?.text).toContain("Prairie Auctioneers Ltd.");
    // The seller's own bids, the console and the CSV mark it; the CSV names its lot and unit prices.
    for (const path of [`/auctions/${open.id}/own-bids`, `/auctions/${open.id}`]) {
      const own = await (await as(alpha).request(path)).text();
      expectIn(own, "Entered on your behalf by");
      expectIn(own, "<td>Lot 2: Hauling</td>");
    }
    const console = await (await as(consultant).request(`/auctions/${open.id}`)).text();
    expectIn(console, "Entered on the seller&#x27;s behalf by");
    expectIn(console, "Lot 2: Hauling");
    const csv = await (await as(consultant).request(`/auctions/${open.id}/bids.csv`)).text();
    expectIn(csv, "Alpha Hauling Ltd.,Lot 2: Hauling,1425.00,100.00;50.00;3.00,manual,,");
    expectIn(csv, "Prairie Auctioneers Ltd.");

    // Lot 1 is bid on as one amount, as before lots, and lands there.
    expect((await enter(consultant, open.id, { ...form(bravo, "4,900.00"), lot: String(cementing.id) })).status).toBe(
      302,
    );
    const onCementing = (await bidsOf(open.id)).filter((row) => row.lotId === cementing.id);
    expect(onCementing).toMatchObject([
      { organizationId: bravo.organizationId, amountCents: 490_000, unitCents: null },
    ]);
    // A minimum on lot 2's total, for the seller who bid there.
    const minimum = await enter(consultant, open.id, {
      ...form(alpha, "1,000.00", { what: "minimum" }),
      lot: String(hauling.id),
      pricing: "lines",
    });
    expect(minimum.status).toBe(302);
    const [autoBid] = await db()
      .select()
      .from(auctionAutoBids)
      .where(and(eq(auctionAutoBids.lotId, hauling.id), eq(auctionAutoBids.organizationId, alpha.organizationId)));
    expect(autoBid).toMatchObject({ minimumCents: 100_000 });
    expect(autoBid?.onBehalfNote).toMatch(/^Phoned by Sam Seller/);
  });

  it("refuses a line over its ceiling, a missing price and a closed lot with their messages; nothing written", async () => {
    // Lot 1 closed a minute ago; lot 2 closes two hours after it.
    const open = await lotted({
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 60_000),
      lotCloseGapMinutes: 120,
    });
    const [cementing, hauling] = open.lots;
    if (!cementing || !hauling) throw new Error("no lots");
    const lot = String(hauling.id);
    const over = await enterOn(open.id, hauling.id, haulingPrices(["90.00", "50.00", "4.01"], { lot, confirm: "yes" }));
    expect(over.status).toBe(400);
    const overHtml = await over.text();
    expectIn(overHtml, "Line 3: the unit price cannot be more than the ceiling of $4.00");
    expectIn(overHtml, 'href="#on-behalf-price-2"');
    expectIn(overHtml, 'value="4.01"'); // what was typed is kept
    expectIn(overHtml, 'value="Sam Seller"');
    // Not even asked about without JavaScript: refused before the total is shown.
    const unconfirmed = await enter(consultant, open.id, haulingPrices(["90.00", "50.00", "4.01"], { lot }));
    expect(unconfirmed.status).toBe(400);
    expectNotIn(await unconfirmed.text(), "Yes, place this bid");
    const missing = await enterOn(open.id, hauling.id, haulingPrices(["90.00", "", "3.00"], { lot }));
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expectIn(missingHtml, "Please enter a unit price for line 2");
    expectIn(missingHtml, 'href="#on-behalf-price-1"');
    expectIn(missingHtml, "aria-invalid");

    // The closed lot cannot be chosen on the page, from a link, or by a post.
    const page = await (await as(consultant).request(`/auctions/${open.id}/on-behalf`)).text();
    expectIn(page, "Lot 1: Cementing (closed: cannot be chosen)");
    expectIn(page, "Unit price, line 1: Vacuum truck, per hour"); // the first lot still open is shown
    const linked = await (await as(consultant).request(`/auctions/${open.id}/on-behalf?lot=${cementing.id}`)).text();
    expectIn(linked, "Bidding on Lot 1: Cementing has closed: choose a lot that is still open");
    const late = await enter(consultant, open.id, { ...form(alpha, "4000"), lot: String(cementing.id) });
    expect(late.status).toBe(409);
    const lateHtml = await late.text();
    expectIn(lateHtml, "Bidding on Lot 1: Cementing has closed: choose a lot that is still open");
    expectIn(lateHtml, 'href="#on-behalf-lot-1"');
    // Over the lot's reserve: the rules' own message, for the whole bid.
    const reserve = await enter(
      consultant,
      open.id,
      haulingPrices(["200.00", "50.00", "3.00"], { lot, confirm: "yes" }),
    );
    expect(reserve.status).toBe(400);
    expectIn(await reserve.text(), "$2,000.00");
    expect(await bidsOf(open.id)).toEqual([]);
    expect((await noticesOf(alpha)).filter((row) => row.auctionId === open.id)).toEqual([]);
  });

  it("answers odd posts on lots with a 4xx and a message, never a 5xx, and enters nothing", async () => {
    const open = await lotted();
    const other = await lotted();
    const single = await auction(consultant);
    const [cementing, hauling] = open.lots;
    if (!cementing || !hauling) throw new Error("no lots");
    const lot = String(hauling.id);
    const odd: [number, Record<string, string>, string][] = [
      [open.id, form(alpha, "4000"), "Choose the lot the seller bids on"], // no lot
      [open.id, { ...form(alpha, "4000"), lot: "abc" }, "Choose the lot the seller bids on"],
      [open.id, { ...form(alpha, "4000"), lot: `${cementing.id}.0` }, "Choose the lot the seller bids on"],
      [open.id, { ...form(alpha, "4000"), lot: String(other.lots[0]?.id) }, "Choose the lot the seller bids on"],
      [single.id, { ...form(alpha, "4000"), lot: String(other.lots[0]?.id) }, "Choose the lot the seller bids on"],
      [open.id, { ...haulingPrices([], { lot }), prices: "abc" }, "Enter a unit price in dollars and cents"],
      [
        open.id,
        haulingPrices(["1"], { lot, "prices[7]": "2", confirm: "yes" }),
        "Please enter a unit price for line 2",
      ],
      [
        open.id,
        haulingPrices(["1e9999", "-5", "NaN"], { lot, confirm: "yes" }),
        "Enter a unit price in dollars and cents",
      ],
      [open.id, haulingPrices(["99999999999999999", "1", "1"], { lot }), "Enter a unit price in dollars and cents"],
      [open.id, haulingPrices(["90000000000.00", "1", "1"], { lot }), "total is too large"],
      [open.id, haulingPrices(["1", "1", "1"], { lot: String(cementing.id) }), "Enter the amount the seller asked for"],
      [
        open.id,
        { ...haulingPrices(["1", "1", "1"], { lot }), pricing: "none" },
        "Enter the amount the seller asked for",
      ],
    ];
    for (const [auctionId, body, message] of odd) {
      const answer = await enter(consultant, auctionId, body);
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expectIn(await answer.text(), message);
    }
    // A lot that is not one of the auction's, asked for by a link: the page says so and shows the first.
    const linked = await as(consultant).request(`/auctions/${open.id}/on-behalf?lot=${other.lots[1]?.id}`);
    expect(linked.status).toBe(200);
    expectIn(await linked.text(), "Choose the lot the seller bids on");
    expect((await as(consultant).request(`/auctions/${open.id}/on-behalf?lot=x%00`)).status).toBe(200);
    for (const id of [open.id, other.id, single.id]) expect(await bidCount(id)).toBe(0);
    // Every lot closed: nothing to enter.
    await db().update(auctions).set({ status: "closed" }).where(eq(auctions.id, other.id));
    expectIn(
      await (await as(consultant).request(`/auctions/${other.id}/on-behalf`)).text(),
      "Bidding has closed on every lot.",
    );
  });
});
