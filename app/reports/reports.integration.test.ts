import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLotOf } from "~/auctions/lots/lots.server";
import { auctionBids, auctions, provinces, sealedBids, serviceAreas, services } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../tests/support/auction-fixtures";
import { expectIn, expectNotIn } from "../../tests/support/html";
import { createInvoicedBuyer } from "../../tests/support/invoice-fixtures";
import { closedLotsWithBids, HAULING_AND_CEMENTING } from "../../tests/support/lot-fixtures";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { AUCTION_COLUMNS, LINE_COLUMNS, LOT_COLUMNS, MARKETPLACE_COLUMNS } from "./report-csv.server";

// Savings reports through the HTTP app (issue 21), on auctions with known bids and awards (awards in
// 2011, so the periods are fixed; every figure below is worked by hand in the comments):
//
//   A1 buyer, reverse: reserve $10,000.00; bids $9,500.00 (first), $9,000.00, $8,765.43; 3 invited,
//      2 bidders; awarded through /auctions/:id/award to $8,765.43 on 2011-03-15: saved $1,234.57,
//      123 457 / 1 000 000 = 12.3457% → 12.35%.
//   A2 buyer, sealed: reserve $2,000.00; sealed bids $1,500.00 and $1,800.00 (opening: the highest);
//      awarded $1,500.00 at 2011-04-02 05:00 UTC (April 1, 23:00 in Edmonton: an April award there):
//      saved $500.00, 25.00%.
//   A3 consultant ran it: reserve $5,000.00, awarded $4,500.00 on 2011-03-20: saved $500.00, 10.00%.
//   A4 another buyer, evaluated by the consultant: reserve $3,000.00, awarded $3,000.00: saved 0.
//   A5 buyer, closed but not awarded: in no report.
//
// Buyer's totals: reserve $12,000.00, award $10,265.43, saved $1,734.57 = 14.45475% → 14.45%.
// Marketplace: reserve $20,000.00, award $17,765.43, saved $2,234.57 = 11.17285% → 11.17%;
// March 2011 (A1, A3, A4): reserve $18,000.00, saved $1,734.57 = 9.6365% → 9.64%.
//
// L another buyer's auction of three lots (issue 31), 2 sellers invited, awarded lot by lot on
// 2012-06-10 (a year of its own, so the figures above stay as they were):
//   Lot 1 Hauling, reserve $2,000.00, bid line by line: S1 10 h × $100.00 + 2.5 km × $50.00 + 100 m³ ×
//     $3.00 = $1,425.00 (first), S2 $90.00, $50.00, $3.50 = $900.00 + $125.00 + $350.00 = $1,375.00,
//     awarded to S2: saved $625.00, 31.25%. Its disposal line (ceiling $4.00): 100 m³ × $4.00 = $400.00
//     less 100 m³ × $3.50 = $350.00: $50.00 saved, 12.50% of $400.00.
//   Lot 2 Cementing, reserve $5,000.00: S2 $4,800.00 (first), S1 $4,500.00, awarded to S1: $500.00, 10.00%.
//   Lot 3 Crane, reserve $1,000.00: nobody bid, not awarded: left out of every figure.
//   The auction: reserve $7,000.00, opening $6,225.00, award $5,875.00, saved $1,125.00 = 16.0714% →
//   16.07%; 2 bidders.
// M the same buyer's auction of one lot, Hauling bid on line by line, awarded 2013-02-01: S1 $100.00,
//   $50.00, $3.99 = $1,524.00 against $2,000.00: $476.00, 23.80%; disposal $400.00 less $399.00 = $1.00,
//   0.25%. One lot: no lot words, only its line.

const day = (iso: string) => new Date(iso);
/** A CSV cell as RFC 4180 writes it: quoted when it holds a comma. */
const cell = (value: string) => (value.includes(",") ? `"${value}"` : value);

describe.each(databaseKinds)("savings reports on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let consultant: Party;
  let otherBuyer: Party;
  let lottedBuyer: Party;
  let lotted: { id: number; title: string };
  let byLines: { id: number; title: string };
  let sellers: Party[];
  let ids: Record<"a1" | "a2" | "a3" | "a4" | "a5", number>;
  let titles: Record<"a1" | "a2" | "a3" | "a4" | "a5", string>;
  let category: string;
  let area: string;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;

  const db = () => app.services.db;
  const closed = { status: "closed" as const, startsAt: day("2011-01-01T00:00Z"), endsAt: day("2011-01-02T00:00Z") };

  /** A closed auction awarded straight in the database to its bid `bidId` (reverse) or sealed bid. */
  async function markAwarded(auctionId: number, bidId: number, sellerId: number, awardedAt: Date) {
    await db()
      .update(auctions)
      .set({ status: "awarded", awardedBidId: bidId, awardedOrganizationId: sellerId, awardedAt })
      .where(eq(auctions.id, auctionId));
  }
  async function bid(auctionId: number, seller: Party, amountCents: number, rank: number) {
    const [row] = await db()
      .insert(auctionBids)
      .values({
        auctionId,
        lotId: (await firstLotOf(db(), auctionId)).id,
        organizationId: seller.organizationId,
        amountCents,
        kind: "manual",
        rank,
      })
      .returning({ id: auctionBids.id });
    return row?.id ?? 0;
  }

  beforeAll(async () => {
    app = await startTestApp(kind, { ...TEST_STAFF_ENV, GST_REGISTRATION_NUMBER: "987654321 RT0001" });
    const catalogue = await catalogueForAuctions(db());
    buyer = await createInvoicedBuyer(db(), "Email Invoice", "Savings Energy Ltd.");
    consultant = await createBuyer(db(), "Careful Consulting Ltd.", 4);
    otherBuyer = await createBuyer(db(), "Other Oil Ltd.");
    lottedBuyer = await createBuyer(db(), "Lotted Savings Ltd.");
    sellers = [];
    for (const name of ["Alpha Hauling", "Beta Vac", "Gamma Crane"]) {
      sellers.push(
        await createSeller(db(), {
          name,
          serviceIds: [catalogue.serviceId],
          serviceAreaIds: [catalogue.serviceAreaId],
        }),
      );
    }
    const [s1, s2, s3] = sellers as [Party, Party, Party];
    as = await signedInClients(() => createClient(app.baseURL), [buyer, consultant, otherBuyer, lottedBuyer, s1]);

    const a1 = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      ...closed,
      reserveCents: 1_000_000,
      sellers: [s1, s2, s3],
    });
    await bid(a1.id, s1, 950_000, 1);
    await bid(a1.id, s2, 900_000, 2);
    const winning = await bid(a1.id, s1, 876_543, 3);
    const awarded = await as(buyer).request(`/auctions/${a1.id}/award`, {
      form: { bid: String(winning), confirm: "yes" },
    });
    expect(awarded.status).toBe(302);
    await db()
      .update(auctions)
      .set({ awardedAt: day("2011-03-15T18:00Z") })
      .where(eq(auctions.id, a1.id));

    const a2 = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      ...closed,
      kind: "sealed",
      reserveCents: 200_000,
      sellers: [s1, s2],
    });
    const sealed = await db()
      .insert(sealedBids)
      .values([
        { auctionId: a2.id, organizationId: s1.organizationId, amountCents: 150_000 },
        { auctionId: a2.id, organizationId: s2.organizationId, amountCents: 180_000 },
      ])
      .returning({ id: sealedBids.id, amountCents: sealedBids.amountCents });
    const lowest = sealed.find((row) => row.amountCents === 150_000);
    await markAwarded(a2.id, lowest?.id ?? 0, s1.organizationId, day("2011-04-02T05:00Z"));

    const a3 = await createAuctionRow(db(), {
      owner: consultant,
      ...catalogue,
      ...closed,
      reserveCents: 500_000,
      sellers: [s3],
    });
    await markAwarded(a3.id, await bid(a3.id, s3, 450_000, 1), s3.organizationId, day("2011-03-20T18:00Z"));

    const a4 = await createAuctionRow(db(), {
      owner: otherBuyer,
      ...catalogue,
      ...closed,
      reserveCents: 300_000,
      sellers: [s2],
      evaluatorOrganizationId: consultant.organizationId,
    });
    await markAwarded(a4.id, await bid(a4.id, s2, 300_000, 1), s2.organizationId, day("2011-03-25T18:00Z"));

    const a5 = await createAuctionRow(db(), { owner: buyer, ...catalogue, ...closed, sellers: [s1] });
    await bid(a5.id, s1, 100_000, 1);

    const l = await closedLotsWithBids(db(), lottedBuyer, [s1, s2], catalogue, closed);
    const split = await as(lottedBuyer).request(`/auctions/${l.auction.id}/award`, { form: l.award });
    expect(split.status).toBe(302);
    await db()
      .update(auctions)
      .set({ awardedAt: day("2012-06-10T18:00Z") })
      .where(eq(auctions.id, l.auction.id));
    lotted = { id: l.auction.id, title: l.auction.title };

    const m = await createAuctionRow(db(), {
      owner: lottedBuyer,
      ...catalogue,
      ...closed,
      sellers: [s1],
      lots: HAULING_AND_CEMENTING.slice(0, 1),
    });
    const [mBid] = await db()
      .insert(auctionBids)
      .values({
        auctionId: m.id,
        lotId: m.lots[0]?.id ?? 0,
        organizationId: s1.organizationId,
        amountCents: 152_400,
        unitCents: [10_000, 5_000, 399],
        kind: "manual",
        rank: 1,
      })
      .returning({ id: auctionBids.id });
    const mAward = await as(lottedBuyer).request(`/auctions/${m.id}/award`, {
      form: { [`lot_${m.lots[0]?.id}`]: String(mBid?.id), confirm: "yes" },
    });
    expect(mAward.status).toBe(302);
    await db()
      .update(auctions)
      .set({ awardedAt: day("2013-02-01T18:00Z") })
      .where(eq(auctions.id, m.id));
    byLines = { id: m.id, title: m.title };

    ids = { a1: a1.id, a2: a2.id, a3: a3.id, a4: a4.id, a5: a5.id };
    titles = { a1: a1.title, a2: a2.title, a3: a3.title, a4: a4.title, a5: a5.title };
    const [service] = await db().select().from(services).where(eq(services.id, catalogue.serviceId));
    const [parentService] = await db()
      .select()
      .from(services)
      .where(eq(services.id, service?.parentId ?? 0));
    // The catalogue's leaf is at depth 2 or 3: the category is the depth-1 service above it.
    const [top] = parentService?.parentId
      ? await db().select().from(services).where(eq(services.id, parentService.parentId))
      : [parentService];
    category = top?.name ?? "";
    const [place] = await db()
      .select({ city: serviceAreas.city, province: provinces.code })
      .from(serviceAreas)
      .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
      .where(eq(serviceAreas.id, catalogue.serviceAreaId));
    area = `${place?.city}, ${place?.province}`;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const csvOf = async (party: Party | "staff", path: string) => {
    const answer = await as(party).request(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/csv");
    return (await answer.text()).split("\r\n").filter(Boolean);
  };

  it("shows the buyer each awarded auction of its organization with hand-worked figures", async () => {
    const answer = await as(buyer).request("/account/reports");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expectIn(html, titles.a1);
    expectIn(html, titles.a2);
    for (const text of ["$10,000.00", "$9,500.00", "$8,765.43", "$1,234.57", "12.35%", "$1,800.00", "25.00%"]) {
      expectIn(html, text);
    }
    // The period's totals, and the chart's text alternative.
    expectIn(html, "$1,734.57 (14.45%)");
    expectIn(html, "March 2011: $1,234.57 saved; April 2011: $500.00 saved");
    for (const other of [titles.a3, titles.a4, titles.a5]) expectNotIn(html, other);
  });

  it("gives the same report as CSV, with a total line", async () => {
    const lines = await csvOf(buyer, "/account/reports.csv");
    expect(lines).toEqual([
      AUCTION_COLUMNS.join(","),
      `${ids.a1},${titles.a1},reverse,2011-03-15,10000.00,9500.00,8765.43,1234.57,12.35,3,2`,
      `${ids.a2},${titles.a2},sealed,2011-04-01,2000.00,1800.00,1500.00,500.00,25.00,2,2`,
      "total,2 auctions,,,12000.00,,10265.43,1734.57,14.45,5,4",
    ]);
  });

  it("filters by a period of days in the reader's zone, the same on the page and in the CSV", async () => {
    const html = await (await as(buyer).request("/account/reports?from=2011-03-01&to=2011-03-31")).text();
    expectIn(html, titles.a1);
    expectNotIn(html, titles.a2);
    expectIn(html, 'href="/account/reports.csv?from=2011-03-01&amp;to=2011-03-31"');
    const lines = await csvOf(buyer, "/account/reports.csv?from=2011-04-01&to=2011-04-01");
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual([String(ids.a2), "total"]);
  });

  it("answers a malformed period with a message at the field, not an error page", async () => {
    const answer = await as(buyer).request("/account/reports?from=2011-02-30&to=2011-03-31");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expectIn(html, "Enter the start of the period as a date like 2026-03-31");
    expectIn(html, 'aria-invalid="true"');
    expectIn(html, titles.a1);
  });

  it("shows a consultant only the auctions it ran, not those it evaluated for others", async () => {
    const html = await (await as(consultant).request("/account/reports")).text();
    expectIn(html, titles.a3);
    expectIn(html, "$500.00 (10.00%)");
    for (const other of [titles.a1, titles.a2, titles.a4]) expectNotIn(html, other);
    const lines = await csvOf(consultant, "/account/reports.csv");
    expect(lines).toHaveLength(3);
  });

  it("shows another buyer only its own", async () => {
    const html = await (await as(otherBuyer).request("/account/reports")).text();
    expectIn(html, titles.a4);
    expectIn(html, "$0.00 (0.00%)");
    for (const other of [titles.a1, titles.a2, titles.a3]) expectNotIn(html, other);
  });

  it("refuses sellers, staff on the account report, everyone but staff on the staff report", async () => {
    const seller = sellers[0] as Party;
    for (const path of ["/account/reports", "/account/reports.csv", "/staff/reports", "/staff/reports.csv"]) {
      expect((await as(seller).request(path)).status, path).toBe(403);
    }
    for (const party of [buyer, consultant]) {
      expect((await as(party).request("/staff/reports")).status).toBe(403);
      expect((await as(party).request("/staff/reports.csv")).status).toBe(403);
    }
    expect((await as("staff").request("/account/reports")).status).toBe(403);
    const visitor = await createClient(app.baseURL).request("/account/reports.csv");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?ref=/account/reports.csv");
  });

  it("gives staff the marketplace's totals by month, category and area", async () => {
    const answer = await as("staff").request("/staff/reports?from=2011-01-01&to=2011-12-31");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expectIn(html, "$2,234.57 (11.17%)");
    expectIn(html, "March 2011");
    expectIn(html, "9.64%");
    expectIn(html, 'href="/staff/reports"');
    // Totals only: no auction title, buyer or seller name.
    for (const title of Object.values(titles)) expectNotIn(html, title);
    expectNotIn(html, "Alpha Hauling");
    const lines = await csvOf("staff", "/staff/reports.csv?from=2011-01-01&to=2011-12-31");
    expect(lines).toEqual([
      MARKETPLACE_COLUMNS.join(","),
      "month,2011-03,3,18000.00,16265.43,1734.57,9.64,5,4",
      "month,2011-04,1,2000.00,1500.00,500.00,25.00,2,2",
      `category,${cell(category)},4,20000.00,17765.43,2234.57,11.17,7,6`,
      `area,${cell(area)},4,20000.00,17765.43,2234.57,11.17,7,6`,
      "total,all,4,20000.00,17765.43,2234.57,11.17,7,6",
    ]);
  });

  it("measures an auction awarded lot by lot over its awarded lots, with each lot's and line's savings", async () => {
    const html = await (await as(lottedBuyer).request("/account/reports?to=2012-12-31")).text();
    expectIn(html, lotted.title);
    expectIn(html, "(2 of 3 lots awarded)");
    expectIn(html, `href="/account/reports/${lotted.id}?to=2012-12-31"`);
    expectIn(html, "Savings by lot and line");
    expectIn(html, "An auction of several lots is measured over its awarded lots only");
    for (const text of ["$7,000.00", "$6,225.00", "$5,875.00", "$1,125.00 (16.07%)"]) expectIn(html, text);
    expectIn(html, 'href="/account/reports/lots.csv?to=2012-12-31"');
    expectIn(html, 'href="/account/reports/lines.csv?to=2012-12-31"');

    expect(await csvOf(lottedBuyer, "/account/reports.csv?to=2012-12-31")).toEqual([
      AUCTION_COLUMNS.join(","),
      `${lotted.id},${lotted.title},reverse,2012-06-10,7000.00,6225.00,5875.00,1125.00,16.07,2,2`,
      "total,1 auction,,,7000.00,,5875.00,1125.00,16.07,2,2",
    ]);
    expect(await csvOf(lottedBuyer, "/account/reports/lots.csv?from=2012-01-01&to=2012-12-31")).toEqual([
      LOT_COLUMNS.join(","),
      `${lotted.id},${lotted.title},2012-06-10,1,Hauling,2000.00,1425.00,1375.00,625.00,31.25,2`,
      `${lotted.id},${lotted.title},2012-06-10,2,Cementing,5000.00,4800.00,4500.00,500.00,10.00,2`,
    ]);
    expect(await csvOf(lottedBuyer, "/account/reports/lines.csv?to=2012-12-31")).toEqual([
      LINE_COLUMNS.join(","),
      `${lotted.id},${lotted.title},2012-06-10,1,3,Disposal,m³,100,4.00,3.50,400.00,350.00,50.00,12.50`,
    ]);
    // The period applies to the lots' file as to the report's.
    expect(await csvOf(lottedBuyer, "/account/reports/lots.csv?from=2011-01-01&to=2011-12-31")).toEqual([
      LOT_COLUMNS.join(","),
    ]);

    // The auction's own page of the report: lot by lot, then line by line.
    const detail = await as(lottedBuyer).request(`/account/reports/${lotted.id}?from=2012-01-01`);
    expect(detail.status).toBe(200);
    const page = await detail.text();
    expectIn(page, 'href="/account/reports?from=2012-01-01"');
    expectIn(page, "2 of its 3 lots were awarded");
    expectIn(page, "<caption>Awarded lots</caption>");
    for (const text of ["Lot 1: Hauling", "$625.00", "31.25%", "Lot 2: Cementing", "$4,800.00", "10.00%"]) {
      expectIn(page, text);
    }
    expectNotIn(page, "Crane");
    expectIn(page, "<caption>Lines with a ceiling</caption>");
    expectIn(page, "Lot 1: Hauling, line 3: Disposal");
    for (const text of ["100 m³", "$4.00", "$3.50", "$400.00", "$350.00", "$50.00", "12.50%"]) expectIn(page, text);

    // Staff's totals read the same figures.
    expect((await csvOf("staff", "/staff/reports.csv?from=2012-01-01&to=2012-12-31")).at(-1)).toBe(
      "total,all,1,7000.00,5875.00,1125.00,16.07,2,2",
    );
  });

  it("shows an auction of one lot bid on line by line by its lines only, without lot words", async () => {
    const html = await (await as(lottedBuyer).request("/account/reports?from=2013-01-01")).text();
    expectIn(html, byLines.title);
    expectIn(html, "Savings by line");
    expectIn(html, `href="/account/reports/${byLines.id}?from=2013-01-01"`);
    for (const text of ["lots awarded", "Savings by lot", "lots.csv", "several lots"]) expectNotIn(html, text);
    expect(await csvOf(lottedBuyer, "/account/reports.csv?from=2013-01-01")).toEqual([
      AUCTION_COLUMNS.join(","),
      `${byLines.id},${byLines.title},reverse,2013-02-01,2000.00,1524.00,1524.00,476.00,23.80,1,1`,
      "total,1 auction,,,2000.00,,1524.00,476.00,23.80,1,1",
    ]);
    expect(await csvOf(lottedBuyer, "/account/reports/lots.csv?from=2013-01-01")).toEqual([LOT_COLUMNS.join(",")]);
    expect(await csvOf(lottedBuyer, "/account/reports/lines.csv?from=2013-01-01")).toEqual([
      LINE_COLUMNS.join(","),
      `${byLines.id},${byLines.title},2013-02-01,1,3,Disposal,m³,100,4.00,3.99,400.00,399.00,1.00,0.25`,
    ]);
    const page = await (await as(lottedBuyer).request(`/account/reports/${byLines.id}`)).text();
    expectIn(page, "Line 3: Disposal");
    for (const text of ["$1.00", "0.25%", "$476.00 (23.80%)"]) expectIn(page, text);
    for (const text of ["Lot 1", "Awarded lots", "lots were awarded"]) expectNotIn(page, text);
  });

  it("keeps an auction of one lot as it was: no lots, no lines, no page of its own to link to", async () => {
    const html = await (await as(buyer).request("/account/reports")).text();
    for (const text of ["lots awarded", "Savings by lot", "Savings by line", "lots.csv", "lines.csv", "several lots"]) {
      expectNotIn(html, text);
    }
    expect(await csvOf(buyer, "/account/reports/lots.csv")).toEqual([LOT_COLUMNS.join(",")]);
    expect(await csvOf(buyer, "/account/reports/lines.csv")).toEqual([LINE_COLUMNS.join(",")]);
    // Its page (reached by address) has its figures and nothing of lots.
    const page = await (await as(buyer).request(`/account/reports/${ids.a1}`)).text();
    expectIn(page, "$1,234.57 (12.35%)");
    expectNotIn(page, "Savings by lot");
    expectNotIn(page, "Savings by line");
  });

  it("gives an auction's page of the report to its own side only", async () => {
    expect((await as(buyer).request(`/account/reports/${lotted.id}`)).status).toBe(404);
    expect((await as(lottedBuyer).request(`/account/reports/${ids.a5}`)).status).toBe(404);
    expect((await as(buyer).request(`/account/reports/${ids.a5}`)).status).toBe(404); // not awarded
    expect((await as(buyer).request("/account/reports/abc")).status).toBe(404);
    for (const path of [`/account/reports/${lotted.id}`, "/account/reports/lots.csv", "/account/reports/lines.csv"]) {
      expect((await as(sellers[0] as Party).request(path)).status, path).toBe(403);
      expect((await as("staff").request(path)).status, path).toBe(403);
    }
  });
});
