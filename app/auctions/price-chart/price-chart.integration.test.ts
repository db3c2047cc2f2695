import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeQueries } from "~db/database.server";
import { seedDemoCatalogue } from "~db/seed";
import { createAuctionParties, createAuctionRow, type Party } from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { findAuction, viewFor } from "../auction-views.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import { submitSealedBid } from "../sealed/sealed-bids.server";
import { fullPriceChart, sellerPriceCharts } from "./price-chart.server";
import { MAX_POINTS, MAX_STEPS } from "./price-chart-geometry";

// The price chart's series through real databases (issue 21): the auction's side gets every bid by
// seller; a seller the lowest price and their own bids only; a sealed auction nothing; a busy auction
// a capped number of points, in one query.

describe.each(databaseKinds)("price chart series on %s", (kind) => {
  let database: TestDatabase;
  let buyer: Party;
  let catalogue: Awaited<ReturnType<typeof createAuctionParties>>["catalogue"];
  let sellers: Party[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDemoCatalogue(database.db);
    ({ catalogue, buyer, sellers } = await createAuctionParties(database.db, 3));
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const db = () => database.db;
  const a = () => sellers[0] as Party;
  const b = () => sellers[1] as Party;
  const c = () => sellers[2] as Party;
  const bid = (auctionId: number, seller: Party, amountCents: number, now?: Date) =>
    placeManualBid(db(), { auctionId, organizationId: seller.organizationId, userId: seller.userId, amountCents, now });

  it("gives the auction's side every bid by seller, a seller only the lowest price and their own bids", async () => {
    const start = Date.now() - 60_000;
    // Ends in two minutes with a five-minute soft close: every bid extends it.
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: sellers,
      reserveCents: 1_000_000,
      decrement: { kind: "amount", value: 10_000 },
      startsAt: new Date(start),
      endsAt: new Date(start + 180_000),
      softClose: { window: 5, extension: 5, cap: 60 },
    });
    expect(await bid(auction.id, a(), 900_000)).toMatchObject({ kind: "accepted" });
    // Seller C's secret minimum answers B's bid in the same round: one step, at C's automatic bid.
    await setAutoBidMinimum(db(), {
      auctionId: auction.id,
      organizationId: c().organizationId,
      userId: c().userId,
      minimumCents: 870_000,
    });
    // The minimum itself bid at once (one decrement under A): 890000 by C.
    expect(await bid(auction.id, b(), 880_000)).toMatchObject({ kind: "accepted" });
    const [row] = await db()
      .execute(sql`select count(*)::int as n from auction_bids where auction_id = ${auction.id}`)
      .then((result) => (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows));
    const bidCount = Number((row as { n: number }).n);
    expect(bidCount).toBe(4); // A 9000, C 8900 (auto), B 8800, C 8700 (auto)

    const full = await fullPriceChart(db(), auction);
    expect(full).not.toBeNull();
    if (!full) return;
    expect(full.audience).toBe("full");
    expect(full.pointCount).toBe(4);
    expect(full.points.map((point) => point[1])).toEqual([900_000, 890_000, 880_000, 870_000]);
    // Aliases in order, with the sellers' names; each point in its seller's series.
    expect(full.series).toHaveLength(3);
    expect(full.series[0]).toMatch(/^Seller A \(/);
    expect(full.points.map((point) => full.series[point[2]]?.slice(0, 8))).toEqual([
      "Seller A",
      "Seller C",
      "Seller B",
      "Seller C",
    ]);
    // Three rounds: A's bid, C's minimum (C's automatic bid), B's bid with C's answer: three steps.
    expect(full.steps.map((step) => step[1])).toEqual([900_000, 890_000, 870_000]);
    expect(full.extensions.length).toBeGreaterThan(0);
    expect(full.extensions[0]?.[1]).toBe(start + 180_000);
    expect(full.firstAt).toMatch(/^\d{4}-.*Z$/);

    const charts = await sellerPriceCharts(db(), auction, [b().organizationId, a().organizationId]);
    const forB = charts.get(b().organizationId);
    expect(forB).toMatchObject({ audience: "seller", series: ["Your bids"], pointCount: 1 });
    expect(forB?.points.map((point) => point[1])).toEqual([880_000]);
    // The lowest price as B saw it, never C's automatic bid inside B's round.
    expect(forB?.steps.map((step) => step[1])).toEqual([900_000, 890_000, 870_000]);
    expect(charts.get(a().organizationId)?.points.map((point) => point[1])).toEqual([900_000]);
    // Nothing of the others in what a seller's page and event stream carry.
    const sellerView = await viewFor(db(), auction, { kind: "seller", organizationId: b().organizationId });
    const text = JSON.stringify(sellerView);
    expect(text).not.toMatch(/Seller A|Seller C|alias|organizationName/);
  });

  it("draws no chart for a sealed auction, before the deadline or after", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers, kind: "sealed" });
    const sent = await submitSealedBid(db(), {
      auctionId: auction.id,
      organizationId: a().organizationId,
      userId: a().userId,
      amountCents: 500_000,
      files: [],
    });
    expect(sent.kind).toBe("saved");
    expect(await fullPriceChart(db(), auction)).toBeNull();
    expect((await sellerPriceCharts(db(), auction, [a().organizationId])).size).toBe(0);
    for (const viewer of [
      { kind: "owner" as const, organizationId: buyer.organizationId },
      { kind: "staff" as const },
      { kind: "seller" as const, organizationId: a().organizationId },
    ]) {
      const view = await viewFor(db(), auction, viewer);
      expect(view.priceChart, viewer.kind).toBeNull();
    }
    // After the deadline the bids are read on the award page, ranked: still no price over time.
    const closed = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers,
      kind: "sealed",
      status: "closed",
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 3_600_000),
    });
    expect(await fullPriceChart(db(), closed)).toBeNull();
  });

  it("caps the points and steps drawn for a busy auction, keeping the first and the last", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers });
    const total = 1_234;
    // Straight into the table: each bid its own round, a cent lower than the last, two sellers in turn.
    await db().execute(sql`
      insert into auction_bids (auction_id, lot_id, organization_id, amount_cents, kind, rank, created_at)
      select ${auction.id}::int, ${auction.lots[0]?.id}::int, case when n % 2 = 0 then ${a().organizationId}::int else ${b().organizationId}::int end,
        900000 - n, 'manual', n, now() - interval '50 minutes' + n * interval '1 second'
      from generate_series(1, ${total}::int) as n`);
    const full = await fullPriceChart(db(), auction);
    if (!full) throw new Error("no chart");
    expect(full.pointCount).toBe(total);
    expect(full.points.length).toBeLessThanOrEqual(MAX_POINTS + 2);
    expect(full.points.length).toBeGreaterThan(MAX_POINTS / 2);
    expect(full.points[0]?.[1]).toBe(899_999);
    expect(full.points.at(-1)?.[1]).toBe(900_000 - total);
    expect(full.steps.length).toBeLessThanOrEqual(MAX_STEPS + 2);
    expect(full.steps[0]?.[1]).toBe(899_999);
    expect(full.steps.at(-1)?.[1]).toBe(900_000 - total);
    // A seller's own are capped on their own: half the bids are A's.
    const forA = (await sellerPriceCharts(db(), auction, [a().organizationId])).get(a().organizationId);
    expect(forA?.pointCount).toBe(total / 2);
    expect(forA?.points.every((point) => point[1] % 2 === 0)).toBe(true);
    expect(forA?.points.length).toBeLessThanOrEqual(MAX_POINTS + 2);
  });

  it("reads a version of the auction's history once, and draws a new round of bids at once", async () => {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers,
      reserveCents: 1_000_000,
      decrement: { kind: "amount", value: 10_000 },
    });
    expect(await bid(auction.id, a(), 900_000)).toMatchObject({ kind: "accepted" });
    const before = await findAuction(db(), auction.id);
    if (!before) throw new Error("no auction");
    let reads = 0;
    const stop = observeQueries(db(), (query) => {
      if (/with bid as/.test(query)) reads += 1;
    });
    try {
      // Reloads of one version, at once and one after another: one read for the side, one for seller A.
      const [side, again, forA] = await Promise.all([
        fullPriceChart(db(), before),
        fullPriceChart(db(), before),
        sellerPriceCharts(db(), before, [a().organizationId]),
      ]);
      expect(await fullPriceChart(db(), before)).toEqual(side);
      expect(again).toEqual(side);
      expect(side?.steps.map((step) => step[1])).toEqual([900_000]);
      expect(forA.get(a().organizationId)?.points.map((point) => point[1])).toEqual([900_000]);
      expect(reads).toBe(2);

      // The next round of bids is another version: drawn on the next load, for everyone.
      expect(await bid(auction.id, b(), 880_000)).toMatchObject({ kind: "accepted" });
      const after = await findAuction(db(), auction.id);
      if (!after) throw new Error("no auction");
      expect((await fullPriceChart(db(), after))?.steps.map((step) => step[1])).toEqual([900_000, 880_000]);
      const forAAfter = (await sellerPriceCharts(db(), after, [a().organizationId])).get(a().organizationId);
      expect(forAAfter?.steps.map((step) => step[1])).toEqual([900_000, 880_000]);
      expect(forAAfter?.points.map((point) => point[1])).toEqual([900_000]);
      expect(reads).toBe(4);
    } finally {
      stop();
    }
  });
});
