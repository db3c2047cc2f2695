import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeQueries } from "~db/database.server";
import {
  catalogueForAuctions,
  createAuctionParties,
  createAuctionRow,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../tests/support/auction-fixtures";
import { expectIn } from "../../tests/support/html";
import { createClient, startTestApp, type TestApp, testRequestTag } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { placeManualBid } from "../auctions/bidding/bid-queue.server";

// Pages grow with their data, not with the square of it (issue 20): the signed-in pages people use
// all day send the same few queries whether an auction has a handful of bids or hundreds, a buyer a
// few notifications or hundreds, the staff queue a few registrations or hundreds. Counted on the
// app's Drizzle client while the page is asked for, once before and once after more data is added.

// 14: an auction page's view is read in one snapshot (`inSnapshot`), which adds the transaction's
// `set transaction` and the auction's row read again inside it (12 before that).
const MOST_QUERIES = 14;

describe.each(databaseKinds)("queries per signed-in page on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let sellers: Party[];
  let auctionId: number;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;
  let lowestCents = 50_000_000;

  const db = () => app.services.db;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    const parties = await createAuctionParties(db(), 3);
    ({ buyer, sellers } = parties);
    const { catalogue } = parties;
    const auction = await createAuctionRow(db(), {
      owner: buyer,
      ...catalogue,
      sellers,
      reserveCents: lowestCents,
      decrement: { kind: "amount", value: 100 },
    });
    auctionId = auction.id;
    for (let index = 0; index < 4; index += 1) {
      await createAuctionRow(db(), { owner: buyer, ...catalogue, sellers: sellers.slice(0, 1) });
    }
    await addData(3);
    as = await signedInClients(() => createClient(app.baseURL), [buyer, ...sellers]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** `count` more bids on the auction, notifications for the buyer, registrations in the staff queue. */
  async function addData(count: number) {
    for (let index = 0; index < count; index += 1) {
      const seller = sellers[index % sellers.length] as Party;
      lowestCents -= 100;
      const outcome = await placeManualBid(db(), {
        auctionId,
        organizationId: seller.organizationId,
        userId: seller.userId,
        amountCents: lowestCents,
      });
      if (outcome.kind !== "accepted") throw new Error(`a bid was not accepted: ${JSON.stringify(outcome)}`);
    }
    await db().execute(sql`
      insert into notifications (user_id, kind, auction_id, subject, text, created_at)
      select ${buyer.userId}, 'outbid', ${auctionId}, 'Update ' || n, 'Something happened.', now()
      from generate_series(1, ${count}::int) as n`);
    const tag = `${Date.now().toString(36)}-${count}`;
    await db().execute(sql`
      with requests as (
        insert into registration_requests (name, organization_name, organization_type, mobile_number, code_salt, code_hash, code_expires_at)
        select 'Pat', 'Applicant ' || n, 2, '+14035550000', 'x', 'x', now()
        from generate_series(1, ${count}::int) as n returning id, organization_name
      ), tokens as (
        insert into registration_access_tokens (registration_request_id, token_hash, expires_at, used_at)
        select id, ${tag} || '-' || id, now(), now() from requests returning id, registration_request_id
      )
      insert into registrations (access_token_id, organization_type, name, address, city, state, country_code,
        postal_zip, phone, email, primary_industry_id, billing_preference)
      select tokens.id, 2, requests.organization_name, '1 Main St', 'Calgary', 'AB', 'CA', 'T2P 1J9', '403-555-0100',
        'office@applicant.example', (select min(id) from industries), 'Email Invoice'
      from tokens join requests on requests.id = tokens.registration_request_id`);
  }

  /**
   * The queries the app sends while answering this page (200 expected), after one warm-up request;
   * only this request's (the app's background work, such as its message delivery, runs meanwhile).
   */
  async function queriesOf(party: Party | "staff", path: string) {
    const client = as(party);
    await (await client.request(path)).arrayBuffer();
    const seen: string[] = [];
    const tag = randomUUID();
    const stop = observeQueries(db(), (query) => {
      if (testRequestTag.getStore() === tag) seen.push(query);
    });
    try {
      const response = await client.request(path, { headers: { "x-test-request": tag } });
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    } finally {
      stop();
    }
    return seen;
  }

  const pages = () => [
    { name: "/account (buyer)", party: buyer, path: "/account" },
    { name: "/account/notifications (buyer)", party: buyer, path: "/account/notifications" },
    { name: "/auctions (buyer)", party: buyer, path: "/auctions" },
    { name: "the buyer's console", party: buyer, path: `/auctions/${auctionId}` },
    { name: "a seller's auction page", party: sellers[0] as Party, path: `/auctions/${auctionId}` },
    { name: "/staff/registrations", party: "staff" as const, path: "/staff/registrations" },
  ];

  it("sends a bounded number of queries per page, the same with ten times the data", async () => {
    const before = new Map<string, string[]>();
    for (const page of pages()) before.set(page.name, await queriesOf(page.party, page.path));
    await addData(30);
    for (const page of pages()) {
      const queries = await queriesOf(page.party, page.path);
      // None seen would mean the counting is broken: each of these pages reads the database.
      expect(queries.length, page.name).toBeGreaterThan(0);
      expect(queries.length, `${page.name}:\n${queries.join("\n")}`).toBeLessThanOrEqual(MOST_QUERIES);
      expect(
        queries.length,
        `${page.name}:\n${queries.join("\n")}\nbefore:\n${before.get(page.name)?.join("\n")}`,
      ).toBe(before.get(page.name)?.length);
    }
  });

  // PostgreSQL only: the page is held at its first read by a lock taken on another connection.
  it.runIf(kind === "postgres")("stops a page's queries once its client has gone", async () => {
    const path = `/auctions/${auctionId}`;
    const client = as(buyer);
    await (await client.request(path)).arrayBuffer();
    const seen: string[] = [];
    const tag = randomUUID();
    const stop = observeQueries(db(), (query) => {
      if (testRequestTag.getStore() === tag) seen.push(query);
    });
    let seenAtAbort = -1;
    try {
      await db().transaction(async (tx) => {
        await tx.execute(sql`lock table auctions in access exclusive mode`);
        const leaving = new AbortController();
        const request = client.request(path, { headers: { "x-test-request": tag }, signal: leaving.signal });
        // The page's read of the auction waits behind the lock: then its client goes away.
        await expect
          .poll(async () => {
            const waiting = await db().execute(
              // The start of the read of the auction with its lots (the text shown is cut at 1 kB, before its FROM).
              sql`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'select "auctions"."id", %'`,
            );
            return (waiting as unknown as { waiting: number }[])[0]?.waiting; // postgres.js: the rows
          })
          .toBe(1);
        leaving.abort();
        await expect(request).rejects.toThrow();
        // The server sees the connection close at its next turn of the event loop.
        await new Promise((resolve) => setTimeout(resolve, 500));
        seenAtAbort = seen.length;
      });
      // The lock is gone: the held read finishes, and nothing after it is sent.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seenAtAbort).toBeGreaterThan(0);
      expect(seen.slice(seenAtAbort), seen.join("\n")).toEqual([]);
    } finally {
      stop();
    }
  });

  it("lists grow by pages: the console's latest bids, the auction list, the staff queue", async () => {
    // Past a page of each: 100 bids, 25 auctions, 50 registrations.
    await addData(80);
    const catalogue = await catalogueForAuctions(db());
    for (let index = 0; index < 25; index += 1) await createAuctionRow(db(), { owner: buyer, ...catalogue });

    const consolePage = await (await as(buyer).request(`/auctions/${auctionId}`)).text();
    expectIn(consolePage, "The latest 100 of 113 bids are shown; the bid history has every one.");
    expectIn(consolePage, "Download the bid history (CSV)");
    const csv = await (await as(buyer).request(`/auctions/${auctionId}/bids.csv`)).text();
    expect(csv.trim().split("\n")).toHaveLength(114);

    const firstAuctions = await (await as(buyer).request("/auctions")).text();
    expectIn(firstAuctions, "Page 1 of 2");
    expectIn(firstAuctions, 'href="/auctions?page=2"');
    const secondAuctions = await (await as(buyer).request("/auctions?page=2")).text();
    expectIn(secondAuctions, "Page 2 of 2");
    expect(secondAuctions.match(/<th scope="row">/g)).toHaveLength(5);

    const queue = await (await as("staff").request("/staff/registrations?status=submitted")).text();
    expectIn(queue, "Page 1 of 3");
    expectIn(queue, 'href="/staff/registrations?status=submitted&amp;page=2"');
    const lastPage = await (await as("staff").request("/staff/registrations?status=submitted&page=3")).text();
    expectIn(lastPage, "Page 3 of 3");
    expect(lastPage.match(/<th scope="row">/g)).toHaveLength(113 - 100);
  });
});
