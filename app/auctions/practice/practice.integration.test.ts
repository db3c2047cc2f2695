import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
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
import { NOT_APPROVED, PRACTICE_BUYER } from "./practice.server";
import { PRACTICE_FLOOR_CENTS, PRACTICE_RESERVE_CENTS } from "./practice-rules";

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
    expect((await as(alpha).request(location, { form: { intent: "accept-terms" } })).status).toBe(302);
    // Competitor B's opening bid.
    expectIn(await (await as(alpha).request(location)).text(), "$9,900.00");

    // Each bid above the simulated proxy's floor is undercut at once by one decrement.
    expect((await bid(alpha, auctionId, "9800.00")).status).toBe(302);
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
