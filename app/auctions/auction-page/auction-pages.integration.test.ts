import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import { auctionBids, auctionEvents, auctionLineItems, auctions, outboxMessages } from "~db/schema";
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

// The auction pages as a browser without JavaScript uses them (issue 9): a buyer writes the terms,
// invites eligible sellers and publishes; sellers accept the terms and bid (a large drop is asked
// about once more), set a secret minimum; the auction closes on time and the buyer awards it. Who
// sees what: sellers never see each other; nobody else sees anything.

describe.each(databaseKinds)("auction pages on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let alpha: Party;
  let bravo: Party;
  let outsider: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const { db } = app.services;
    catalogue = await catalogueForAuctions(db);
    buyer = await createBuyer(db, "Foothills Energy Ltd.");
    const offers = offering(catalogue);
    alpha = await createSeller(db, { name: "Alpha Hauling Ltd.", ...offers });
    bravo = await createSeller(db, { name: "Bravo Trucking Inc.", ...offers });
    // Not eligible: insurance expires before the auction can end.
    outsider = await createSeller(db, { name: "Expired Insurance Co.", ...offers, insuranceExpiry: "2020-01-01" });
    as = await signedInClients(() => createClient(app.baseURL), [buyer, alpha, bravo, outsider]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const db = () => app.services.db;
  const local = (offsetMs: number) => {
    // The buyer has no time zone set: America/Edmonton.
    const text = new Intl.DateTimeFormat("sv-SE", {
      timeZone: "America/Edmonton",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    }).format(new Date(Date.now() + offsetMs));
    return text.replace(" ", "T");
  };

  function termsForm(changes: Record<string, string> = {}) {
    return {
      title: "Gravel hauling to 12-34 lease",
      description: "40 loads of 3/4 inch crush.",
      // A group: sellers offering a service under it qualify.
      service: String(catalogue.parentServiceId),
      service_area: String(catalogue.serviceAreaId),
      reserve: "50,000.00",
      decrement_kind: "amount",
      decrement_amount: "500",
      decrement_percent: "",
      starts_at: local(2 * 60_000),
      ends_at: local(3 * 3_600_000),
      soft_close_window: "5",
      soft_close_extension: "5",
      soft_close_cap: "60",
      ...changes,
    };
  }

  it("refuses a bid over the reserve by naming the reserve, and one not low enough by the most allowed now (issue 17)", async () => {
    // Reserve $10,000.00, decrement $100.00: Alpha $9,000.00, Bravo $8,900.00, then Alpha $10,500.00.
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [alpha, bravo] });
    const bid = (party: Party, amount: string) =>
      as(party).request(`/auctions/${auction.id}`, { form: { intent: "bid", amount, confirm: "yes" } });
    expect((await bid(alpha, "9000")).status).toBe(302);
    expect((await bid(bravo, "8900")).status).toBe(302);

    const overReserve = await bid(alpha, "10500");
    expect(overReserve.status).toBe(400);
    const overReserveHtml = await overReserve.text();
    expectIn(
      overReserveHtml,
      "Your bid cannot be more than the reserve price of $10,000.00, and must be $8,800.00 or less now",
    );
    expectNotIn(overReserveHtml, "reserve price of $8,800.00");
    expectIn(overReserveHtml, 'value="10500"');

    const notLowEnough = await bid(alpha, "8850");
    expect(notLowEnough.status).toBe(400);
    const notLowEnoughHtml = await notLowEnough.text();
    expectIn(
      notLowEnoughHtml,
      "Your bid must be $8,800.00 or less: the current lowest price less the minimum decrement",
    );
    expectNotIn(notLowEnoughHtml, "reserve price of $8,800.00");

    const minimum = await as(alpha).request(`/auctions/${auction.id}`, {
      form: { intent: "auto-bid", minimum: "10500" },
    });
    expect(minimum.status).toBe(400);
    expectIn(await minimum.text(), "Your minimum cannot be more than the reserve price of $10,000.00");
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id))).toHaveLength(2);
  });

  it("shows each seller only their rank when the buyer chooses ranks only (issue 31)", async () => {
    // The buyer's choice on the terms form, kept and shown with the terms.
    const created = await as(buyer).request("/auctions/new", { form: termsForm({ seller_view: "rank" }) });
    expect(created.status).toBe(302);
    const draftId = Number(/\/auctions\/(\d+)\/sellers/.exec(created.headers.get("location") ?? "")?.[1]);
    expect((await auctionRow(db(), draftId)).sellerView).toBe("rank");
    expectIn(await (await as(buyer).request(`/auctions/${draftId}`)).text(), "Their rank only (1st, 2nd, …)");
    const wrongChoice = await as(buyer).request("/auctions/new", { form: termsForm({ seller_view: "prices" }) });
    expect(wrongChoice.status).toBe(400);
    expectIn(await wrongChoice.text(), "Please choose what sellers see");

    // Reserve $10,000.00, decrement $100.00. Each bid beats the seller's own, not the lowest.
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      sellerView: "rank",
      softClose: { window: 0, extension: 0, cap: 0 },
    });
    const page = async (party: Party) => (await as(party).request(`/auctions/${auction.id}`)).text();
    const bid = (party: Party, amount: string) =>
      as(party).request(`/auctions/${auction.id}`, { form: { intent: "bid", amount, confirm: "yes" } });
    expect((await bid(alpha, "9000")).status).toBe(302);
    // Above Alpha's price: Bravo cannot know it, so it is taken, and ranks second.
    expect((await bid(bravo, "9500")).status).toBe(302);
    const bravoPage = await page(bravo);
    expectIn(bravoPage, "You are 2nd");
    expectIn(bravoPage, "This auction shows sellers their rank only, so it takes no secret minimum");
    // Nowhere on the page, nor in the data it carries for the live view, is Alpha's price.
    expectNotIn(bravoPage, "9,000.00");
    expectNotIn(bravoPage, "900000");
    expectNotIn(bravoPage, "Current lowest price");
    expectIn(await page(alpha), "You have the lowest bid");

    const notUnderOwn = await bid(bravo, "9450");
    expect(notUnderOwn.status).toBe(400);
    const notUnderOwnHtml = await notUnderOwn.text();
    expectIn(
      notUnderOwnHtml,
      "Your bid must be $9,400.00 or less: your own lowest bid of $9,500.00 less the minimum decrement",
    );
    expectNotIn(notUnderOwnHtml, "9,000.00");
    const minimum = await as(bravo).request(`/auctions/${auction.id}`, {
      form: { intent: "auto-bid", minimum: "5000" },
    });
    expect(minimum.status).toBeGreaterThanOrEqual(400);
    expect(minimum.status).toBeLessThan(500);
    expectIn(await minimum.text(), "takes no secret minimum");

    // Bravo takes the lead; the leader may still widen it.
    expect((await bid(bravo, "8950")).status).toBe(302);
    expectIn(await page(bravo), "You have the lowest bid");
    const alphaPage = await page(alpha);
    expectIn(alphaPage, "You are 2nd");
    expectNotIn(alphaPage, "8,950.00");
    // What Alpha may bid is measured from Alpha's own bid.
    expectIn(alphaPage, "Allowed: up to $8,900.00");
    expect((await bid(bravo, "8700")).status).toBe(302);
    // The buyer sees every price.
    const buyerPage = await page(buyer);
    for (const price of ["$9,000.00", "$9,500.00", "$8,950.00", "$8,700.00"]) expectIn(buyerPage, price);
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auction.id))).toHaveLength(4);
  });

  it("takes an auction from the buyer's terms through invitations, bidding and close to the award", async () => {
    // The terms: refused with the values kept, then saved as a draft.
    const refused = await as(buyer).request("/auctions/new", {
      form: termsForm({ reserve: "lots", decrement_amount: "", ends_at: local(60_000) }),
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expectIn(refusedHtml, "Please enter an amount in dollars and cents, like 12500.00");
    expectIn(refusedHtml, "Bidding must end after it starts");
    expectIn(refusedHtml, 'value="Gravel hauling to 12-34 lease"');
    const created = await as(buyer).request("/auctions/new", { form: termsForm() });
    expect(created.status).toBe(302);
    const auctionId = Number(/\/auctions\/(\d+)\/sellers/.exec(created.headers.get("location") ?? "")?.[1]);
    const draft = await auctionRow(db(), auctionId);
    expect(draft).toMatchObject({ status: "draft", reserveCents: 5_000_000 });
    // One lot of one line: the auction priced as one amount.
    expect(draft.lots).toMatchObject([
      { position: 1, reserveCents: 5_000_000, decrementKind: "amount", decrementValue: 50_000 },
    ]);
    expect(
      await db()
        .select()
        .from(auctionLineItems)
        .where(eq(auctionLineItems.lotId, draft.lots[0]?.id ?? 0)),
    ).toMatchObject([
      { position: 1, description: draft.title, unit: "lot", quantityThousandths: 1000, ceilingCents: null },
    ]);

    // Eligible sellers only; sellers cannot see a draft.
    const sellersPage = await (await as(buyer).request(`/auctions/${auctionId}/sellers`)).text();
    expectIn(sellersPage, "Alpha Hauling Ltd.");
    expectIn(sellersPage, "Bravo Trucking Inc.");
    expectNotIn(sellersPage, "Expired Insurance Co.");
    const notEligible = await as(buyer).request(`/auctions/${auctionId}/sellers`, {
      form: new URLSearchParams([["sellers", String(outsider.organizationId)]]),
    });
    expect(notEligible.status).toBe(400);
    const invited = await as(buyer).request(`/auctions/${auctionId}/sellers`, {
      form: new URLSearchParams([
        ["sellers", String(alpha.organizationId)],
        ["sellers", String(bravo.organizationId)],
      ]),
    });
    expect(invited.status).toBe(302);
    expect((await as(alpha).request(`/auctions/${auctionId}`)).status).toBe(404);

    // Published: the sellers are e-mailed and see it.
    expect((await as(buyer).request(`/auctions/${auctionId}`, { form: { intent: "publish" } })).status).toBe(302);
    const invitations = await db().select().from(outboxMessages).where(eq(outboxMessages.to, alpha.email));
    expect(invitations.at(-1)?.text).toContain(`/auctions/${auctionId}`);
    expect((await as(alpha).request(`/auctions/${auctionId}`)).status).toBe(200);

    // Open it now (as the clock would at its start) and let both sellers accept the terms.
    await db()
      .update(auctions)
      .set({ startsAt: new Date(Date.now() - 1_000) })
      .where(eq(auctions.id, auctionId));
    expect((await advanceAuctions(app.services)).opened).toBeGreaterThanOrEqual(1);
    const beforeTerms = await as(alpha).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "49000" } });
    expect(beforeTerms.status).toBe(409);
    for (const seller of [alpha, bravo]) {
      expect((await as(seller).request(`/auctions/${auctionId}`, { form: { intent: "accept-terms" } })).status).toBe(
        302,
      );
    }

    // Bids: a large drop is asked about once; a bid that is not low enough is answered at the field.
    const typo = await as(alpha).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "4,900" } });
    expect(typo.status).toBe(200);
    expectIn(await typo.text(), "Place a bid of $4,900.00?");
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, auctionId))).toHaveLength(0);
    const placed = await as(alpha).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "49,000.00" } });
    expect(placed.status).toBe(302);
    // No bid id in the address (issue 17): it would count the other sellers' bids in between.
    expect(placed.headers.get("location")).toBe(`/auctions/${auctionId}?done=placed`);
    const tooHigh = await as(bravo).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "48800" } });
    expect(tooHigh.status).toBe(400);
    const tooHighHtml = await tooHigh.text();
    expectIn(tooHighHtml, "Your bid must be $48,500.00 or less");
    expectIn(tooHighHtml, 'value="48800"');
    // Bravo's secret minimum: the system bids for it at once.
    expect(
      (await as(bravo).request(`/auctions/${auctionId}`, { form: { intent: "auto-bid", minimum: "45000" } })).status,
    ).toBe(302);
    expect(
      (await as(alpha).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "47000" } })).status,
    ).toBe(302);

    // What each party sees.
    const console = await (await as(buyer).request(`/auctions/${auctionId}`)).text();
    for (const text of ["Alpha Hauling Ltd.", "Bravo Trucking Inc.", "$46,500.00", "Automatic", "Manual"]) {
      expectIn(console, text);
    }
    const alphaPage = await (await as(alpha).request(`/auctions/${auctionId}`)).text();
    expectIn(alphaPage, "$46,500.00");
    expectIn(alphaPage, "You do not have the lowest bid");
    expectNotIn(alphaPage, "Bravo Trucking");
    expectNotIn(alphaPage, "$45,000.00");
    expectNotIn(alphaPage, "Bids placed");
    const bravoPage = await (await as(bravo).request(`/auctions/${auctionId}`)).text();
    expectIn(bravoPage, "You have the lowest bid");
    expectIn(bravoPage, "$45,000.00");
    expectNotIn(bravoPage, "Alpha Hauling");
    expectNotIn(bravoPage, "$47,000.00");
    // Staff read the console but change nothing.
    expectIn(await (await as("staff").request(`/auctions/${auctionId}`)).text(), "Alpha Hauling Ltd.");
    expect(
      (await as("staff").request(`/auctions/${auctionId}`, { form: { intent: "cancel", reason: "x", confirm: "yes" } }))
        .status,
    ).toBe(403);
    // The buyer cannot bid, the terms are fixed now.
    expect(
      (await as(buyer).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "1000" } })).status,
    ).toBe(403);
    expect((await as(buyer).request(`/auctions/${auctionId}/edit`, { form: termsForm() })).status).toBe(409);

    // Closed on time by the clock; everyone with a stake is e-mailed.
    const ended = new Date(Date.now() - 1_000);
    await moveAuctionTimes(db(), auctionId, { startsAt: new Date(ended.getTime() - 60_000), endsAt: ended });
    expect((await advanceAuctions(app.services)).closed).toBeGreaterThanOrEqual(1);
    expect((await auctionRow(db(), auctionId)).status).toBe("closed");
    const late = await as(alpha).request(`/auctions/${auctionId}`, { form: { intent: "bid", amount: "40000" } });
    expect(late.status).toBe(409);
    const closedMail = await db().select().from(outboxMessages).where(eq(outboxMessages.to, buyer.email));
    expect(closedMail.some((mail) => mail.subject?.startsWith("Auction closed"))).toBe(true);

    // Award: passing over the lowest needs a reason; a confirmation first.
    const award = await (await as(buyer).request(`/auctions/${auctionId}/award`)).text();
    expectIn(award, "Bravo Trucking Inc.: $46,500.00 (lowest)");
    const alphaBest = (
      await db()
        .select()
        .from(auctionBids)
        .where(
          and(
            eq(auctionBids.auctionId, auctionId),
            eq(auctionBids.organizationId, alpha.organizationId),
            eq(auctionBids.amountCents, 4_700_000),
          ),
        )
    )[0];
    const noReason = await as(buyer).request(`/auctions/${auctionId}/award`, { form: { bid: String(alphaBest?.id) } });
    expect(noReason.status).toBe(400);
    expectIn(await noReason.text(), "Please say why you are passing over the lowest bid");
    const question = await as(buyer).request(`/auctions/${auctionId}/award`, {
      form: { bid: String(alphaBest?.id), reason: "Bravo's trucks failed our safety audit" },
    });
    expect(question.status).toBe(200);
    expectIn(await question.text(), "Award the auction to Alpha Hauling Ltd. at $47,000.00?");
    const awarded = await as(buyer).request(`/auctions/${auctionId}/award`, {
      form: { bid: String(alphaBest?.id), reason: "Bravo's trucks failed our safety audit", confirm: "yes" },
    });
    expect(awarded.status).toBe(302);
    const final = await auctionRow(db(), auctionId);
    expect(final).toMatchObject({
      status: "awarded",
      awardedOrganizationId: alpha.organizationId,
      awardReason: "Bravo's trucks failed our safety audit",
      buyerFeeCents: 25_000,
    });
    const won = await db().select().from(outboxMessages).where(eq(outboxMessages.to, alpha.email));
    expect(won.some((mail) => mail.subject?.startsWith("You won"))).toBe(true);
    const lost = await db().select().from(outboxMessages).where(eq(outboxMessages.to, bravo.email));
    expect(lost.some((mail) => mail.subject?.startsWith("Not awarded"))).toBe(true);
    expectIn(await (await as(alpha).request(`/auctions/${auctionId}`)).text(), "You won this auction");
    const again = await as(buyer).request(`/auctions/${auctionId}/award`, {
      form: { bid: String(alphaBest?.id), reason: "x", confirm: "yes" },
    });
    expect(again.status).toBe(409);
    const events = await db().select().from(auctionEvents).where(eq(auctionEvents.auctionId, auctionId));
    expect(events.map((event) => event.kind)).toEqual(
      expect.arrayContaining([
        "created",
        "invited",
        "published",
        "opened",
        "terms-accepted",
        "bid",
        "auto-bid-set",
        "closed",
        "awarded",
      ]),
    );
  });

  it("lists a seller's latest bids on the auction page and every one of them, only theirs, on their own-bids page", async () => {
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      reserveCents: 10_000_000,
      decrement: { kind: "amount", value: 1_000 },
    });
    let amount = 10_000_000;
    for (let round = 0; round < 25; round += 1) {
      for (const seller of [alpha, bravo]) {
        amount -= 1_000;
        const placed = await placeManualBid(db(), {
          auctionId: auction.id,
          organizationId: seller.organizationId,
          userId: seller.userId,
          amountCents: amount,
        });
        expect(placed.kind).toBe("accepted");
      }
    }
    const page = await (await as(alpha).request(`/auctions/${auction.id}`)).text();
    expect(page.match(/<td>By you<\/td>/g)).toHaveLength(20);
    expectIn(page, "Your latest 20 of 25 bids.");
    expectIn(page, `href="/auctions/${auction.id}/own-bids"`);
    const all = await as(alpha).request(`/auctions/${auction.id}/own-bids`);
    expect(all.status).toBe(200);
    const allHtml = await all.text();
    expect(allHtml.match(/<td>By you<\/td>/g)).toHaveLength(25);
    expectIn(allHtml, "$99,990.00"); // alpha's first bid
    expectNotIn(allHtml, "$99,980.00"); // bravo's first bid
    expectNotIn(allHtml, "Bravo");
    for (const party of [buyer, outsider]) {
      expect((await as(party).request(`/auctions/${auction.id}/own-bids`)).status).toBe(404);
    }
  });

  it("shows nothing to visitors, other buyers, uninvited sellers; answers nonsense with 4xx", async () => {
    const auction = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [alpha] });
    const other = await createBuyer(db());
    const otherClient = createClient(app.baseURL);
    await otherClient.request("/login", { form: { email: other.email, password: other.password } });
    const visitor = await createClient(app.baseURL).request(`/auctions/${auction.id}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?ref=/auctions/${auction.id}`);
    for (const path of [
      `/auctions/${auction.id}`,
      `/auctions/${auction.id}/edit`,
      `/auctions/${auction.id}/sellers`,
      `/auctions/${auction.id}/award`,
    ]) {
      expect((await otherClient.request(path)).status).toBe(404);
      expect((await as(bravo).request(path)).status).toBe(404);
    }
    expect((await as(alpha).request(`/auctions/${auction.id}/edit`)).status).toBe(404);
    expect((await as(alpha).request("/auctions/new")).status).toBe(403);
    for (const path of ["/auctions/0", "/auctions/abc", "/auctions/99999999", "/auctions/1e3"]) {
      expect((await as(buyer).request(path)).status).toBe(404);
    }
    const nonsense: Record<string, string>[] = [
      {},
      { intent: "explode" },
      { intent: "bid", amount: "-5" },
      { intent: "bid", amount: "1.234" },
      { intent: "auto-bid" },
    ];
    for (const form of nonsense) {
      const answer = await as(alpha).request(`/auctions/${auction.id}`, { form });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    // A bid or a minimum from a seller who may not see the auction (not invited, a draft, no such
    // auction) is the same 404 as the page, whatever the amount.
    const draft = await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: [alpha], status: "draft" });
    const bids: [Party, string][] = [
      [bravo, `/auctions/${auction.id}`],
      [alpha, `/auctions/${draft.id}`],
      [alpha, "/auctions/99999999"],
      [alpha, "/auctions/abc"],
    ];
    for (const [seller, path] of bids) {
      const forms: Record<string, string>[] = [
        { intent: "bid", amount: "1000", confirm: "yes" },
        { intent: "bid", amount: "1" },
        { intent: "auto-bid", minimum: "1000" },
      ];
      for (const form of forms) {
        expect((await as(seller).request(path, { form })).status).toBe(404);
      }
    }
    expect(await db().select().from(auctionBids).where(eq(auctionBids.auctionId, draft.id))).toHaveLength(0);
    const list = await (await as(bravo).request("/auctions")).text();
    expectNotIn(list, `/auctions/${auction.id}"`);
    expectIn(await (await as(alpha).request("/auctions")).text(), `/auctions/${auction.id}"`);
  });
});
