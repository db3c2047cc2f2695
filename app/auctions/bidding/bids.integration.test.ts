import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~db/database.server";
import { auctionAutoBids, auctionBids, auctionEvents } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import {
  auctionRow,
  createAuctionParties,
  createAuctionRow,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { placeManualBid, setAutoBidMinimum } from "./bid-queue.server";
import { leadsOver } from "./bidding";

// Bids on one auction through real databases (issue 9): each change is written only if the auction is
// as it was read, under its row lock, so however many sellers bid at once (in one process, or through
// several machines' connections) the lowest price only falls, there is one leader, every extension is
// applied, auto-bids land with the bid that set them off, and nothing is accepted after the close.

describe.each(databaseKinds)("bidding on %s", (kind) => {
  let database: TestDatabase;
  let buyer: Party;
  let catalogue: Awaited<ReturnType<typeof createAuctionParties>>["catalogue"];
  let sellers: Party[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDemoCatalogue(database.db);
    ({ catalogue, buyer, sellers } = await createAuctionParties(database.db, 12));
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const db = () => database.db;
  const openAuction = (options: Partial<Parameters<typeof createAuctionRow>[1]> = {}) =>
    createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 4), ...options });
  const bid = (auctionId: number, seller: Party, amountCents: number, now?: Date) =>
    placeManualBid(db(), { auctionId, organizationId: seller.organizationId, userId: seller.userId, amountCents, now });
  const autoBid = (auctionId: number, seller: Party, minimumCents: number) =>
    setAutoBidMinimum(db(), { auctionId, organizationId: seller.organizationId, userId: seller.userId, minimumCents });
  /** An hour-long auction with a $10,000.00 reserve, $10.00 decrement and no soft close, for bursts of bids. */
  const busyAuction = (bidders: Party[]) =>
    createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: bidders,
      reserveCents: 10_000_000,
      decrement: { kind: "amount", value: 1_000 },
      endsAt: new Date(Date.now() + 3_600_000),
      softClose: { window: 0, extension: 0, cap: 0 },
    });
  const a = () => sellers[0] as Party;
  const b = () => sellers[1] as Party;
  const c = () => sellers[2] as Party;

  it("accepts a bid under the reserve, refuses one that does not beat the lowest by the decrement", async () => {
    const auction = await openAuction();
    expect(await bid(auction.id, a(), 1_000_001)).toMatchObject({ kind: "refused", status: 400, field: "amount" });
    expect(await bid(auction.id, a(), 900_000)).toMatchObject({ kind: "accepted" });
    const tooHigh = await bid(auction.id, b(), 895_000);
    expect(tooHigh).toMatchObject({ kind: "refused", status: 400 });
    if (tooHigh.kind === "refused") expect(tooHigh.message).toContain("$8,900.00 or less");
    expect(await bid(auction.id, a(), 800_000)).toMatchObject({
      kind: "refused",
      message: "You already have the lowest bid",
    });
    expect(await bid(auction.id, b(), 890_000)).toMatchObject({ kind: "accepted" });
    const row = await auctionRow(db(), auction.id);
    expect(row).toMatchObject({ bidCount: 2 });
    expect(row.lots[0]).toMatchObject({ lowestCents: 890_000, leaderOrganizationId: b().organizationId, bidCount: 2 });
  });

  it("asks about a bid far under the price it meets (the typo guard) without writing it, unless confirmed", async () => {
    const auction = await openAuction();
    const ask = (seller: Party, amountCents: number, confirmed: boolean) =>
      placeManualBid(db(), {
        auctionId: auction.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        amountCents,
        confirmed,
      });
    // Against the reserve ($10,000.00) first, then against the lowest bid when it is decided.
    expect(await ask(a(), 700_000, false)).toEqual({ kind: "unconfirmed", referenceCents: 1_000_000, dropPercent: 30 });
    const [first, second] = await Promise.all([ask(a(), 900_000, false), ask(b(), 700_000, false)]);
    expect(first).toMatchObject({ kind: "accepted" });
    expect(second).toEqual({ kind: "unconfirmed", referenceCents: 900_000, dropPercent: 22 });
    expect(await ask(b(), 700_000, true)).toMatchObject({ kind: "accepted" });
    const rows = await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id));
    expect(rows.map((row) => row.amountCents).sort((x, y) => x - y)).toEqual([700_000, 900_000]);
  });

  it("refuses sellers who are not invited, have not accepted the terms, or bid outside the bidding time", async () => {
    const auction = await openAuction({ sellers: [a()] });
    expect(await bid(auction.id, sellers[11] as Party, 500_000)).toMatchObject({ kind: "refused", status: 404 });
    const early = await openAuction({ status: "scheduled", startsAt: new Date(Date.now() + 60_000) });
    expect(await bid(early.id, a(), 500_000)).toMatchObject({
      kind: "refused",
      message: "Bidding has not started yet.",
    });
    const ended = await openAuction({ endsAt: new Date(Date.now() + 1_000) });
    expect(await bid(ended.id, a(), 500_000, new Date(Date.now() + 2_000))).toMatchObject({
      kind: "refused",
      message: "Bidding has closed.",
    });
    expect(await bid(999_999, a(), 500_000)).toMatchObject({ kind: "refused", status: 404 });
    // An invited seller does not learn of a draft: the same 404.
    const draft = await openAuction({ status: "draft" });
    expect(await bid(draft.id, a(), 500_000)).toMatchObject({ kind: "refused", status: 404 });
    expect(await autoBid(draft.id, a(), 500_000)).toMatchObject({ kind: "refused", status: 404 });
    expect((await db().select().from(auctionBids).where(eq(auctionBids.auctionId, ended.id))).length).toBe(0);
  });

  it("places auto-bids in the same transaction, records what set them off, and keeps the minimum private", async () => {
    const auction = await openAuction();
    await bid(auction.id, a(), 1_000_000);
    const set = await autoBid(auction.id, b(), 700_000);
    expect(set).toMatchObject({ kind: "accepted", bids: [{ amountCents: 990_000, kind: "auto" }] });
    const answered = await bid(auction.id, a(), 950_000);
    expect(answered).toMatchObject({
      kind: "accepted",
      bids: [
        { amountCents: 950_000, kind: "manual" },
        { amountCents: 940_000, kind: "auto" },
      ],
    });
    const rows = await db()
      .select()
      .from(auctionBids)
      .where(eq(auctionBids.auctionId, auction.id))
      .orderBy(asc(auctionBids.id));
    const manual = rows.find((row) => row.amountCents === 950_000);
    const automatic = rows.find((row) => row.amountCents === 940_000);
    expect(automatic?.triggeredByBidId).toBe(manual?.id);
    const [minimum] = await db().select().from(auctionAutoBids).where(eq(auctionAutoBids.auctionId, auction.id));
    expect(rows.find((row) => row.amountCents === 990_000)?.triggeredByAutoBidId).toBe(minimum?.id);
    // The minimum cannot be raised above the seller's own standing bid.
    expect(await autoBid(auction.id, b(), 945_000)).toMatchObject({ kind: "refused", field: "minimum" });
    const events = await db().select().from(auctionEvents).where(eq(auctionEvents.auctionId, auction.id));
    expect(events.filter((event) => event.kind === "bid")).toHaveLength(4);
    expect(events.filter((event) => event.kind === "auto-bid-set")).toHaveLength(1);
  });

  it("records, for simultaneous bids, which manual bid set off each automatic answer", async () => {
    const auction = await busyAuction([a(), b(), c()]);
    await autoBid(auction.id, c(), 5_000_000); // C answers every bid one decrement ($10.00) under it
    const placed = await Promise.all([bid(auction.id, a(), 9_000_000), bid(auction.id, b(), 8_000_000)]);
    expect(placed.map((outcome) => outcome.kind)).toEqual(["accepted", "accepted"]);
    const rows = await db()
      .select()
      .from(auctionBids)
      .where(eq(auctionBids.auctionId, auction.id))
      .orderBy(asc(auctionBids.id));
    expect(rows.map((row) => [row.organizationId, row.amountCents, row.kind])).toEqual([
      [c().organizationId, 10_000_000, "auto"],
      [a().organizationId, 9_000_000, "manual"],
      [c().organizationId, 8_999_000, "auto"],
      [b().organizationId, 8_000_000, "manual"],
      [c().organizationId, 7_999_000, "auto"],
    ]);
    expect(rows[2]?.triggeredByBidId).toBe(rows[1]?.id);
    expect(rows[4]?.triggeredByBidId).toBe(rows[3]?.id);
    const events = await db()
      .select()
      .from(auctionEvents)
      .where(and(eq(auctionEvents.auctionId, auction.id), eq(auctionEvents.kind, "bid")))
      .orderBy(asc(auctionEvents.id));
    expect(events.map((event) => event.data.triggeredByBidId ?? null)).toEqual([
      null,
      null,
      rows[1]?.id,
      null,
      rows[3]?.id,
    ]);
  });

  it("moves the end on a late bid, at most to the cap", async () => {
    const endsAt = new Date(Date.now() + 120_000);
    const auction = await openAuction({ endsAt, softClose: { window: 5, extension: 3, cap: 4 } });
    await bid(auction.id, a(), 900_000);
    expect((await auctionRow(db(), auction.id)).endsAt.getTime()).toBe(endsAt.getTime() + 180_000);
    await bid(auction.id, b(), 800_000);
    const row = await auctionRow(db(), auction.id);
    expect(row.endsAt.getTime()).toBe(endsAt.getTime() + 240_000);
    expect(row.extensions).toBe(2);
    await bid(auction.id, c(), 700_000);
    expect((await auctionRow(db(), auction.id)).endsAt.getTime()).toBe(endsAt.getTime() + 240_000);
  });

  it("keeps every invariant when many sellers bid and set minimums at the same moment", async () => {
    const bidders = sellers.slice(0, 12);
    const auction = await busyAuction(bidders);
    const rounds = 6;
    for (let round = 0; round < rounds; round += 1) {
      await Promise.all(
        bidders.map((seller, index) =>
          (index + round) % 4 === 0
            ? autoBid(auction.id, seller, 9_000_000 - index * 37_000 - round * 91_000)
            : bid(auction.id, seller, 10_000_000 - round * 150_000 - index * 9_000),
        ),
      );
    }
    const rows = await db()
      .select()
      .from(auctionBids)
      .where(eq(auctionBids.auctionId, auction.id))
      .orderBy(asc(auctionBids.id));
    expect(rows.length).toBeGreaterThan(10);
    // The lowest price never rises; each bid took the lead when it was written; one leader.
    let leader = rows[0];
    for (const row of rows.slice(1)) {
      if (!leader) break;
      expect(row.amountCents).toBeLessThanOrEqual(leader.amountCents);
      expect(
        leadsOver({ amount: row.amountCents, rank: row.rank }, { amount: leader.amountCents, rank: leader.rank }),
      ).toBe(true);
      leader = row;
    }
    const final = await auctionRow(db(), auction.id);
    expect(final.lots[0]?.lowestBidId).toBe(leader?.id);
    expect(final.lots[0]?.lowestCents).toBe(leader?.amountCents);
    expect(final.lots[0]?.leaderOrganizationId).toBe(leader?.organizationId);
    expect(final.bidCount).toBe(rows.length);
    // Ranks come from the auction's sequence, taken once per action under the lock.
    expect(new Set(rows.filter((row) => row.kind === "manual").map((row) => row.rank)).size).toBe(
      rows.filter((row) => row.kind === "manual").length,
    );
    // No auto-bid below its seller's minimum.
    const minimums = await db().select().from(auctionAutoBids).where(eq(auctionAutoBids.auctionId, auction.id));
    for (const row of rows.filter((entry) => entry.kind === "auto")) {
      const minimum = minimums.find((entry) => entry.organizationId === row.organizationId)?.minimumCents ?? 0;
      expect(row.amountCents).toBeGreaterThanOrEqual(minimum);
    }
  });

  it.runIf(kind === "postgres")(
    "keeps every invariant and the audit trail when several machines take bids on one auction at once",
    async () => {
      // Each handle is a machine: its own pool and its own queue, so their changes race in PostgreSQL.
      const machines: Database[] = [];
      const handles = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ databaseUrl: database.url, pgliteDir: "" })),
      );
      for (const handle of handles) machines.push(handle.db);
      try {
        const bidders = sellers.slice(0, 12);
        const auction = await busyAuction(bidders);
        let next = 9_990_000;
        const outcomes = await Promise.all(
          Array.from({ length: 90 }, (_, index) => {
            const seller = bidders[index % bidders.length] as Party;
            const machine = machines[index % machines.length] as Database;
            const request = { auctionId: auction.id, organizationId: seller.organizationId, userId: seller.userId };
            if (index % 10 === 3)
              return setAutoBidMinimum(machine, { ...request, minimumCents: 5_000_000 - index * 1_000 });
            next -= 1_000;
            return placeManualBid(machine, { ...request, amountCents: next });
          }),
        );
        const accepted = outcomes.filter((outcome) => outcome.kind === "accepted");
        expect(accepted.length).toBeGreaterThan(10);
        const rows = await db()
          .select()
          .from(auctionBids)
          .where(eq(auctionBids.auctionId, auction.id))
          .orderBy(asc(auctionBids.id));
        // Every accepted change's bids are there, each once; nothing else is.
        expect(rows.map((row) => row.id).sort((x, y) => x - y)).toEqual(
          accepted
            .flatMap((outcome) => (outcome.kind === "accepted" ? outcome.bids.map((bid) => bid.id) : []))
            .sort((x, y) => x - y),
        );
        // Ids follow the order bids were accepted: each leads over the one before.
        for (let index = 1; index < rows.length; index += 1) {
          const [before, row] = [rows[index - 1], rows[index]];
          if (!before || !row) continue;
          expect(
            leadsOver({ amount: row.amountCents, rank: row.rank }, { amount: before.amountCents, rank: before.rank }),
          ).toBe(true);
        }
        const final = await auctionRow(db(), auction.id);
        const last = rows.at(-1);
        expect(final.lots[0]?.lowestBidId).toBe(last?.id);
        expect(final.lots[0]?.lowestCents).toBe(last?.amountCents);
        expect(final.bidCount).toBe(rows.length);
        // The audit trail: one bid event per bid, naming it; an automatic bid names what set it off.
        const events = await db()
          .select()
          .from(auctionEvents)
          .where(and(eq(auctionEvents.auctionId, auction.id), eq(auctionEvents.kind, "bid")));
        expect(events.map((event) => event.data.bidId).sort((x, y) => Number(x) - Number(y))).toEqual(
          rows.map((row) => row.id),
        );
        for (const row of rows.filter((entry) => entry.kind === "auto")) {
          expect(row.triggeredByBidId !== null || row.triggeredByAutoBidId !== null).toBe(true);
        }
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    },
  );

  it.runIf(kind === "postgres")(
    "never refuses a bid on the state one machine remembers when another machine has moved the auction on",
    async () => {
      const handles = await Promise.all([1, 2].map(() => openDatabase({ databaseUrl: database.url, pgliteDir: "" })));
      const [one, two] = handles.map((handle) => handle.db) as [Database, Database];
      try {
        const endsAt = new Date(Date.now() + 60_000);
        const auction = await createAuctionRow(db(), {
          owner: buyer,
          ...catalogue,
          sellers: [a(), b()],
          reserveCents: 10_000_000,
          decrement: { kind: "amount", value: 1_000 },
          endsAt,
          softClose: { window: 10, extension: 5, cap: 60 },
        });
        const on = (machine: Database, seller: Party, amountCents: number, now?: Date) =>
          placeManualBid(machine, {
            auctionId: auction.id,
            organizationId: seller.organizationId,
            userId: seller.userId,
            amountCents,
            now,
          });
        // Machine one remembers A leading at $9,000.00 and the first end moved by five minutes.
        expect(await on(one, a(), 900_000)).toMatchObject({ kind: "accepted", extended: true });
        // Machine two: B takes the lead, and the end moves again.
        expect(await on(two, b(), 890_000)).toMatchObject({ kind: "accepted", extended: true });
        // On machine one, A is no longer leading, and a bid after the first extended end is on time.
        const late = new Date(endsAt.getTime() + 6 * 60_000);
        expect(await on(one, a(), 880_000, late)).toMatchObject({ kind: "accepted" });
        expect((await auctionRow(db(), auction.id)).lots[0]?.leaderOrganizationId).toBe(a().organizationId);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    },
  );

  it("applies every soft-close extension under concurrent late bids and accepts nothing after the end", async () => {
    const bidders = sellers.slice(0, 10);
    const endsAt = new Date(Date.now() + 60_000);
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: bidders,
      reserveCents: 10_000_000,
      decrement: { kind: "amount", value: 1_000 },
      endsAt,
      softClose: { window: 60, extension: 1, cap: 1_000 },
    });
    const results = await Promise.all(
      bidders.map((seller, index) => bid(auction.id, seller, 9_000_000 - index * 50_000)),
    );
    const accepted = results.filter((result) => result.kind === "accepted").length;
    const row = await auctionRow(db(), auction.id);
    expect(row.extensions).toBe(accepted);
    expect(row.endsAt.getTime()).toBe(endsAt.getTime() + accepted * 60_000);
    const late = await bid(auction.id, bidders[0] as Party, 1_000, new Date(row.endsAt.getTime() + 1));
    expect(late).toMatchObject({ kind: "refused", message: "Bidding has closed." });
  });
});
