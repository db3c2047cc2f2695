import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureStaffUser } from "~/accounts/staff/staff.server";
import { auctionBids } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { placeManualBid, setAutoBidMinimum } from "./bid-queue.server";

// The bid history as CSV (issue 9): every bid with the seller's real name, oldest first, quoted as
// RFC 4180 asks and with formula-looking cells defused; for the auction's own side and staff only.

type Client = ReturnType<typeof createClient>;
const STAFF = { email: "csv-staff@example.com", password: "csv-staff-password" };
const HEADER = "bid_id,placed_at_utc,seller,amount,kind,triggered_by_bid_id,entered_on_behalf_by,on_behalf_note";

describe.each(databaseKinds)("the bid history CSV on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let quoted: Party;
  let formula: Party;
  let plain: Party;
  let outsiderSeller: Party;
  let auctionId: number;
  let emptyAuctionId: number;

  async function signedIn(party: { email: string; password: string }): Promise<Client> {
    const client = createClient(app.baseURL);
    const response = await client.request("/login", { form: { email: party.email, password: party.password } });
    expect(response.status).toBe(302);
    return client;
  }

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    const catalogue = await catalogueForAuctions(db);
    const offers = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    buyer = await createBuyer(db);
    quoted = await createSeller(db, { ...offers, name: 'Smith, "Best" Rigs\nLtd.' });
    formula = await createSeller(db, { ...offers, name: '=HYPERLINK("http://evil.example","Click")' });
    plain = await createSeller(db, { ...offers, name: "Roughneck Services Ltd." });
    outsiderSeller = await createSeller(db, offers);
    await ensureStaffUser(db, STAFF.email, STAFF.password);
    const auction = await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [quoted, formula, plain] });
    auctionId = auction.id;
    emptyAuctionId = (await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [plain] })).id;
    const bid = (seller: Party, amountCents: number) =>
      placeManualBid(db, { auctionId, organizationId: seller.organizationId, userId: seller.userId, amountCents });
    expect((await bid(quoted, 990_000)).kind).toBe("accepted");
    expect(
      (
        await setAutoBidMinimum(db, {
          auctionId,
          organizationId: formula.organizationId,
          userId: formula.userId,
          minimumCents: 700_050,
        })
      ).kind,
    ).toBe("accepted");
    expect((await bid(plain, 900_000)).kind).toBe("accepted");
  });
  afterAll(async () => {
    await app?.stop();
  });

  const path = () => `/auctions/${auctionId}/bids.csv`;

  it("lists every bid, oldest first, quoted and with formulas defused", async () => {
    const owner = await signedIn(buyer);
    const response = await owner.request(path());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="auction-${auctionId}-bids.csv"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const rows = await app.services.db
      .select()
      .from(auctionBids)
      .where(eq(auctionBids.auctionId, auctionId))
      .orderBy(asc(auctionBids.id));
    // The manual bid at 9,900; the auto-bid answering it; 9,000 by hand; the auto-bid answering that.
    expect(rows.map((row) => [row.amountCents, row.kind])).toEqual([
      [990_000, "manual"],
      [980_000, "auto"],
      [900_000, "manual"],
      [890_000, "auto"],
    ]);
    const [first, second, third, fourth] = rows as [
      (typeof rows)[0],
      (typeof rows)[0],
      (typeof rows)[0],
      (typeof rows)[0],
    ];
    const at = (row: (typeof rows)[0]) => row.createdAt.toISOString();
    const formulaName = `"'=HYPERLINK(""http://evil.example"",""Click"")"`;
    expect(await response.text()).toBe(
      [
        HEADER,
        `${first.id},${at(first)},"Smith, ""Best"" Rigs\nLtd.",9900.00,manual,,,`,
        `${second.id},${at(second)},${formulaName},9800.00,auto,,,`,
        `${third.id},${at(third)},Roughneck Services Ltd.,9000.00,manual,,,`,
        `${fourth.id},${at(fourth)},${formulaName},8900.00,auto,${third.id},,`,
        "",
      ].join("\r\n"),
    );
  });

  it("is only the header for an auction without bids", async () => {
    const owner = await signedIn(buyer);
    const response = await owner.request(`/auctions/${emptyAuctionId}/bids.csv`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`${HEADER}\r\n`);
  });

  it("is for the auction's own side and staff; sellers and others get 404, visitors sign in", async () => {
    const staff = await signedIn(STAFF);
    expect((await staff.request(path())).status).toBe(200);
    for (const party of [plain, outsiderSeller, await createBuyer(app.services.db)]) {
      const response = await (await signedIn(party)).request(path());
      expect(response.status, party.email).toBe(404);
      expect(await response.text()).not.toContain("Roughneck");
    }
    const visitor = await createClient(app.baseURL).request(path());
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?ref=${path()}`);
    const owner = await signedIn(buyer);
    expect((await owner.request("/auctions/999999/bids.csv")).status).toBe(404);
  });
});
