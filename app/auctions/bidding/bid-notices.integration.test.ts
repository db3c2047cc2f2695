import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMessaging, type MessageServices } from "~/messaging/messaging.server";
import { readEnvironment } from "~/platform/env.server";
import { utcMinute } from "~/shared/dates";
import { bidEffects, notifications, organizations, outboxMessages, users } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import {
  auctionRow,
  createAuctionParties,
  createAuctionRow,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { foldBidEffects, sweepBidEffects, tellBidEffectsSoon } from "./bid-notices.server";
import { placeManualBid, setAutoBidMinimum } from "./bid-queue.server";

// Outbid and extension notices that are never lost (issue 19): each round's effects are stored in the
// round's own write, so a process stopping between a bid's commit and its notices loses nothing (the
// sweep tells them), and a fold tells each seller once however many rounds it takes in.

describe.each(databaseKinds)("bid notices on %s", (kind) => {
  let database: TestDatabase;
  let services: MessageServices;
  let buyer: Party;
  let catalogue: Awaited<ReturnType<typeof createAuctionParties>>["catalogue"];
  let sellers: Party[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const env = readEnvironment({ PGLITE_DIR: "memory://" });
    services = { db: database.db, env, messaging: createMessaging(env, database.db) };
    await seedDemoCatalogue(database.db);
    ({ catalogue, buyer, sellers } = await createAuctionParties(database.db, 4));
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const db = () => database.db;
  const seller = (index: number) => sellers[index] as Party;
  const bid = async (auctionId: number, party: Party, amountCents: number) =>
    placeManualBid(db(), { auctionId, organizationId: party.organizationId, userId: party.userId, amountCents });
  const noticesOf = (party: Party, auctionId: number, noticeKind: "outbid" | "extended") =>
    db()
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, party.userId),
          eq(notifications.auctionId, auctionId),
          eq(notifications.kind, noticeKind),
        ),
      );
  const mailsOf = (party: Party, subject: string) =>
    db()
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, party.email), like(outboxMessages.subject, subject)));
  const pending = (auctionId: number) => db().select().from(bidEffects).where(eq(bidEffects.auctionId, auctionId));
  const inAMinute = () => new Date(Date.now() + 60_000);

  it("stores an outbid with the bid, and the sweep tells it once when the process stopped before its notice", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 2) });
    expect(await bid(auction.id, seller(0), 900_000)).toMatchObject({ kind: "accepted" });
    // The first bid took the lead from nobody: nothing is owed.
    expect(await pending(auction.id)).toHaveLength(0);
    expect(await bid(auction.id, seller(1), 890_000)).toMatchObject({ kind: "accepted" });
    // The process "stops" here: the bid committed, its fold never ran.
    const [owed] = await pending(auction.id);
    expect(owed).toMatchObject({ outbidOrganizationIds: [seller(0).organizationId], extended: false });
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(0);
    // A sweep leaves rows younger than its age to the process that wrote them.
    expect(await sweepBidEffects(services)).toBe(0);
    expect(await pending(auction.id)).toHaveLength(1);

    expect(await sweepBidEffects(services, inAMinute())).toBeGreaterThanOrEqual(1);
    const [notice] = await noticesOf(seller(0), auction.id, "outbid");
    expect(notice?.emailedAt).not.toBeNull();
    expect(notice?.text).toBe(
      [
        `Another seller now has the lowest bid in "${auction.title}": $8,900.00.`,
        `Bidding ends ${utcMinute(auction.endsAt)}.`,
        "",
        `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auction.id}`,
      ].join("\n"),
    );
    expect(await mailsOf(seller(0), `Outbid: ${auction.title}`)).toHaveLength(1);
    expect(await noticesOf(seller(1), auction.id, "outbid")).toHaveLength(0);
    expect(await pending(auction.id)).toHaveLength(0);
    // Told once: another sweep (or fold) finds nothing.
    expect(await sweepBidEffects(services, inAMinute())).toBe(0);
    expect(await foldBidEffects(services, auction.id)).toBe(false);
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(1);
    expect(await mailsOf(seller(0), `Outbid: ${auction.title}`)).toHaveLength(1);
  });

  // Issue 21: a bid or minimum entered on a seller's behalf owes the seller a notice from the bid's
  // own commit on. The process "stops" after the commit: the sweep sends it, once, with its text.
  const enteredByOf = async (party: Party) => {
    const [row] = await db()
      .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, org: organizations.name })
      .from(users)
      .leftJoin(organizations, eq(organizations.id, users.organizationId))
      .where(eq(users.id, party.userId));
    const name = [row?.firstName, row?.lastName].filter(Boolean).join(" ").trim() || row?.email;
    return `${name} (${row?.org})`;
  };
  const onBehalfNotices = (party: Party, auctionId: number) =>
    db()
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, party.userId),
          eq(notifications.auctionId, auctionId),
          eq(notifications.kind, "bid-on-behalf"),
        ),
      );
  const note = "Phoned by Sam Seller at 09:15 (America/Edmonton): Their internet is down";

  for (const what of ["bid", "minimum"] as const) {
    it(`stores the notice of a ${what} entered on a seller's behalf with it; after a crash the sweep sends it once`, async () => {
      const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 2) });
      const request = { auctionId: auction.id, organizationId: seller(0).organizationId, userId: buyer.userId };
      const outcome =
        what === "bid"
          ? await placeManualBid(db(), { ...request, amountCents: 900_000, onBehalfNote: note })
          : await setAutoBidMinimum(db(), { ...request, minimumCents: 900_000, onBehalfNote: note });
      expect(outcome).toMatchObject({ kind: "accepted" });
      // The process "stops" here: the bid committed with its owed notice, the fold never ran.
      const [owed] = await pending(auction.id);
      expect(owed?.onBehalf).toEqual([
        { sellerId: seller(0).organizationId, what, amountCents: 900_000, userId: buyer.userId, note },
      ]);
      expect(await onBehalfNotices(seller(0), auction.id)).toHaveLength(0);
      expect(await sweepBidEffects(services)).toBe(0);

      expect(await sweepBidEffects(services, inAMinute())).toBeGreaterThanOrEqual(1);
      const notices = await onBehalfNotices(seller(0), auction.id);
      expect(notices).toHaveLength(1);
      const subject = `${what === "bid" ? "Bid entered" : "Minimum set"} on your behalf: ${auction.title}`;
      const entered =
        what === "bid" ? "a bid of $9,000.00" : "your secret minimum to $9,000.00 (we bid for you down to it)";
      expect(notices[0]?.subject).toBe(subject);
      expect(notices[0]?.text).toBe(
        [
          `${await enteredByOf(buyer)} entered ${entered} on your behalf in "${auction.title}".`,
          `Their note: ${note}`,
          "Bids are binding. If you did not ask for this, contact the auctioneer at once.",
          "",
          `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auction.id}`,
        ].join("\n"),
      );
      expect(notices[0]?.emailedAt).not.toBeNull();
      const mails = await mailsOf(seller(0), subject);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain(`Their note: ${note}`);
      // Sent once: nothing is left for another sweep or fold.
      expect(await pending(auction.id)).toHaveLength(0);
      expect(await sweepBidEffects(services, inAMinute())).toBe(0);
      expect(await foldBidEffects(services, auction.id)).toBe(false);
      expect(await onBehalfNotices(seller(0), auction.id)).toHaveLength(1);
      expect(await mailsOf(seller(0), subject)).toHaveLength(1);
      // A seller's own bid owes no such notice.
      expect(await bid(auction.id, seller(1), 850_000)).toMatchObject({ kind: "accepted" });
      expect((await pending(auction.id)).flatMap((row) => row.onBehalf)).toEqual([]);
    });
  }

  it("keeps the rows when the fold's transaction does not commit, for the next fold", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 2) });
    await bid(auction.id, seller(0), 900_000);
    await bid(auction.id, seller(1), 890_000);
    // A fold that dies before its commit: the notices it wrote roll back with the claim.
    const broken = { ...services, messaging: undefined } as unknown as MessageServices;
    expect(await foldBidEffects(broken, auction.id).catch(() => "failed")).toBe("failed");
    expect(await pending(auction.id)).toHaveLength(1);
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(0);
    await tellBidEffectsSoon(services, auction.id);
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(1);
    expect(await pending(auction.id)).toHaveLength(0);
  });

  // Several connections: PGlite has one, so a second transaction cannot be open beside the first.
  it.runIf(kind === "postgres")(
    "takes bids while a fold that has written notices for the auction is still open",
    async () => {
      const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 2) });
      await bid(auction.id, seller(0), 900_000);
      const outcome = await db().transaction(async (tx) => {
        // What a fold holds until it commits: notification rows referencing the auction.
        await tx.insert(notifications).values({
          userId: seller(0).userId,
          kind: "outbid",
          auctionId: auction.id,
          subject: "held",
          text: "held",
        });
        // On another connection: the round's guarded write must not wait for this transaction.
        const [placed, minimum] = await Promise.all([
          bid(auction.id, seller(1), 890_000),
          setAutoBidMinimum(db(), {
            auctionId: auction.id,
            organizationId: seller(0).organizationId,
            userId: seller(0).userId,
            minimumCents: 700_000,
          }),
        ]);
        return [placed.kind, minimum.kind];
      });
      expect(outcome).toEqual(["accepted", "accepted"]);
    },
  );

  it("stores what a secret minimum's automatic bids mean", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 2) });
    await bid(auction.id, seller(0), 900_000);
    const set = await setAutoBidMinimum(db(), {
      auctionId: auction.id,
      organizationId: seller(1).organizationId,
      userId: seller(1).userId,
      minimumCents: 500_000,
    });
    expect(set).toMatchObject({ kind: "accepted", leaderId: seller(1).organizationId });
    expect(await pending(auction.id)).toMatchObject([{ outbidOrganizationIds: [seller(0).organizationId] }]);
    await sweepBidEffects(services, inAMinute());
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(1);
  });

  it("tells each seller who lost the lead in a burst of bids once per fold, and the leader nothing", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers });
    // Bids one after another and at the same moment: many rounds, each stored, none told yet.
    let amount = 990_000;
    const led = new Set<number>();
    for (let index = 0; index < 8; index += 1) {
      amount -= 10_000;
      expect(await bid(auction.id, seller(index % 3), amount)).toMatchObject({ kind: "accepted" });
      led.add(seller(index % 3).organizationId);
    }
    const burst = await Promise.all(
      sellers.map((party, index) => bid(auction.id, party, amount - 10_000 * (index + 1))),
    );
    // Every accepted bid takes the lead (there are no minimums here).
    burst.forEach((outcome, index) => {
      if (outcome.kind === "accepted") led.add(seller(index).organizationId);
    });
    expect((await pending(auction.id)).length).toBeGreaterThan(1);
    // The bidding page's trigger after each accepted bid: one fold takes every round stored so far,
    // the ones asked for while it runs fold into one more (which finds nothing left).
    await Promise.all(sellers.map(() => tellBidEffectsSoon(services, auction.id)));
    const leader = (await auctionRow(db(), auction.id)).lots[0]?.leaderOrganizationId;
    for (const party of sellers) {
      const told = led.has(party.organizationId) && party.organizationId !== leader ? 1 : 0;
      expect(await noticesOf(party, auction.id, "outbid")).toHaveLength(told);
    }
    expect(await pending(auction.id)).toHaveLength(0);

    // The next bid: one more fold, one more notice for the seller it outbid.
    const next = sellers.slice(0, 3).find((party) => party.organizationId !== leader) as Party;
    expect(await bid(auction.id, next, amount - 100_000)).toMatchObject({ kind: "accepted" });
    await tellBidEffectsSoon(services, auction.id);
    const leaderParty = sellers.find((party) => party.organizationId === leader) as Party;
    expect(await noticesOf(leaderParty, auction.id, "outbid")).toHaveLength(1);
    expect(await noticesOf(next, auction.id, "outbid")).toHaveLength(1);
  });

  it("tells the buyer side and the sellers who accepted the terms the latest end a late bid set", async () => {
    const endsAt = new Date(Date.now() + 120_000);
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: sellers.slice(0, 2),
      endsAt,
      softClose: { window: 5, extension: 3, cap: 10 },
    });
    await bid(auction.id, seller(0), 900_000);
    await bid(auction.id, seller(1), 890_000);
    expect(await pending(auction.id)).toHaveLength(2);
    await sweepBidEffects(services, inAMinute());
    const latest = (await auctionRow(db(), auction.id)).endsAt;
    expect(latest.getTime()).toBe(endsAt.getTime() + 360_000);
    const text = (ends: Date) =>
      [
        `A late bid moved the end of "${auction.title}" to ${utcMinute(ends)}.`,
        "",
        `${services.env.APP_URL.replace(/\/+$/, "")}/auctions/${auction.id}`,
      ].join("\n");
    // One notice per fold for both late bids, with the end the later one set.
    for (const party of [buyer, seller(0), seller(1)]) {
      const told = await noticesOf(party, auction.id, "extended");
      expect(told.map((notice) => [notice.subject, notice.text])).toEqual([
        [`Extended: ${auction.title}`, text(latest)],
      ]);
      expect(await mailsOf(party, `Extended: ${auction.title}`)).toHaveLength(1);
    }
    // A seller not invited is not told.
    expect(await noticesOf(seller(2), auction.id, "extended")).toHaveLength(0);
    expect(await noticesOf(seller(0), auction.id, "outbid")).toHaveLength(1);
  });
});
