import { and, asc, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auctionAutoBids,
  auctionBids,
  auctionInvitations,
  auctions,
  bidEffects,
  notifications,
  organizations,
  outboxMessages,
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
import { foldBidEffects } from "../bidding/bid-notices.server";
import { advanceAuctions } from "../clock/auction-clock.server";
import { scaleToAtMost } from "../lots/line-pricing";
import { lotsWithLines } from "../lots/lots.server";
import { NOT_APPROVED, PRACTICE_BUYER, PRACTICE_COMPETITORS, PRACTICE_LOTS_TITLE } from "./practice.server";
import {
  PRACTICE_FLOOR_CENTS,
  PRACTICE_LOT_GAP_MINUTES,
  PRACTICE_LOTS,
  PRACTICE_RESERVE_CENTS,
} from "./practice-rules";

// Practice auctions (issue 21): an approved seller opens one for themselves and bids on the normal
// seller page against simulated competitors; nobody else sees it in any page, list or CSV, and
// nothing about it is notified or e-mailed.

const BANNER = "Practice auction — nothing here is real";

describe.each(databaseKinds)("practice auctions on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let alpha: Party;
  let bravo: Party;
  let applicant: Party;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    const catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Foothills Energy Ltd.");
    alpha = await createSeller(db, { name: "Alpha Hauling Ltd.", ...offering(catalogue) });
    bravo = await createSeller(db, { name: "Bravo Trucking Inc.", ...offering(catalogue) });
    applicant = await createSeller(db, { name: "Not Yet Approved Ltd.", ...offering(catalogue), status: "submitted" });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, alpha, bravo, applicant]);
    // A real auction alpha and bravo are invited to: its notices still go out.
    await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [alpha, bravo] });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const bid = (party: Party, auctionId: number, amount: string) =>
    as(party).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount, confirm: "yes" } });

  it("opens a private practice auction where a simulated competitor undercuts, tells nobody and lists nowhere", async () => {
    const outboxBefore = (await db().select({ n: count() }).from(outboxMessages))[0]?.n ?? 0;
    // Linked from the seller's auction list.
    expectIn(await (await as(alpha).request("/auctions")).text(), 'href="/auctions/practice"');
    // The account page offers it too, to approved sellers only.
    expectIn(await (await as(alpha).request("/account")).text(), 'href="/auctions/practice"');
    expectNotIn(await (await as(buyer).request("/account")).text(), 'href="/auctions/practice"');
    expectIn(await (await as(alpha).request("/auctions/practice")).text(), "Start a practice auction");

    const started = await as(alpha).request("/auctions/practice", { form: {} });
    expect(started.status).toBe(302);
    const location = started.headers.get("location") ?? "";
    const auctionId = Number(/^\/auctions\/(\d+)$/.exec(location)?.[1]);
    const auction = await auctionRow(db(), auctionId);
    expect(auction).toMatchObject({ practice: true, reserveCents: PRACTICE_RESERVE_CENTS, bidCount: 1 });
    const [owner] = await db()
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, auction.organizationId));
    expect(owner?.name).toBe(PRACTICE_BUYER);
    // Starting again while it runs answers the same auction.
    expect((await as(alpha).request("/auctions/practice", { form: {} })).headers.get("location")).toBe(location);

    // The normal seller page, with the banner; the terms are accepted as in a real auction.
    const page = await (await as(alpha).request(location)).text();
    expectIn(page, BANNER);
    expectIn(page, "I accept these terms");
    // Nothing in a practice auction is called binding: its bids bind nobody.
    expectIn(page, "Nothing you bid here binds you.");
    expectNotIn(page.toLowerCase(), "binding");
    expect((await as(alpha).request(location, { form: { intent: "accept-terms" } })).status).toBe(302);
    // Competitor B's opening bid.
    expectIn(await (await as(alpha).request(location)).text(), "$9,900.00");

    // Each bid above the simulated proxy's floor is undercut at once by one decrement.
    const placed = await bid(alpha, auctionId, "9800.00");
    expect(placed.status).toBe(302);
    const afterBid = await (await as(alpha).request(placed.headers.get("location") ?? location)).text();
    expectIn(afterBid, "Your practice bid has been placed. It binds nobody.");
    expectIn(afterBid, "Place practice bid");
    expectNotIn(afterBid.toLowerCase(), "binding");
    const ownBids = await (await as(alpha).request(`${location}/own-bids`)).text();
    expectIn(ownBids, "Practice bids bind nobody");
    expectNotIn(ownBids.toLowerCase(), "binding");
    expect((await auctionRow(db(), auctionId)).lots[0]?.lowestCents).toBe(970_000);
    expectIn(await (await as(alpha).request(location)).text(), "$9,700.00");
    expect((await bid(alpha, auctionId, "9000.00")).status).toBe(302);
    expect((await auctionRow(db(), auctionId)).lots[0]?.lowestCents).toBe(890_000);
    // Under the floor the seller leads for good.
    expect((await bid(alpha, auctionId, "7900.00")).status).toBe(302);
    const led = await auctionRow(db(), auctionId);
    expect(led.lots[0]).toMatchObject({ lowestCents: 790_000, leaderOrganizationId: alpha.organizationId });
    expect(PRACTICE_FLOOR_CENTS).toBeGreaterThan(790_000);
    const bids = await db().select({ n: count() }).from(auctionBids).where(eq(auctionBids.auctionId, auctionId));
    expect(bids[0]?.n).toBe(6);

    // Nobody else reaches it: the buyer side, other sellers, staff; not in the CSV either.
    for (const party of [buyer, bravo, "staff" as const]) {
      expect((await as(party).request(location)).status).toBe(404);
      expect((await as(party).request(`${location}/bids.csv`)).status).toBe(404);
      expect((await as(party).request(`${location}/copy`, { form: {} })).status).toBe(404);
    }
    // In no list, the seller's own included (they reach it from /auctions/practice).
    for (const party of [alpha, bravo, buyer, "staff" as const]) {
      const list = await (await as(party).request("/auctions")).text();
      expectNotIn(list, `href="/auctions/${auctionId}"`);
    }
    expectIn(await (await as(alpha).request("/auctions/practice")).text(), `href="/auctions/${auctionId}"`);

    // It closes on time, and nothing about it was notified or e-mailed.
    await foldBidEffects(app.services, auctionId);
    // Past the real auction's end too: its "closed" notice goes out, the practice one's does not.
    await advanceAuctions(app.services, new Date(Date.now() + 2 * 3_600_000));
    expect((await auctionRow(db(), auctionId)).status).toBe("closed");
    const told = await db().select({ n: count() }).from(notifications).where(eq(notifications.auctionId, auctionId));
    expect(told[0]?.n).toBe(0);
    expect((await db().select({ n: count() }).from(bidEffects).where(eq(bidEffects.auctionId, auctionId)))[0]?.n).toBe(
      0,
    );
    const outbox = await db()
      .select({ subject: outboxMessages.subject, text: outboxMessages.text })
      .from(outboxMessages);
    const aboutPractice = new RegExp(`/auctions/${auctionId}(\\D|$)`);
    expect(outbox.filter((row) => row.subject?.includes("Practice auction") || aboutPractice.test(row.text))).toEqual(
      [],
    );
    // The real auction's "closed" notice still went out (the gate is for practice auctions only).
    expect(outbox.length).toBeGreaterThan(outboxBefore);
    const ended = await (await as(alpha).request(location)).text();
    expectIn(ended, BANNER);
    // Its end says so and offers another, not the real auction's "the buyer is reviewing the bids".
    expectIn(ended, "This practice auction has ended");
    expectIn(ended, "Start another to try again.");
    expectNotIn(ended, "reviewing the bids");
    expectIn(ended, 'action="/auctions/practice"');
    const again = await as(alpha).request("/auctions/practice", { form: {} });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toMatch(/^\/auctions\/\d+$/);
    expect(again.headers.get("location")).not.toBe(location);
  });

  it("practises a rate sheet in lots: B opens each lot with unit prices, C's minimum per lot undercuts until the seller goes under it", async () => {
    const choice = await (await as(bravo).request("/auctions/practice")).text();
    expectIn(choice, "<legend");
    expectIn(choice, "One price");
    expectIn(choice, "A rate sheet in lots");
    expectIn(choice, 'name="kind" value="lots"');
    expect((await as(bravo).request("/auctions/practice", { form: { kind: "sealed" } })).status).toBe(400);

    const started = await as(bravo).request("/auctions/practice", { form: { kind: "lots" } });
    expect(started.status).toBe(302);
    const location = started.headers.get("location") ?? "";
    const auctionId = Number(/^\/auctions\/(\d+)$/.exec(location)?.[1]);
    const auction = await auctionRow(db(), auctionId);
    expect(auction).toMatchObject({
      practice: true,
      title: PRACTICE_LOTS_TITLE,
      lotCloseGapMinutes: PRACTICE_LOT_GAP_MINUTES,
      reserveCents: 3_990_000 + 1_664_000,
      bidCount: 4,
      sequence: 6,
    });
    // Two lots closing the gap apart, the auction with the last; their lines as the rate sheet has them.
    const lots = await lotsWithLines(db(), auctionId);
    expect(lots.map((lot) => [lot.title, lot.reserveCents, lot.decrementKind, lot.decrementValue])).toEqual([
      ["Hauling", 3_990_000, "amount", 50_000],
      ["Rig move", 1_664_000, "amount", 25_000],
    ]);
    const [hauling, rigMove] = lots;
    if (!hauling || !rigMove) throw new Error("no lots");
    expect(rigMove.endsAt.getTime() - hauling.endsAt.getTime()).toBe(PRACTICE_LOT_GAP_MINUTES * 60_000);
    expect(auction.endsAt.getTime()).toBe(rigMove.endsAt.getTime());
    expect(hauling.lines.map((line) => [line.unit, line.quantityThousandths, line.ceilingCents])).toEqual([
      ["hour", 120_000, null],
      ["km", 2_400_000, null],
      ["m³", 350_000, 4_500],
    ]);
    expect(rigMove.lines.map((line) => line.description)).toEqual(
      PRACTICE_LOTS[1]?.lines.map((line) => line.description),
    );

    // Per lot: B's opening bid one decrement under the reserve, with unit prices; C's own opening bid
    // above it (the prices its minimum scales); C's minimum at 80 % of the lot's reserve.
    const competitors = await db()
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .innerJoin(auctionInvitations, eq(auctionInvitations.organizationId, organizations.id))
      .where(and(eq(auctionInvitations.auctionId, auctionId), inArray(organizations.name, [...PRACTICE_COMPETITORS])));
    const idOf = (name: string) => competitors.find((row) => row.name === name)?.id;
    const [openerId, proxyId] = [idOf(PRACTICE_COMPETITORS[0]), idOf(PRACTICE_COMPETITORS[1])];
    const bidsOn = (lotId: number) =>
      db()
        .select({
          seller: auctionBids.organizationId,
          amount: auctionBids.amountCents,
          units: auctionBids.unitCents,
          rank: auctionBids.rank,
        })
        .from(auctionBids)
        .where(eq(auctionBids.lotId, lotId))
        .orderBy(asc(auctionBids.id));
    expect(await bidsOn(hauling.id)).toEqual([
      { seller: openerId, amount: 3_940_000, units: [14_300, 320, 4_160], rank: 1 },
      { seller: proxyId, amount: 3_990_000, units: [14_500, 325, 4_200], rank: 2 },
    ]);
    expect(await bidsOn(rigMove.id)).toEqual([
      { seller: openerId, amount: 1_639_000, units: [38_950, 270], rank: 4 },
      { seller: proxyId, amount: 1_664_000, units: [39_500, 280], rank: 5 },
    ]);
    expect(
      await db()
        .select({
          lot: auctionAutoBids.lotId,
          seller: auctionAutoBids.organizationId,
          minimum: auctionAutoBids.minimumCents,
        })
        .from(auctionAutoBids)
        .where(eq(auctionAutoBids.auctionId, auctionId))
        .orderBy(asc(auctionAutoBids.id)),
    ).toEqual([
      { lot: hauling.id, seller: proxyId, minimum: 3_192_000 },
      { lot: rigMove.id, seller: proxyId, minimum: 1_331_200 },
    ]);
    const lotRow = async (lotId: number) => (await auctionRow(db(), auctionId)).lots.find((lot) => lot.id === lotId);
    expect(await lotRow(hauling.id)).toMatchObject({
      lowestCents: 3_940_000,
      leaderOrganizationId: openerId,
      bidCount: 2,
    });

    // The seller's page lists the lots; each is bid on from the normal lot page, in practice too.
    const page = await (await as(bravo).request(location)).text();
    expectIn(page, BANNER);
    expect((await as(bravo).request(location, { form: { intent: "accept-terms" } })).status).toBe(302);
    const lotsPage = await (await as(bravo).request(location)).text();
    expectIn(lotsPage, `href="/auctions/${auctionId}/lots/${hauling.id}/bid"`);
    expectIn(lotsPage, `href="/auctions/${auctionId}/lots/${rigMove.id}/bid"`);
    const haulingPage = `/auctions/${auctionId}/lots/${hauling.id}/bid`;
    const bidPage = await (await as(bravo).request(haulingPage)).text();
    expectIn(bidPage, BANNER);
    expectIn(bidPage, "Unit price, line 3");
    expectIn(bidPage, "$39,400.00");
    const lineBid = (lotId: number, prices: string[]) =>
      as(bravo).request(`/auctions/${auctionId}/lots/${lotId}/bid`, {
        form: {
          intent: "bid",
          confirm: "yes",
          ...Object.fromEntries(prices.map((price, index) => [`prices[${index}]`, price])),
        },
      });

    // Above C's minimum: undercut at once, in the bid's own round, one decrement under it: C's opening
    // unit prices scaled by decision 027's rule, which here reaches 30 cents under the exact total.
    // 120 h × $140.00 + 2,400 km × $3.10 + 350 m³ × $40.00 = $38,240.00
    const undercutOf = (lot: (typeof lots)[number], total: number, base: number[]) =>
      scaleToAtMost(
        lot.lines.map((line) => ({ quantity: line.quantityThousandths, ceilingCents: line.ceilingCents })),
        base,
        total - lot.decrementValue,
      );
    const expected = undercutOf(hauling, 3_824_000, [14_500, 325, 4_200]);
    expect(expected?.totalCents).toBe(3_773_970);
    expect((await lineBid(hauling.id, ["140.00", "3.10", "40.00"])).status).toBe(302);
    expect(await lotRow(hauling.id)).toMatchObject({ lowestCents: 3_773_970, leaderOrganizationId: proxyId });
    expect((await bidsOn(hauling.id)).at(-1)).toEqual({
      seller: proxyId,
      amount: 3_773_970,
      units: expected?.unitCents,
      rank: 7, // the round's sequence number, as the bid that set it off
    });
    expectIn(await (await as(bravo).request(haulingPage)).text(), "You do not have the lowest bid.");
    // Under it the seller leads for good: 120 × $100.00 + 2,400 × $2.50 + 350 × $30.00 = $28,500.00
    const under = await lineBid(hauling.id, ["100.00", "2.50", "30.00"]);
    expect(under.status).toBe(302);
    expectIn(
      await (await as(bravo).request(under.headers.get("location") ?? haulingPage)).text(),
      "Your practice bid is placed. It binds nobody.",
    );
    expect(await lotRow(hauling.id)).toMatchObject({
      lowestCents: 2_850_000,
      leaderOrganizationId: bravo.organizationId,
    });
    expect((await bidsOn(hauling.id)).at(-1)).toMatchObject({ seller: bravo.organizationId, amount: 2_850_000 });
    const leading = await (await as(bravo).request(haulingPage)).text();
    expectIn(leading, "You have the lowest bid.");
    expectNotIn(leading.toLowerCase(), "binding");
    // The other lot is its own: untouched, then undercut there by C's own minimum.
    expect(await lotRow(rigMove.id)).toMatchObject({ lowestCents: 1_639_000, leaderOrganizationId: openerId });
    // 40 h × $380.00 + 300 km × $2.60 = $15,980.00
    expect((await lineBid(rigMove.id, ["380.00", "2.60"])).status).toBe(302);
    const rigUndercut = undercutOf(rigMove, 1_598_000, [39_500, 280])?.totalCents;
    expect(rigUndercut).toBeLessThanOrEqual(1_573_000);
    expect(await lotRow(rigMove.id)).toMatchObject({ lowestCents: rigUndercut, leaderOrganizationId: proxyId });

    // Nobody else reaches it or its lots.
    const rigPage = `/auctions/${auctionId}/lots/${rigMove.id}`;
    for (const party of [buyer, alpha, "staff" as const]) {
      expect((await as(party).request(location)).status).toBe(404);
      expect((await as(party).request(haulingPage)).status).toBe(404);
      expect((await as(party).request(`${rigPage}/bids`)).status).toBe(404);
      expect((await as(party).request(`${rigPage}/price-sheet.csv`)).status).toBe(404);
      expect((await as(party).request(`${location}/bids.csv`)).status).toBe(404);
    }
    for (const party of [alpha, bravo, buyer, "staff" as const]) {
      expectNotIn(await (await as(party).request("/auctions")).text(), `href="/auctions/${auctionId}"`);
    }

    // Both lots close; nothing was notified; the seller's page of lots says the practice ended and
    // offers another rate sheet.
    await foldBidEffects(app.services, auctionId);
    await advanceAuctions(app.services, new Date(Date.now() + 2 * 3_600_000));
    expect((await auctionRow(db(), auctionId)).status).toBe("closed");
    expect(
      (await db().select({ n: count() }).from(notifications).where(eq(notifications.auctionId, auctionId)))[0]?.n,
    ).toBe(0);
    expect((await db().select({ n: count() }).from(bidEffects).where(eq(bidEffects.auctionId, auctionId)))[0]?.n).toBe(
      0,
    );
    const outbox = await db()
      .select({ subject: outboxMessages.subject, text: outboxMessages.text })
      .from(outboxMessages);
    const aboutPractice = new RegExp(`/auctions/${auctionId}(\\D|$)`);
    expect(outbox.filter((row) => aboutPractice.test(row.text))).toEqual([]);
    const ended = await (await as(bravo).request(location)).text();
    expectIn(ended, BANNER);
    expectIn(ended, "This practice auction has ended");
    expectIn(ended, "Start another to try again.");
    expectNotIn(ended, "reviewing the bids");
    expectIn(ended, 'name="kind" value="lots"');
    const again = await as(bravo).request("/auctions/practice", { form: { kind: "lots" } });
    expect(again.status).toBe(302);
    const againId = Number(/^\/auctions\/(\d+)$/.exec(again.headers.get("location") ?? "")?.[1]);
    expect(againId).not.toBe(auctionId);
    expect((await auctionRow(db(), againId)).lots).toHaveLength(2);
  });

  it("is for approved sellers only", async () => {
    const refused = await as(applicant).request("/auctions/practice", { form: {} });
    expect(refused.status).toBe(403);
    expectIn(await refused.text(), NOT_APPROVED);
    expectNotIn(await (await as(applicant).request("/auctions/practice")).text(), "Start a practice auction");
    expectNotIn(await (await as(applicant).request("/account")).text(), 'href="/auctions/practice"');
    expect((await as(buyer).request("/auctions/practice")).status).toBe(404);
    expect((await as(buyer).request("/auctions/practice", { form: {} })).status).toBe(404);
    expect((await as("staff").request("/auctions/practice")).status).toBe(404);
    const practice = await db()
      .select({ n: count() })
      .from(auctions)
      .innerJoin(auctionInvitations, eq(auctionInvitations.auctionId, auctions.id))
      .where(and(eq(auctions.practice, true), eq(auctionInvitations.organizationId, applicant.organizationId)));
    expect(practice[0]?.n).toBe(0);
  });
});
