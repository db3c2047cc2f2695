import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionAutoBids, auctionBids, auctionEvents, notifications, outboxMessages } from "~db/schema";
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
});
