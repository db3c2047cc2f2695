import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerOf } from "~/platform/rendezvous";
import { observeQueries } from "~db/database.server";
import { createAuctionParties, createAuctionRow, type Party } from "../../../tests/support/auction-fixtures";
import { createClient, requireBuild, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { createPostgresDatabase } from "../../../tests/support/test-database";

// Several machines, one auction (issue 33, decision 028): each auction's bids are decided by one
// machine, the one rendezvous hashing picks among the machines serving now; a bid that lands on
// another is sent on to it. A machine that leaves (stopping) or cannot be reached (crashed) is not
// waited for: the bid is decided where it landed.

requireBuild();

describe.runIf(Boolean(process.env.DATABASE_URL))("an auction's bids on several machines (PostgreSQL)", () => {
  let database: { url: string; drop(): Promise<void> };
  let machineA: TestApp;
  let machineB: TestApp;
  let buyer: Party;
  let sellers: Party[];
  let catalogue: Awaited<ReturnType<typeof createAuctionParties>>["catalogue"];

  const start = (id: string) =>
    startTestApp("postgres", { DATABASE_URL: database.url, FLY_MACHINE_ID: id }, { reachable: true });
  const known = async (app: TestApp) =>
    (await app.services.db.execute(sql`select id from app_machines order by id`)) as unknown as { id: string }[];

  beforeAll(async () => {
    database = await createPostgresDatabase("app");
    machineA = await start("machine-a");
    machineB = await start("machine-b");
    ({ catalogue, buyer, sellers } = await createAuctionParties(machineA.services.db, 3));
  });
  afterAll(async () => {
    await machineA?.stop();
    await machineB?.stop();
    await database?.drop();
  });

  /** An open auction whose bids the named machine takes, among `machines`. */
  async function auctionOwnedBy(owner: string, machines: string[]) {
    for (;;) {
      const auction = await createAuctionRow(machineA.services.db, { owner: buyer, ...catalogue, sellers });
      const chosen = ownerOf(
        `auction:${auction.id}`,
        machines.map((id) => ({ id })),
      );
      if (chosen?.id === owner) return auction;
    }
  }

  async function signedIn(app: TestApp, party: Party) {
    const client = createClient(app.baseURL);
    const answer = await client.request("/login", { form: { email: party.email, password: party.password } });
    expect(answer.status).toBe(302);
    return client;
  }

  const bidForm = (dollars: string) => ({ intent: "bid", amount: dollars, confirm: "yes" });

  it("lists the machines serving, and sends a bid to the machine that takes its auction", async () => {
    const rows = await known(machineA);
    expect(rows.map((row) => row.id)).toEqual(["machine-a", "machine-b"]);
    const auction = await auctionOwnedBy("machine-b", ["machine-a", "machine-b"]);
    const seller = await signedIn(machineA, sellers[0] as Party);

    const queriesOnB: string[] = [];
    const stopObserving = observeQueries(machineB.services.db, (sql) => queriesOnB.push(sql));
    const answer = await seller.request(`/auctions/${auction.id}`, { form: bidForm("9,000.00") });
    stopObserving();

    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toContain("done=placed");
    // Decided on machine B: it wrote the bid.
    expect(queriesOnB.some((sql) => /insert into "auction_bids"|auction_bids/i.test(sql))).toBe(true);
    // The answer is B's, whole: the page it sends the seller to, the session cookie untouched.
    const page = await seller.request(answer.headers.get("location") as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("$9,000.00");
  });

  it("decides a bid where it landed when its machine cannot be reached, without waiting", async () => {
    // A machine that crashed: its row is still fresh, nothing answers at its address.
    await machineA.services.db.execute(
      sql`insert into app_machines (id, url, seen_at) values ('machine-z', 'http://127.0.0.1:9', now())`,
    );
    await machineA.services.db.execute(sql`select pg_notify('app_machines', 'machine-z')`);
    await expect.poll(async () => (await known(machineA)).length).toBe(3);
    const auction = await auctionOwnedBy("machine-z", ["machine-a", "machine-b", "machine-z"]);
    const seller = await signedIn(machineA, sellers[1] as Party);
    const started = Date.now();
    const answer = await seller.request(`/auctions/${auction.id}`, { form: bidForm("9,500.00") });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toContain("done=placed");
    expect(Date.now() - started).toBeLessThan(2_000);
    await machineA.services.db.execute(sql`delete from app_machines where id = 'machine-z'`);
  });

  it("stops sending bids to a machine as soon as it stops, and takes them on another", async () => {
    const auction = await auctionOwnedBy("machine-b", ["machine-a", "machine-b"]);
    await machineB.stop();
    // Its row went when it stopped; machine A heard of it at once.
    expect((await known(machineA)).map((row) => row.id)).toEqual(["machine-a"]);
    const seller = await signedIn(machineA, sellers[2] as Party);
    const started = Date.now();
    const answer = await seller.request(`/auctions/${auction.id}`, { form: bidForm("9,200.00") });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toContain("done=placed");
  });
});
