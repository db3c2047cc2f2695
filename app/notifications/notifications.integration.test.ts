import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tellBidEffectsSoon } from "~/auctions/bidding/bid-notices.server";
import { auctionLots, bidEffects, notificationOptOuts, notifications, outboxMessages } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { notifyOrganizations, notifyUsers, OUTBID_EMAIL_WINDOW_MS } from "./notifications.server";

// Notifications (issue 10): kept for every user and listed on /account, e-mailed unless the user
// turned the optional kind off; outbid e-mails at most once per user and auction every 5 minutes.

describe.each(databaseKinds)("notifications on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let seller: Party;
  let other: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db);
    const offers = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    seller = await createSeller(db, offers);
    other = await createSeller(db, offers);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const mailsTo = (party: Party) => db().select().from(outboxMessages).where(eq(outboxMessages.to, party.email));
  const kept = (party: Party, kindOf: string) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, party.userId), eq(notifications.kind, kindOf as "outbid")));

  it("keeps and e-mails a notice, but not an optional kind the user turned off", async () => {
    await notifyOrganizations(app.services, [seller.organizationId], {
      kind: "closed",
      subject: "Auction closed: test",
      lines: ["Closed."],
    });
    expect((await mailsTo(seller)).some((mail) => mail.subject === "Auction closed: test")).toBe(true);
    await db().insert(notificationOptOuts).values({ userId: seller.userId, kind: "opened" });
    await notifyOrganizations(app.services, [seller.organizationId], {
      kind: "opened",
      subject: "Bidding is open: test",
      lines: ["Open."],
    });
    expect((await mailsTo(seller)).some((mail) => mail.subject === "Bidding is open: test")).toBe(false);
    const [opened] = await kept(seller, "opened");
    expect(opened?.emailedAt).toBeNull();
  });

  it("e-mails at most one outbid notice per user and auction every five minutes, even at the same moment", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [other] });
    const notice = {
      kind: "outbid" as const,
      auctionId: auction.id,
      subject: `Outbid: ${auction.title}`,
      lines: ["x"],
    };
    const recipient = [{ id: other.userId, email: other.email }];
    const start = new Date();
    await Promise.all([0, 1, 2].map(() => notifyUsers(app.services, recipient, notice, start)));
    await notifyUsers(app.services, recipient, notice, new Date(start.getTime() + OUTBID_EMAIL_WINDOW_MS - 1_000));
    expect((await mailsTo(other)).filter((mail) => mail.subject === notice.subject)).toHaveLength(1);
    await notifyUsers(app.services, recipient, notice, new Date(start.getTime() + OUTBID_EMAIL_WINDOW_MS + 1_000));
    expect((await mailsTo(other)).filter((mail) => mail.subject === notice.subject)).toHaveLength(2);
    // Every one of them is listed.
    const listed = (await kept(other, "outbid")).filter((row) => row.auctionId === auction.id);
    expect(listed).toHaveLength(5);
  });

  it("folds a burst of outbids into one notice per seller, and tells nobody who leads again", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [seller, other] });
    const [lot] = auction.lots;
    if (!lot) throw new Error("no lot");
    await db()
      .update(auctionLots)
      .set({ leaderOrganizationId: seller.organizationId })
      .where(eq(auctionLots.id, lot.id));
    // Ten rounds in a moment, each stored with its bids; the trigger after each: the first fold takes
    // them all, the nine asked for meanwhile fold into one more, which finds nothing left.
    for (let index = 0; index < 10; index += 1) {
      await db()
        .insert(bidEffects)
        .values({
          auctionId: auction.id,
          lotId: lot.id,
          outbidOrganizationIds: [index % 2 === 0 ? other.organizationId : seller.organizationId],
          extended: false,
          endsAt: auction.endsAt,
        });
    }
    await Promise.all(Array.from({ length: 10 }, () => tellBidEffectsSoon(app.services, auction.id)));
    const outbidOn = async (party: Party) =>
      (await kept(party, "outbid")).filter((row) => row.auctionId === auction.id).length;
    expect(await outbidOn(other)).toBe(1);
    // The seller leads again by the time the notices are written: not told it was outbid.
    expect(await outbidOn(seller)).toBe(0);
  });

  it("tells the seller who lost the lead, lists it on /account, and saves the e-mail choices", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [seller, other] });
    const clients = new Map<Party, ReturnType<typeof createClient>>();
    for (const party of [seller, other]) {
      const client = createClient(app.baseURL);
      await client.request("/login", { form: { email: party.email, password: party.password } });
      clients.set(party, client);
    }
    const bid = (party: Party, amount: string) =>
      clients.get(party)?.request(`/auctions/${auction.id}`, { form: { intent: "bid", amount, confirm: "yes" } });
    expect((await bid(seller, "9000"))?.status).toBe(302);
    expect((await bid(other, "8000"))?.status).toBe(302);
    await expect
      .poll(async () => (await kept(seller, "outbid")).filter((row) => row.auctionId === auction.id).length)
      .toBe(1);
    const account = await (await clients.get(seller)?.request("/account"))?.text();
    expectIn(account ?? "", `Outbid: ${auction.title}`);
    expectIn(account ?? "", `href="/auctions/${auction.id}"`);

    // Turning outbid e-mails off: the next one is listed, not e-mailed.
    const saved = await clients.get(seller)?.request("/account", {
      form: new URLSearchParams([
        ["intent", "notifications"],
        ["email", "opened"],
      ]),
    });
    expect(saved?.status).toBe(302);
    expect(await db().select().from(notificationOptOuts).where(eq(notificationOptOuts.userId, seller.userId))).toEqual(
      expect.arrayContaining([
        { userId: seller.userId, kind: "outbid" },
        { userId: seller.userId, kind: "extended" },
      ]),
    );
    const page = await (await clients.get(seller)?.request("/account?done=notifications-saved"))?.text();
    expectIn(page ?? "", "Your e-mail choices have been saved.");
    expectNotIn(page ?? "", 'value="outbid" checked');
    const nonsense = await clients.get(seller)?.request("/account", {
      form: { intent: "notifications", email: "awarded" },
    });
    expect(nonsense?.status).toBe(400);
  });
});
