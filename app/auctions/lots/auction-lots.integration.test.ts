import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionBids, auctionLineItems, auctionLots, auctions, evaluationCriteria, evaluationScores } from "~db/schema";
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
import { expectIn, expectNotIn, htmlBetween, tableRowTexts } from "../../../tests/support/html";
import { closedLotsWithBids, HAULING_AND_CEMENTING } from "../../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { placeManualBid } from "../bidding/bid-queue.server";
import { advanceAuctions } from "../clock/auction-clock.server";
import { moveAuctionTimes } from "./lots.server";

// A buyer sets up a lotted auction without JavaScript (issue 31): a lot's lines typed as rows (added
// and removed by the form's own buttons) or pasted as CSV with a message per wrong row and nothing
// saved until all are right; a second lot closing later; lots removed and renumbered; the terms
// form keeps the lots. Only the auction's own side, only before bidding, never a sealed auction.
// Then a seller bids on a lot of line items: the lot's lines with a unit price each, the total asked
// about before it binds, a price sheet downloaded and sent back filled in (a message per wrong row),
// a minimum on the lot's total; the lotted award; nobody but an invited seller reaches a lot's
// bidding page. One app per database for all of it.

describe.each(databaseKinds)("lots and line items on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let alpha: Party;
  let bravo: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    catalogue = await catalogueForAuctions(db());
    buyer = await createBuyer(db(), "Lotted Energy Ltd.");
    alpha = await createSeller(db(), { name: "Alpha Vac Ltd.", ...offering(catalogue) });
    bravo = await createSeller(db(), { name: "Bravo Cement Inc.", ...offering(catalogue) });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, alpha, bravo]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const future = () => ({
    status: "draft" as const,
    startsAt: new Date(Date.now() + 86_400_000),
    endsAt: new Date(Date.now() + 86_400_000 + 3_600_000),
  });
  const linesOf = (lotId: number) =>
    db()
      .select()
      .from(auctionLineItems)
      .where(eq(auctionLineItems.lotId, lotId))
      .orderBy(asc(auctionLineItems.position));
  const lotsOf = (auctionId: number) =>
    db().select().from(auctionLots).where(eq(auctionLots.auctionId, auctionId)).orderBy(asc(auctionLots.position));
  const lotForm = (extra: Record<string, string>) => ({
    title: "Hauling",
    reserve: "50000.00",
    decrement_kind: "amount",
    decrement_amount: "100.00",
    ...extra,
  });

  it("takes a lot's lines as rows, adds and removes rows without JavaScript, and keeps the lots on the terms form", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future() });
    const [only] = auction.lots;
    if (!only) throw new Error("no lot");
    const list = await (await as(buyer).request(`/auctions/${auction.id}/lots`)).text();
    expectIn(list, "Lot 1");
    expectIn(list, `href="/auctions/${auction.id}/lots/${only.id}"`);

    // '+ Add line' without JavaScript: the page again, one row more, what was typed kept, nothing saved.
    const row = {
      "lines[0].description": "Vacuum truck",
      "lines[0].unit": "hour",
      "lines[0].quantity": "120",
      "lines[0].ceiling": "185.00",
    };
    const added = await as(buyer).request(`/auctions/${auction.id}/lots/${only.id}`, {
      form: lotForm({ ...row, __intent__: JSON.stringify({ type: "insert", payload: { name: "lines" } }) }),
    });
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    expectIn(addedHtml, 'value="Vacuum truck"');
    expectIn(addedHtml, 'name="lines[1].description"');
    expect(await linesOf(only.id)).toHaveLength(1);

    // A wrong row: its own messages, at its fields; nothing saved.
    const wrong = await as(buyer).request(`/auctions/${auction.id}/lots/${only.id}`, {
      form: lotForm({ ...row, "lines[1].description": "Disposal", "lines[1].unit": "m³", "lines[1].quantity": "0" }),
    });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expectIn(wrongHtml, "Please enter a quantity above zero with at most three decimals, like 12.5");
    expectIn(wrongHtml, 'value="Disposal"');
    expect(await linesOf(only.id)).toHaveLength(1);

    const saved = await as(buyer).request(`/auctions/${auction.id}/lots/${only.id}`, {
      form: lotForm({
        ...row,
        "lines[1].description": "Disposal",
        "lines[1].unit": "m³",
        "lines[1].quantity": "2,500.125",
      }),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/auctions/${auction.id}/lots?done=saved`);
    expect(await linesOf(only.id)).toMatchObject([
      { position: 1, description: "Vacuum truck", unit: "hour", quantityThousandths: 120_000, ceilingCents: 18_500 },
      { position: 2, description: "Disposal", unit: "m³", quantityThousandths: 2_500_125, ceilingCents: null },
    ]);
    expect((await lotsOf(auction.id))[0]).toMatchObject({ title: "Hauling", reserveCents: 5_000_000 });

    // The terms form now points to the lots; saving it keeps them.
    const edit = await (await as(buyer).request(`/auctions/${auction.id}/edit`)).text();
    expectIn(edit, "This auction is priced by lots");
    expect((await linesOf(only.id)).length).toBe(2);
  });

  it("adds a lot from pasted CSV, a message per wrong row and nothing saved until all are right; closes lots apart; removes one", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future() });
    const csv = [
      "description,unit,quantity,ceiling_unit_price",
      "Rig move,lot,1,",
      "Crane,hour,abc,",
      ",day,3,120.00",
    ].join("\n");
    const refused = await as(buyer).request(`/auctions/${auction.id}/lots/new`, {
      form: lotForm({ title: "Rig move", csv }),
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expectIn(refusedHtml, "Row 3: Please enter a quantity above zero with at most three decimals, like 12.5");
    expectIn(refusedHtml, "Row 4: Please enter a description");
    expect(await lotsOf(auction.id)).toHaveLength(1);

    const fixed = csv.replace("Crane,hour,abc,", "Crane,hour,16,").replace(",day,3,120.00", "Camp,day,3,120.00");
    const added = await as(buyer).request(`/auctions/${auction.id}/lots/new`, {
      form: lotForm({ title: "Rig move", reserve: "20000.00", csv: fixed }),
    });
    expect(added.status).toBe(302);
    const lots = await lotsOf(auction.id);
    expect(lots.map((lot) => [lot.position, lot.title])).toEqual([
      [1, ""],
      [2, "Rig move"],
    ]);
    const second = lots[1] as (typeof lots)[number];
    expect((await linesOf(second.id)).map((line) => [line.description, line.quantityThousandths])).toEqual([
      ["Rig move", 1000],
      ["Crane", 16_000],
      ["Camp", 3000],
    ]);
    expect((await auctionRow(db(), auction.id)).reserveCents).toBe(1_000_000 + 2_000_000);

    // Lot 2 closes 30 minutes after lot 1; the auction ends with it.
    const settings = await as(buyer).request(`/auctions/${auction.id}/lots`, {
      form: { gap: "30" },
    });
    expect(settings.status).toBe(302);
    const spaced = await auctionRow(db(), auction.id);
    const [first, later] = spaced.lots;
    expect(spaced).toMatchObject({ lotCloseGapMinutes: 30 });
    expect((later?.scheduledEndsAt.getTime() ?? 0) - (first?.scheduledEndsAt.getTime() ?? 0)).toBe(30 * 60_000);
    expect(spaced.endsAt.getTime()).toBe(later?.endsAt.getTime());

    const wrongGap = await as(buyer).request(`/auctions/${auction.id}/lots`, {
      form: { gap: "-5" },
    });
    expect(wrongGap.status).toBe(400);
    expectIn(await wrongGap.text(), "The minutes between closings cannot be negative");

    // Lot 1 removed: the rig move is lot 1 now, closing at the auction's end.
    const removed = await as(buyer).request(`/auctions/${auction.id}/lots`, {
      form: { intent: "remove", lot: String(first?.id) },
    });
    expect(removed.status).toBe(302);
    const after = await auctionRow(db(), auction.id);
    expect(after.lots.map((lot) => [lot.position, lot.title])).toEqual([[1, "Rig move"]]);
    expect(after.lots[0]?.scheduledEndsAt.getTime()).toBe(after.scheduledEndsAt.getTime());
    expect(after.reserveCents).toBe(2_000_000);
    // The last lot stays.
    const last = await as(buyer).request(`/auctions/${auction.id}/lots`, {
      form: { intent: "remove", lot: String(after.lots[0]?.id) },
    });
    expect(last.status).toBe(409);
    expectIn(await last.text(), "An auction keeps at least one lot.");
  });

  it("is the auction side's only, before bidding; a sealed auction's lots share its deadline", async () => {
    const draft = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future(), sellers: [alpha] });
    expect((await as(alpha).request(`/auctions/${draft.id}/lots`)).status).toBe(404);
    expect((await as(alpha).request(`/auctions/${draft.id}/lots/new`, { form: lotForm({}) })).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${draft.id}/lots/999999999`)).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${draft.id}/lots/abc`)).status).toBe(404);

    const open = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [alpha] });
    const locked = await as(buyer).request(`/auctions/${open.id}/lots/new`, {
      form: lotForm({ "lines[0].description": "Crane", "lines[0].unit": "hour", "lines[0].quantity": "4" }),
    });
    expect(locked.status).toBe(409);
    expectIn(await locked.text(), "Bidding has started: the terms of this auction can no longer change.");
    expect((await lotsOf(open.id)).length).toBe(1);

    const sealed = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future(), kind: "sealed" });
    const page = await (await as(buyer).request(`/auctions/${sealed.id}/lots`)).text();
    expectIn(page, "Give each lot line items");
    expectIn(page, "Add a lot");
    expectNotIn(page, "Minutes between lots");
    // A sealed auction takes a second lot (issue 31), with no decrement: whatever is sent, it keeps the fixed one.
    const added = await as(buyer).request(`/auctions/${sealed.id}/lots/new`, {
      form: lotForm({ "lines[0].description": "Crane", "lines[0].unit": "hour", "lines[0].quantity": "4" }),
    });
    expect(added.status).toBe(302);
    const lots = await lotsOf(sealed.id);
    expect(lots.length).toBe(2);
    expect(lots[1]).toMatchObject({ decrementKind: "percent", decrementValue: 100 });
    // Both close at the deadline: no gap between closings, and none can be set.
    expect(lots[1]?.endsAt.getTime()).toBe(lots[0]?.endsAt.getTime());
    const gap = await as(buyer).request(`/auctions/${sealed.id}/lots`, { form: { gap: "30" } });
    expect(gap.status).toBe(409);
    expectIn(await gap.text(), "A sealed-bid auction&#x27;s lots all close at its deadline");
    expect((await auctionRow(db(), sealed.id)).lotCloseGapMinutes).toBe(0);
  });

  it("gives a sealed auction's one lot line items, its price schedule, with no decrement to set", async () => {
    const sealed = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future(), kind: "sealed" });
    const [only] = sealed.lots;
    if (!only) throw new Error("no lot");
    const form = await (await as(buyer).request(`/auctions/${sealed.id}/lots/${only.id}`)).text();
    expectNotIn(form, "Each bid's total must be lower");
    const saved = await as(buyer).request(`/auctions/${sealed.id}/lots/${only.id}`, {
      form: {
        title: "Wellsite services",
        reserve: "2000.00",
        // Whatever decrement is sent, a sealed lot keeps its fixed one.
        decrement_kind: "amount",
        decrement_amount: "99999",
        "lines[0].description": "Vacuum truck",
        "lines[0].unit": "hour",
        "lines[0].quantity": "10",
        "lines[1].description": "Disposal",
        "lines[1].unit": "m³",
        "lines[1].quantity": "100",
        "lines[1].ceiling": "4.00",
      },
    });
    expect(saved.status).toBe(302);
    const lines = await linesOf(only.id);
    expect(lines.map((line) => [line.description, line.quantityThousandths, line.ceilingCents])).toEqual([
      ["Vacuum truck", 10_000, null],
      ["Disposal", 100_000, 400],
    ]);
    const [lot] = await lotsOf(sealed.id);
    expect(lot).toMatchObject({ reserveCents: 200_000, decrementKind: "percent", decrementValue: 100 });
    expect((await auctionRow(db(), sealed.id)).reserveCents).toBe(200_000);
    const list = await (await as(buyer).request(`/auctions/${sealed.id}/lots`)).text();
    expectIn(list, "Give each lot line items");
    expectNotIn(list, "Minutes between lots");
    // A reverse draft of two lots may become sealed (issue 31): it keeps its lots, which then all close at the deadline.
    const twoLots = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      ...future(),
      lotCloseGapMinutes: 30,
      lots: HAULING_AND_CEMENTING,
    });
    const toSealed = await as(buyer).request(`/auctions/${twoLots.id}/edit`, {
      form: {
        kind: "sealed",
        title: "Two lots, sealed",
        description: "Hauling and cementing.",
        service: String(catalogue.serviceId),
        service_area: String(catalogue.serviceAreaId),
        reserve: "7000.00",
        decrement_kind: "amount",
        decrement_amount: "100.00",
        starts_at: "2099-01-01T09:00",
        ends_at: "2099-01-08T17:00",
        soft_close_window: "5",
        soft_close_extension: "5",
        soft_close_cap: "60",
        requirements: "Technical proposal",
      },
    });
    expect(toSealed.status).toBe(302);
    expect(await auctionRow(db(), twoLots.id)).toMatchObject({ kind: "sealed", lotCloseGapMinutes: 0 });
    const sealedLots = await lotsOf(twoLots.id);
    expect(sealedLots.length).toBe(2);
    expect(sealedLots[1]?.endsAt.getTime()).toBe(sealedLots[0]?.endsAt.getTime());
    // The terms form points to the lot; the auction's page links it for the buyer.
    expectIn(await (await as(buyer).request(`/auctions/${sealed.id}/edit`)).text(), "This auction is priced by lots");
    expectIn(await (await as(buyer).request(`/auctions/${sealed.id}`)).text(), "Line items (price schedule)");
  });
  const lotted = (sellers: Party[], sellerView: "lowest" | "rank" = "lowest") =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers,
      sellerView,
      lotCloseGapMinutes: 30,
      lots: HAULING_AND_CEMENTING,
    });

  it("shows a seller their rank on each lot when the auction shows ranks only", async () => {
    const auction = await lotted([alpha, bravo], "rank");
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const bidPage = `/auctions/${auction.id}/lots/${hauling.id}/bid`;
    // Alpha: 10 h × $100.00 + 2.5 km × $50.00 + 100 m³ × $3.00 = $1,425.00; Bravo above it, at $1,525.00.
    const prices = (units: string[]) => ({
      intent: "bid",
      confirm: "yes",
      ...Object.fromEntries(units.map((price, index) => [`prices[${index}]`, price])),
    });
    expect((await as(alpha).request(bidPage, { form: prices(["100.00", "50.00", "3.00"]) })).status).toBe(302);
    expect((await as(bravo).request(bidPage, { form: prices(["110.00", "50.00", "3.00"]) })).status).toBe(302);
    const lotPage = await (await as(bravo).request(bidPage)).text();
    expectIn(lotPage, "You are 2nd.");
    expectIn(lotPage, "must beat your own last bid by at least $1.00: up to $1,524.00 now.");
    expectIn(lotPage, "takes no secret minimum");
    expectNotIn(lotPage, "1,425.00");
    expectNotIn(lotPage, 'name="minimum"');
    const minimum = await as(bravo).request(bidPage, { form: { intent: "minimum", minimum: "1000.00" } });
    expect(minimum.status).toBe(400);
    expectIn(await minimum.text(), "takes no secret minimum");
    const auctionPage = await (await as(bravo).request(`/auctions/${auction.id}`)).text();
    expectIn(auctionPage, "You are 2nd");
    expectIn(auctionPage, "You have not bid");
    expectNotIn(auctionPage, "Lowest total");
    expectNotIn(auctionPage, "1,425.00");
    expectIn(await (await as(alpha).request(bidPage)).text(), "You have the lowest bid.");
  });

  it("shows the auction's side a lot's bids: its chart, each seller's best bid line by line, the latest bids", async () => {
    const auction = await lotted([alpha, bravo]);
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    const bid = (party: Party, units: string[]) =>
      as(party).request(`/auctions/${auction.id}/lots/${hauling.id}/bid`, {
        form: {
          intent: "bid",
          confirm: "yes",
          ...Object.fromEntries(units.map((price, index) => [`prices[${index}]`, price])),
        },
      });
    // Alpha $1,425.00, then Bravo $1,375.00 ($90.00, $50.00, $3.50).
    expect((await bid(alpha, ["100.00", "50.00", "3.00"])).status).toBe(302);
    expect((await bid(bravo, ["90.00", "50.00", "3.50"])).status).toBe(302);
    // Each seller reads their own bids on the lot with their unit prices, never another's.
    const alphaLot = await (await as(alpha).request(`/auctions/${auction.id}/lots/${hauling.id}/bid`)).text();
    expectIn(alphaLot, "Your bids on this lot");
    expectIn(alphaLot, "Unit prices of the $1,425.00 bid");
    expectIn(alphaLot, "Vacuum truck: $100.00 per hour × 10");
    expectNotIn(alphaLot, "$90.00 per hour");
    const bidsPage = `/auctions/${auction.id}/lots/${hauling.id}/bids`;
    const console = await (await as(buyer).request(`/auctions/${auction.id}`)).text();
    expectIn(console, `href="${bidsPage}"`);
    expectIn(console, '<th scope="col">Lot</th>');
    const page = await (await as(buyer).request(bidsPage)).text();
    expectIn(page, "Bids on Lot 1: Hauling");
    expectIn(page, "$1,375.00 by Bravo Cement Inc.");
    expectIn(page, "Each seller&#x27;s best bid, line by line");
    // Lowest first: Bravo's column, then Alpha's; each line's unit price and its total per seller.
    const schedules = page.slice(page.indexOf("Each seller&#x27;s best bid on the lot, line by line"));
    expect(schedules.indexOf("Bravo Cement Inc.")).toBeLessThan(schedules.indexOf("Alpha Vac Ltd."));
    expectIn(schedules, "<td>$3.50</td><td>$350.00</td>");
    expectIn(schedules, "<td>$100.00</td><td>$1,000.00</td>");
    expectIn(page, "Price over time");
    // The other lot has no bids: its page says so.
    expectIn(
      await (await as(buyer).request(`/auctions/${auction.id}/lots/${cementing.id}/bids`)).text(),
      "No bids yet",
    );
    expect((await as("staff").request(bidsPage)).status).toBe(200);
    // Sellers never see a competitor's lines.
    expect((await as(alpha).request(bidsPage)).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${auction.id}/lots/999999/bids`)).status).toBe(404);
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
    const wrongHtml = await wrong.text();
    expectIn(wrongHtml, "Row 4:");
    // The sheet as sent stays in the box, to be put right there.
    expectIn(wrongHtml, "Vacuum truck,hour,10,95.00");

    const upload = new FormData();
    upload.set("intent", "sheet");
    upload.set("sheet_file", new File([filled.replace(",x", ",2.50")], "sheet.csv", { type: "text/csv" }));
    const read = await as(bravo).request(bidPage, { multipart: upload });
    expect(read.status).toBe(200);
    // 10 × 95.00 + 2.5 × 40.00 + 100 × 2.50 = 1,300.00
    expectIn(await read.text(), "Place a bid of $1,300.00 in total?");

    const minimumFirst = await as(alpha).request(bidPage, { form: { intent: "minimum", minimum: "1000.00" } });
    expect(minimumFirst.status).toBe(400);
    const minimumHtml = await minimumFirst.text();
    expectIn(minimumHtml, "Please bid on this lot first");
    expectIn(minimumHtml, 'value="1000.00"');
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

  it("answers odd bid forms with a message, never a 5xx, and places nothing", async () => {
    const auction = await lotted([alpha]);
    const [hauling] = auction.lots;
    if (!hauling) throw new Error("no lot");
    const bidPage = `/auctions/${auction.id}/lots/${hauling.id}/bid`;
    const odd: Record<string, string>[] = [
      { intent: "bid", prices: "abc", confirm: "yes" },
      { intent: "bid", "prices[0]": "1", "prices[7]": "2", confirm: "yes" },
      { intent: "bid", "prices[0]": "1e9999", "prices[1]": "-5", "prices[2]": "NaN", confirm: "yes" },
      { intent: "bid", "prices[0]": "99999999999999999", "prices[1]": "1", "prices[2]": "1", confirm: "yes" },
      // A total past any amount (10 h at $90 trillion): refused at the prices, not shown for review.
      { intent: "bid", "prices[0]": "90000000000000.00", "prices[1]": "1", "prices[2]": "1" },
      { intent: "sheet", sheet: '"unclosed,quote\n1,2' },
      { intent: "minimum", minimum: "0" },
      { intent: "nonsense" },
    ];
    for (const form of odd) {
      const answer = await as(alpha).request(bidPage, { form });
      expect(answer.status, JSON.stringify(form)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(form)).toBeLessThan(500);
    }
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id))).toEqual([]);
    // The same for the buyer's lot form: a list that is not one, a row far out of place.
    const draft = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future() });
    const lotPage = `/auctions/${draft.id}/lots/${draft.lots[0]?.id}`;
    for (const form of [lotForm({ lines: "abc" }), lotForm({ "lines[9].description": "x", "lines[0]": "y" })]) {
      const answer = await as(buyer).request(lotPage, { form });
      expect(answer.status, JSON.stringify(form)).toBe(400);
    }
    expect((await lotsOf(draft.id))[0]?.title).toBe("");
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
    // A binding bid skips reading the auction once the lot's lines are known here (alpha's page read
    // them): its round still checks the invitation and that the lot is the auction's.
    expectIn(await (await as(alpha).request(bidPage)).text(), "Unit price, line 1");
    const binding = { intent: "bid", confirm: "yes", "prices[0]": "100.00", "prices[1]": "50.00", "prices[2]": "3.00" };
    expect((await as(bravo).request(bidPage, { form: binding })).status).toBe(404);
    const other = await lotted([alpha]);
    expect((await as(alpha).request(`/auctions/${other.id}/lots/${hauling.id}/bid`, { form: binding })).status).toBe(
      404,
    );
    expect(await db().select().from(auctionBids).where(eq(auctionBids.lotId, hauling.id))).toEqual([]);
    expect((await as(alpha).request(bidPage, { form: binding })).status).toBe(302);
  });
  it("ranks each lot's best bids on their own in the evaluation of a reverse auction of lots", async () => {
    const { auction } = await closedLotsWithBids(db(), buyer, [alpha, bravo], catalogue);
    await db().update(auctions).set({ priceWeightPercent: 50 }).where(eq(auctions.id, auction.id));
    const [criterion] = await db()
      .insert(evaluationCriteria)
      .values({ auctionId: auction.id, name: "Equipment", weight: 100, sortOrder: 0 })
      .returning();
    if (!criterion) throw new Error("no criterion");
    await db()
      .insert(evaluationScores)
      .values([
        { criterionId: criterion.id, organizationId: alpha.organizationId, score: 6 },
        { criterionId: criterion.id, organizationId: bravo.organizationId, score: 8 },
      ]);
    const html = await (await as(buyer).request(`/auctions/${auction.id}/evaluation`)).text();
    const section = (position: number) =>
      htmlBetween(html, `id="ranking-lot-${position}"`, `id="ranking-lot-${position + 1}"`);
    // Price and technical 50 % each, each lot's prices against that lot's lowest.
    expect(tableRowTexts(section(1)).slice(1)).toEqual([
      "1 | Bravo Cement Inc. | $1,375.00 | 100 | 80 | 90",
      "2 | Alpha Vac Ltd. | $1,425.00 | 96.5 | 60 | 78.2",
    ]);
    expect(tableRowTexts(section(2)).slice(1)).toEqual([
      "1 | Bravo Cement Inc. | $4,800.00 | 93.8 | 80 | 86.9",
      "2 | Alpha Vac Ltd. | $4,500.00 | 100 | 60 | 80",
    ]);
    expectIn(section(3), "Lot 3: Crane");
    expectIn(section(3), "No bids on this lot.");
  });
});
