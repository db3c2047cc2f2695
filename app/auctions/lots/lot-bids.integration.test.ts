import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auctionBids } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import {
  auctionRow,
  createAuctionParties,
  createAuctionRow,
  HAULING_LINES,
  haulingAndCementing,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import { lineTotalCents, lotTotalCents } from "./line-pricing";

// Bids on lots of line items through real databases (issue 31): a unit price per line, the total
// the rules decide on; a minimum on a lot's total bids scaled lines that add up exactly and keep
// every ceiling; each lot has its own lowest and closes at its own end; lots of one auction never
// mix.

describe.each(databaseKinds)("bids on lots on %s", (kind) => {
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
  const quantities = HAULING_LINES.map((line) => ({ quantity: line.quantity, ceilingCents: line.ceilingCents }));
  const lineBid = (auctionId: number, lotId: number, seller: Party, unitCents: number[], now?: Date) =>
    placeManualBid(db(), {
      auctionId,
      lotId,
      organizationId: seller.organizationId,
      userId: seller.userId,
      unitCents,
      amountCents: lotTotalCents(quantities, unitCents),
      now,
    });
  const linesOfBid = async (bidId: number) =>
    (await db().select({ unitCents: auctionBids.unitCents }).from(auctionBids).where(eq(auctionBids.id, bidId)))[0]
      ?.unitCents ?? null;
  const twoLots = (gapMinutes = 0, endsAt = new Date(Date.now() + 3_600_000)) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: [a(), b()],
      endsAt,
      softClose: { window: 0, extension: 0, cap: 0 },
      lotCloseGapMinutes: gapMinutes,
      lots: haulingAndCementing(),
    });

  it("takes a unit price per line, keeps the lines with the bid, and refuses a line over its ceiling", async () => {
    const auction = await twoLots();
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    // 10 h × $100.00 + 2.5 km × $50.00 + 100 m³ × $3.00 = $1,425.00
    const placed = await lineBid(auction.id, hauling.id, a(), [10_000, 5_000, 300]);
    expect(placed).toMatchObject({ kind: "accepted", bids: [{ amountCents: 142_500, kind: "manual" }] });
    if (placed.kind !== "accepted") throw new Error("refused");
    expect(await linesOfBid(placed.bids[0]?.id as number)).toEqual([10_000, 5_000, 300]);

    expect(await lineBid(auction.id, hauling.id, b(), [9_000, 5_000, 401])).toMatchObject({
      kind: "refused",
      field: "amount",
      message: "Line 3: the unit price cannot be more than the ceiling of $4.00",
    });
    expect(await lineBid(auction.id, hauling.id, b(), [9_000, 5_000])).toMatchObject({
      kind: "refused",
      message: "Please enter a unit price for each of the lot's 3 lines",
    });
    // A total that does not match the lines (a stale page) places nothing.
    expect(
      await placeManualBid(db(), {
        auctionId: auction.id,
        lotId: hauling.id,
        organizationId: b().organizationId,
        userId: b().userId,
        unitCents: [9_000, 5_000, 300],
        amountCents: 1,
      }),
    ).toMatchObject({
      kind: "refused",
      message: "The lot's total has changed: please check your unit prices and bid again",
    });

    // The other lot is bid on as one amount, with its own lowest.
    expect(
      await placeManualBid(db(), {
        auctionId: auction.id,
        lotId: cementing.id,
        organizationId: b().organizationId,
        userId: b().userId,
        amountCents: 450_000,
      }),
    ).toMatchObject({ kind: "accepted" });
    const after = await auctionRow(db(), auction.id);
    expect(after.lots.map((lot) => [lot.lowestCents, lot.leaderOrganizationId, lot.bidCount])).toEqual([
      [142_500, a().organizationId, 1],
      [450_000, b().organizationId, 1],
    ]);
    expect(after.bidCount).toBe(2);
    const stored = await db()
      .select({ id: auctionBids.id, lotId: auctionBids.lotId })
      .from(auctionBids)
      .where(eq(auctionBids.auctionId, auction.id));
    expect(stored.map((row) => row.lotId).sort()).toEqual([hauling.id, cementing.id].sort());
    // A lot bid on as one amount keeps no lines.
    const cementBid = stored.find((row) => row.lotId === cementing.id)?.id as number;
    expect(await linesOfBid(cementBid)).toBeNull();
  });

  it("bids for a minimum on a lot's total with scaled lines that add up and keep every ceiling", async () => {
    const auction = await twoLots();
    const [hauling] = auction.lots;
    if (!hauling) throw new Error("no lot");
    const minimumOf = (seller: Party, minimumCents: number) =>
      setAutoBidMinimum(db(), {
        auctionId: auction.id,
        lotId: hauling.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        minimumCents,
      });
    expect(await minimumOf(a(), 120_000)).toMatchObject({
      kind: "refused",
      field: "minimum",
      message: "Please bid on this lot first: your minimum scales the unit prices of your latest bid",
    });
    expect(await lineBid(auction.id, hauling.id, a(), [10_000, 5_000, 300])).toMatchObject({ kind: "accepted" });
    expect(await minimumOf(a(), 120_000)).toMatchObject({ kind: "accepted", bids: [] });
    // B undercuts: A's minimum answers one decrement under, its lines scaled from A's own.
    const undercut = await lineBid(auction.id, hauling.id, b(), [9_000, 5_000, 300]); // $1,325.00
    expect(undercut).toMatchObject({ kind: "accepted", leaderId: a().organizationId });
    if (undercut.kind !== "accepted") throw new Error("refused");
    const answer = undercut.bids[1];
    expect(answer).toMatchObject({ kind: "auto", amountCents: 132_400 });
    const units = (await linesOfBid(answer?.id as number)) ?? [];
    expect(units).toHaveLength(3);
    expect(
      HAULING_LINES.reduce((sum, line, index) => sum + lineTotalCents(line.quantity, units[index] as number), 0),
    ).toBe(132_400);
    expect(units[2]).toBeLessThanOrEqual(400);
    // Under A's minimum B leads for good; A's auto-bid stops at the lowest total its lines reach over it.
    const deep = await lineBid(auction.id, hauling.id, b(), [7_000, 4_000, 200]); // $1,000.00
    expect(deep).toMatchObject({ kind: "accepted", leaderId: b().organizationId });
    const lot = (await auctionRow(db(), auction.id)).lots[0];
    expect(lot?.lowestCents).toBe(100_000);
  });

  it("closes each lot at its own end: a lot past its end refuses bids while a later lot still takes them", async () => {
    const end = new Date(Date.now() + 60_000);
    const auction = await twoLots(30, end);
    const [hauling, cementing] = auction.lots;
    if (!hauling || !cementing) throw new Error("no lots");
    expect(cementing.scheduledEndsAt.getTime() - hauling.scheduledEndsAt.getTime()).toBe(30 * 60_000);
    const afterFirst = new Date(end.getTime() + 60_000);
    expect(await lineBid(auction.id, hauling.id, a(), [10_000, 5_000, 300], afterFirst)).toMatchObject({
      kind: "refused",
      message: "Bidding has closed.",
    });
    expect(
      await placeManualBid(db(), {
        auctionId: auction.id,
        lotId: cementing.id,
        organizationId: a().organizationId,
        userId: a().userId,
        amountCents: 400_000,
        now: afterFirst,
      }),
    ).toMatchObject({ kind: "accepted" });
    // A lot of another auction is not this auction's.
    const other = await twoLots();
    expect(
      await placeManualBid(db(), {
        auctionId: auction.id,
        lotId: other.lots[1]?.id,
        organizationId: a().organizationId,
        userId: a().userId,
        amountCents: 300_000,
      }),
    ).toMatchObject({ kind: "refused", status: 404 });
  });
});
