import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionBids } from "~db/schema";
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
import { placeManualBid } from "../bidding/bid-queue.server";
import { advanceAuctions } from "../clock/auction-clock.server";
import { moveAuctionTimes } from "./lots.server";

// A seller bids on a lot of line items without JavaScript (issue 31): the lot's lines with a unit
// price each, the total asked about before it binds, a price sheet downloaded and sent back filled
// in (a message per wrong row), a minimum on the lot's total. The auction's page lists the lots;
// nobody but an invited seller reaches a lot's bidding page.

const HAULING = [
  { description: "Vacuum truck", unit: "hour", quantity: 10_000, ceilingCents: null },
  { description: "Mileage", unit: "km", quantity: 2_500, ceilingCents: null },
  { description: "Disposal", unit: "m³", quantity: 100_000, ceilingCents: 400 },
];

describe.each(databaseKinds)("bidding on a lot's page on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let alpha: Party;
  let bravo: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    catalogue = await catalogueForAuctions(db());
    buyer = await createBuyer(db(), "Program Energy Ltd.");
    alpha = await createSeller(db(), { name: "Alpha Vac Ltd.", ...offering(catalogue) });
    bravo = await createSeller(db(), { name: "Bravo Cement Inc.", ...offering(catalogue) });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, alpha, bravo]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const lotted = (sellers: Party[]) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers,
      lotCloseGapMinutes: 30,
      lots: [
        { title: "Hauling", reserveCents: 200_000, decrementKind: "amount", decrementValue: 100, lines: HAULING },
        { title: "Cementing", reserveCents: 500_000, decrementKind: "amount", decrementValue: 1_000 },
      ],
    });

  it("lists the lots, shows a lot's total before it binds, and keeps the lines with the bid", async () => {
    const auction = await lotted([alpha, bravo]);
    const [hauling] = auction.lots;
    if (!hauling) throw new Error("no lot");
    const bidPage = `/auctions/${auction.id}/lots/${hauling.id}/bid`;
    const page = await (await as(alpha).request(`/auctions/${auction.id}`)).text();
    expectIn(page, "Bid on Lot 1: Hauling");
    expectIn(page, `href="${bidPage}"`);
    expectNotIn(page, 'name="amount"');

    const form = await (await as(alpha).request(bidPage)).text();
    expectIn(form, "Unit price, line 3: Disposal, per m³");
    expectIn(form, "Review the total");

    const missing = await as(alpha).request(bidPage, {
      form: { intent: "bid", "prices[0]": "100.00", "prices[1]": "", "prices[2]": "3.00" },
    });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expectIn(missingHtml, "Please enter a unit price for line 2");

    // Without JavaScript the total is asked about first; nothing is placed yet.
    const prices = { intent: "bid", "prices[0]": "100.00", "prices[1]": "50", "prices[2]": "3.00" };
    const review = await as(alpha).request(bidPage, { form: prices });
    expect(review.status).toBe(200);
    expectIn(await review.text(), "Place a bid of $1,425.00 in total?");
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id))).toEqual([]);

    const placed = await as(alpha).request(bidPage, { form: { ...prices, confirm: "yes" } });
    expect(placed.status).toBe(302);
    expect(placed.headers.get("location")).toBe(`${bidPage}?done=placed`);
    const [bid] = await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id));
    expect(bid).toMatchObject({ lotId: hauling.id, amountCents: 142_500, organizationId: alpha.organizationId });
    expect(bid?.unitCents).toEqual([10_000, 5_000, 300]);

    // Over a line's ceiling: the line's own message, nothing placed.
    const over = await as(bravo).request(bidPage, {
      form: { intent: "bid", "prices[0]": "90.00", "prices[1]": "50.00", "prices[2]": "4.01", confirm: "yes" },
    });
    expect(over.status).toBe(400);
    expectIn(await over.text(), "Line 3: the unit price cannot be more than the ceiling of $4.00");

    // The seller's page of the lot: the lowest total and their standing; the buyer's console lists the lots.
    const after = await (await as(alpha).request(bidPage)).text();
    expectIn(after, "$1,425.00");
    expectIn(after, "You have the lowest bid.");
    const history = await (await as(buyer).request(`/auctions/${auction.id}/bids.csv`)).text();
    expectIn(history, "bid_id,placed_at_utc,seller,lot,amount,unit_prices,");
    expectIn(history, "Alpha Vac Ltd.,Lot 1: Hauling,1425.00,100.00;50.00;3.00,manual");
    const buyersConsole = await (await as(buyer).request(`/auctions/${auction.id}`)).text();
    expectIn(buyersConsole, "Lot 2: Cementing");
    expectIn(buyersConsole, "$1,425.00");
  });

  it("takes a filled-in price sheet (a message per wrong row) and a minimum on the lot's total", async () => {
    const auction = await lotted([alpha, bravo]);
    const [hauling] = auction.lots;
    if (!hauling) throw new Error("no lot");
    const bidPage = `/auctions/${auction.id}/lots/${hauling.id}/bid`;
    const sheet = await as(bravo).request(`/auctions/${auction.id}/lots/${hauling.id}/price-sheet.csv`);
    expect(sheet.status).toBe(200);
    const csv = await sheet.text();
    expectIn(csv, "line,description,unit,quantity,unit_price");
    expectIn(csv, "Vacuum truck");

    const filled = csv
      .replace(/(Vacuum truck,hour,10),/, "$1,95.00")
      .replace(/(Mileage,km,2\.5),/, "$1,40.00")
      .replace(/(Disposal,m³,100),/, "$1,x");
    const wrong = await as(bravo).request(bidPage, { form: { intent: "sheet", sheet: filled } });
    expect(wrong.status).toBe(400);
    expectIn(await wrong.text(), "Row 4:");

    const upload = new FormData();
    upload.set("intent", "sheet");
    upload.set("sheet_file", new File([filled.replace(",x", ",2.50")], "sheet.csv", { type: "text/csv" }));
    const read = await as(bravo).request(bidPage, { multipart: upload });
    expect(read.status).toBe(200);
    // 10 × 95.00 + 2.5 × 40.00 + 100 × 2.50 = 1,300.00
    expectIn(await read.text(), "Place a bid of $1,300.00 in total?");

    const minimumFirst = await as(alpha).request(bidPage, { form: { intent: "minimum", minimum: "1000.00" } });
    expect(minimumFirst.status).toBe(400);
    expectIn(await minimumFirst.text(), "Please bid on this lot first");
    expect(
      (
        await as(alpha).request(bidPage, {
          form: { intent: "bid", "prices[0]": "100.00", "prices[1]": "50.00", "prices[2]": "3.00", confirm: "yes" },
        })
      ).status,
    ).toBe(302);
    const minimum = await as(alpha).request(bidPage, { form: { intent: "minimum", minimum: "1000.00" } });
    expect(minimum.status).toBe(302);
    expect(minimum.headers.get("location")).toBe(`${bidPage}?done=minimum`);
    expectIn(await (await as(alpha).request(bidPage)).text(), "$1,000.00");
    // Bravo's sheet now meets Alpha's minimum, which answers a decrement under.
    expect(
      (
        await as(bravo).request(bidPage, {
          form: { intent: "bid", "prices[0]": "95.00", "prices[1]": "40.00", "prices[2]": "2.50", confirm: "yes" },
        })
      ).status,
    ).toBe(302);
    expect((await auctionRow(db(), auction.id)).lots[0]).toMatchObject({
      lowestCents: 129_900,
      leaderOrganizationId: alpha.organizationId,
    });
  });

  it("awards lot by lot after the last lot closes: the cost side by side, a reason where the lowest is passed over", async () => {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      lotCloseGapMinutes: 10,
      lots: [
        { title: "Rig move", reserveCents: 500_000, decrementKind: "amount", decrementValue: 1_000 },
        { title: "Fluids", reserveCents: 300_000, decrementKind: "amount", decrementValue: 1_000 },
        { title: "Cementing", reserveCents: 200_000, decrementKind: "amount", decrementValue: 1_000 },
      ],
    });
    const [rig, fluids, cement] = auction.lots;
    if (!rig || !fluids || !cement) throw new Error("no lots");
    const bid = async (party: Party, lotId: number, amountCents: number) =>
      expect(
        await placeManualBid(db(), {
          auctionId: auction.id,
          lotId,
          organizationId: party.organizationId,
          userId: party.userId,
          amountCents,
        }),
      ).toMatchObject({ kind: "accepted" });
    await bid(alpha, rig.id, 450_000);
    await bid(bravo, rig.id, 440_000);
    await bid(bravo, fluids.id, 270_000);
    await bid(alpha, fluids.id, 250_000);
    const award = `/auctions/${auction.id}/award`;
    expectIn(await (await as(buyer).request(award)).text(), "An auction is awarded after bidding closes.");
    await moveAuctionTimes(db(), auction.id, {
      startsAt: new Date(Date.now() - 3_600_000),
      endsAt: new Date(Date.now() - 1_800_000),
    });
    await advanceAuctions(app.services);

    const page = await (await as(buyer).request(award)).text();
    expectIn(page, "Each lot to its lowest bid");
    expectIn(page, "$6,900.00"); // 4,400 + 2,500
    expectIn(page, `Every lot to Alpha Vac Ltd.`);
    expectIn(page, "Lot 3: Cementing: nobody bid.");
    // Every lot to Bravo ticks Bravo's bids; fluids then passes over the lowest and needs a reason.
    const bravoBids = await db()
      .select({ id: auctionBids.id, lotId: auctionBids.lotId })
      .from(auctionBids)
      .where(and(eq(auctionBids.auctionId, auction.id), eq(auctionBids.organizationId, bravo.organizationId)));
    const bravoOn = (lotId: number) => String(bravoBids.find((row) => row.lotId === lotId)?.id);
    const oneSeller = await as(buyer).request(award, {
      form: { [`lot_${rig.id}`]: bravoOn(rig.id), [`lot_${fluids.id}`]: bravoOn(fluids.id) },
    });
    expect(oneSeller.status).toBe(400);
    expectIn(await oneSeller.text(), "Lot 2: Fluids: Please say why you are passing over the lowest bid on this lot");

    const choices = {
      [`lot_${rig.id}`]: bravoOn(rig.id),
      [`lot_${fluids.id}`]: bravoOn(fluids.id),
      [`reason_${fluids.id}`]: "One crew for the whole program",
    };
    const asked = await as(buyer).request(award, { form: choices });
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "Lot 2: Fluids: Bravo Cement Inc. at $2,700.00");
    const done = await as(buyer).request(award, { form: { ...choices, confirm: "yes" } });
    expect(done.status).toBe(302);
    const awarded = await auctionRow(db(), auction.id);
    expect(awarded.status).toBe("awarded");
    expect(awarded.lots.map((lot) => [lot.awardedOrganizationId, lot.awardReason])).toEqual([
      [bravo.organizationId, null],
      [bravo.organizationId, "One crew for the whole program"],
      [null, null],
    ]);
    const console = await (await as(buyer).request(`/auctions/${auction.id}`)).text();
    expectIn(console, "Bravo Cement Inc. at $2,700.00 (lowest passed over: One crew for the whole program)");
    expectIn(await (await as(bravo).request(`/auctions/${auction.id}`)).text(), "You won lots of this auction");
    expectIn(await (await as(alpha).request(`/auctions/${auction.id}`)).text(), "Not awarded to you");
    // Once only.
    expect((await as(buyer).request(award, { form: { ...choices, confirm: "yes" } })).status).toBe(409);
  });

  it("is for invited sellers only", async () => {
    const auction = await lotted([alpha]);
    const [hauling] = auction.lots;
    if (!hauling) throw new Error("no lot");
    const bidPage = `/auctions/${auction.id}/lots/${hauling.id}/bid`;
    expect((await as(bravo).request(bidPage)).status).toBe(404);
    expect((await as(buyer).request(bidPage)).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${auction.id}/lots/${hauling.id}/price-sheet.csv`)).status).toBe(404);
    expect((await as(alpha).request(`/auctions/${auction.id}/lots/999999/bid`)).status).toBe(404);
    expect((await as(bravo).request(bidPage, { form: { intent: "minimum", minimum: "1000.00" } })).status).toBe(404);
    // Bids by phone take no lot yet: the page says so and enters nothing.
    const byPhone = `/auctions/${auction.id}/on-behalf`;
    expectIn(await (await as(buyer).request(byPhone)).text(), "each lot is bid on from its own page");
    const phoned = await as(buyer).request(byPhone, {
      form: { seller: String(alpha.organizationId), what: "bid", amount: "1000.00", caller: "Pat", calledAt: "10:00" },
    });
    expect(phoned.status).toBe(409);
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id))).toEqual([]);
  });
});
