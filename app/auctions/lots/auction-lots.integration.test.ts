import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionLineItems, auctionLots } from "~db/schema";
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

// A buyer sets up a lotted auction without JavaScript (issue 31): a lot's lines typed as rows (added
// and removed by the form's own buttons) or pasted as CSV with a message per wrong row and nothing
// saved until all are right; a second lot closing later; lots removed and renumbered; the terms
// form keeps the lots. Only the auction's own side, only before bidding, never a sealed auction.

describe.each(databaseKinds)("lots and line items on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let seller: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    catalogue = await catalogueForAuctions(db());
    buyer = await createBuyer(db(), "Lotted Energy Ltd.");
    seller = await createSeller(db(), { name: "Rate Sheet Services Ltd.", ...offering(catalogue) });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, seller]);
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

  it("is the auction side's only, before bidding, and never for a sealed auction", async () => {
    const draft = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future(), sellers: [seller] });
    expect((await as(seller).request(`/auctions/${draft.id}/lots`)).status).toBe(404);
    expect((await as(seller).request(`/auctions/${draft.id}/lots/new`, { form: lotForm({}) })).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${draft.id}/lots/999999999`)).status).toBe(404);
    expect((await as(buyer).request(`/auctions/${draft.id}/lots/abc`)).status).toBe(404);

    const open = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [seller] });
    const locked = await as(buyer).request(`/auctions/${open.id}/lots/new`, {
      form: lotForm({ "lines[0].description": "Crane", "lines[0].unit": "hour", "lines[0].quantity": "4" }),
    });
    expect(locked.status).toBe(409);
    expectIn(await locked.text(), "Bidding has started: the terms of this auction can no longer change.");
    expect((await lotsOf(open.id)).length).toBe(1);

    const sealed = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...future(), kind: "sealed" });
    const page = await (await as(buyer).request(`/auctions/${sealed.id}/lots`)).text();
    expectIn(page, "A sealed-bid auction is priced as one amount.");
    expectNotIn(page, "Add a lot");
    const refused = await as(buyer).request(`/auctions/${sealed.id}/lots/new`, {
      form: lotForm({ "lines[0].description": "Crane", "lines[0].unit": "hour", "lines[0].quantity": "4" }),
    });
    expect(refused.status).toBe(409);
  });
});
