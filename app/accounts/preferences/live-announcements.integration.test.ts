import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  type Party,
  signedInClients,
  TEST_STAFF_ENV,
} from "../../../tests/support/auction-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Spoken updates on live auction pages (issue 32): the user turns them off and on from the page, the
// choice is kept on their account, and the page they came from is where they return; nothing else.

describe.each(databaseKinds)("turning live announcements off and on on %s", (kind) => {
  let app: TestApp;
  let buyer: Party;
  let auctionId: number;
  let as: (party: Party | "staff") => ReturnType<typeof createClient>;
  const stored = async () =>
    (await app.services.db.select({ on: users.liveAnnouncements }).from(users).where(eq(users.id, buyer.userId)))[0]
      ?.on;

  beforeAll(async () => {
    app = await startTestApp(kind, TEST_STAFF_ENV);
    buyer = await createBuyer(app.services.db);
    const auction = await createAuctionRow(app.services.db, {
      owner: buyer,
      ...(await catalogueForAuctions(app.services.db)),
    });
    auctionId = auction.id;
    as = await signedInClients(() => createClient(app.baseURL), [buyer]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("keeps the choice on the account and goes back to the auction's page", async () => {
    expect(await stored()).toBe(true);
    const page = async () => (await as(buyer).request(`/auctions/${auctionId}`)).text();
    expect(await page()).toContain("Turn announcements off");
    const off = await as(buyer).request("/account/live-announcements", {
      form: { announcements: "off", returnTo: `/auctions/${auctionId}` },
    });
    expect(off.status).toBe(303);
    expect(off.headers.get("location")).toBe(`/auctions/${auctionId}`);
    expect(await stored()).toBe(false);
    // The signed-in user kept in memory was forgotten: the page says so at once.
    expect(await page()).toContain("Turn announcements on");
    const on = await as(buyer).request("/account/live-announcements", {
      form: { announcements: "on", returnTo: `/auctions/${auctionId}` },
    });
    expect(on.status).toBe(303);
    expect(await stored()).toBe(true);
  });

  it("goes nowhere but an auction's page, and refuses anything but on or off", async () => {
    const elsewhere = await as(buyer).request("/account/live-announcements", {
      form: { announcements: "on", returnTo: "https://evil.example/auctions/1" },
    });
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.get("location")).toBe("/account");
    const odd = await as(buyer).request("/account/live-announcements", { form: { announcements: "loud" } });
    expect(odd.status).toBe(400);
    expect(await stored()).toBe(true);
  });

  it("asks a visitor to sign in first", async () => {
    const visitor = await createClient(app.baseURL).request("/account/live-announcements", {
      form: { announcements: "off" },
    });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?ref=/);
  });
});
