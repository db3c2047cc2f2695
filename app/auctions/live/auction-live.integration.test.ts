import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureStaffUser } from "~/accounts/staff/staff.server";
import { loadUser } from "~/sessions/auth.server";
import type { Database } from "~db/database.server";
import { auctionBids } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../../tests/support/auction-fixtures";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { createPostgresDatabase, databaseKinds } from "../../../tests/support/test-database";
import { notifyAuction } from "../auction-changes.server";
import { findAuction, type Viewer, viewFor, viewsFor } from "../auction-views.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import { auctionEventStream, eventStreamAccess } from "./auction-events.server";
import type { AuctionLive } from "./auction-live-hub";

// Live updates over HTTP (issue 9): GET /auctions/:id/events on the production build, read chunk by
// chunk with fetch. A bid reaches the buyer's stream with the bidder's name and a seller's stream
// without anything of the other sellers; bursts are coalesced into one view per viewer; streams end
// when the client leaves; on PostgreSQL a second app machine on the same database hears the change.

type ViewEvent = { id: string; data: Record<string, unknown> };

/** An open event stream: every `view` event parsed, and the raw text as it came over the wire. */
type Stream = {
  response: Response;
  raw: () => string;
  views: ViewEvent[];
  /** Resolves with the first view (from index `from`) that matches, or fails after `timeoutMs`. */
  waitFor(match: (view: Record<string, unknown>) => boolean, from?: number, timeoutMs?: number): Promise<ViewEvent>;
  close(): void;
  ended: Promise<void>;
};

async function openStream(
  baseURL: string,
  pathname: string,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${baseURL}${pathname}`, {
    headers: { accept: "text/event-stream", ...(cookie ? { cookie } : {}), ...headers },
    signal: controller.signal,
  });
  let text = "";
  const views: ViewEvent[] = [];
  const waiters = new Set<() => void>();
  const parse = () => {
    let boundary = text.indexOf("\n\n", parsedUpTo);
    while (boundary !== -1) {
      const block = text.slice(parsedUpTo, boundary);
      parsedUpTo = boundary + 2;
      const lines = block.split("\n");
      const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      if (field("event") === "view") {
        views.push({ id: field("id") ?? "", data: JSON.parse(field("data") ?? "null") });
      }
      boundary = text.indexOf("\n\n", parsedUpTo);
    }
    for (const waiter of waiters) waiter();
  };
  let parsedUpTo = 0;
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += decoder.decode(chunk.value, { stream: true });
        parse();
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    response,
    raw: () => text,
    views,
    ended,
    close: () => controller.abort(),
    waitFor(match, from = 0, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = views.slice(from).find((view) => match(view.data));
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching view within ${timeoutMs} ms; got ${JSON.stringify(views.slice(from))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

async function signIn(app: TestApp, party: { email: string; password: string }): Promise<string> {
  const client = createClient(app.baseURL);
  const response = await client.request("/login", { form: { email: party.email, password: party.password } });
  expect([302, 303]).toContain(response.status);
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function eventually(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(databaseKinds)("live auction updates on %s", (kind) => {
  let app: TestApp;
  let databaseUrl: { url: string; drop(): Promise<void> } | undefined;
  let db: Database;
  let live: AuctionLive;
  let buyer: Party;
  let sellerA: Party;
  let sellerB: Party;
  let sellerC: Party;
  let outsider: Party;
  let otherBuyer: Party;
  let catalogue: Awaited<ReturnType<typeof catalogueForAuctions>>;
  const cookies: Record<string, string> = {};
  const names = {
    a: `Acme Hauling ${process.pid}`,
    b: `Bravo Trucking ${process.pid}`,
    c: `Charlie Vac ${process.pid}`,
  };
  const streams: Stream[] = [];
  const staff = { email: `staff-live-${process.pid}@auction.example`, password: "staff-password-1" };

  beforeAll(async () => {
    // On PostgreSQL the database is made here, so a second app machine can join it.
    databaseUrl = kind === "postgres" ? await createPostgresDatabase() : undefined;
    app = await startTestApp(kind, databaseUrl ? { DATABASE_URL: databaseUrl.url } : {});
    db = app.services.db;
    if (!app.services.auctionLive) throw new Error("the app has no live hub");
    live = app.services.auctionLive;
    catalogue = await catalogueForAuctions(db);
    const sellerOptions = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    buyer = await createBuyer(db, `Gravel Buyer ${process.pid}`);
    otherBuyer = await createBuyer(db);
    sellerA = await createSeller(db, { ...sellerOptions, name: names.a });
    sellerB = await createSeller(db, { ...sellerOptions, name: names.b });
    sellerC = await createSeller(db, { ...sellerOptions, name: names.c });
    outsider = await createSeller(db, sellerOptions);
    await ensureStaffUser(db, staff.email, staff.password);
    for (const [name, party] of Object.entries({ buyer, sellerA, sellerB, sellerC, outsider, otherBuyer, staff })) {
      cookies[name] = await signIn(app, party);
    }
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await app?.stop();
    await databaseUrl?.drop();
  });

  const open = async (pathname: string, who?: string, headers?: Record<string, string>) => {
    const stream = await openStream(app.baseURL, pathname, who ? cookies[who] : undefined, headers);
    streams.push(stream);
    return stream;
  };
  const newAuction = () => createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [sellerA, sellerB, sellerC] });
  const bid = (auctionId: number, seller: Party, amountCents: number) =>
    placeManualBid(db, { auctionId, organizationId: seller.organizationId, userId: seller.userId, amountCents });

  it("sends the current view at once, unbuffered and uncompressed, with retry and an id", async () => {
    const auction = await newAuction();
    const stream = await open(`/auctions/${auction.id}/events`, "buyer", { "accept-encoding": "gzip, br" });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("cache-control")).toBe("no-cache");
    expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
    expect(stream.response.headers.get("content-encoding")).toBeNull();
    const first = await stream.waitFor((view) => view.kind === "owner");
    // Opaque (a digest of what this viewer sees): no bid sequence or update time to count others by.
    expect(first.id).toMatch(/^[\w-]{22}$/);
    expect(first.data).toMatchObject({ viewer: "owner", status: "open", lowest: null, bidCount: 0 });
    // Its times come formatted by the server in the reader's zone: the browser never formats one (issue 17).
    const startsAt = (first.data.terms as { startsAt: string }).startsAt;
    expect((first.data.times as Record<string, string>)[startsAt]).toMatch(/\d{4}, \d{1,2}:\d{2} [ap]\.m\. M[SD]T$/);
    expect(stream.raw().startsWith("retry: 5000\n\n")).toBe(true);
    stream.close();
  });

  it("brings a bid to the buyer with the bidder's name, and to a seller with nothing of the others", async () => {
    const auction = await newAuction();
    const buyerStream = await open(`/auctions/${auction.id}/events`, "buyer");
    const sellerStream = await open(`/auctions/${auction.id}/events`, "sellerC");
    await buyerStream.waitFor(() => true);
    await sellerStream.waitFor(() => true);

    // A's secret minimum, then B's manual bid, which A's automatic bid answers in the same transaction.
    const minimum = await setAutoBidMinimum(db, {
      auctionId: auction.id,
      organizationId: sellerA.organizationId,
      userId: sellerA.userId,
      minimumCents: 612_340,
    });
    expect(minimum).toMatchObject({ kind: "accepted" });
    expect(await bid(auction.id, sellerB, 955_550)).toMatchObject({ kind: "accepted" });

    const buyerSaw = await buyerStream.waitFor(
      (view) => (view.lowest as { amountCents?: number } | null)?.amountCents === 945_550,
    );
    expect(buyerSaw.data.lowest).toMatchObject({ organizationName: names.a, organizationId: sellerA.organizationId });
    expect(buyerSaw.data.bids).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ organizationName: names.a, amountCents: 945_550, kind: "auto" }),
        expect.objectContaining({ organizationName: names.b, amountCents: 955_550, kind: "manual" }),
      ]),
    );

    const sellerSaw = await sellerStream.waitFor((view) => view.lowestCents === 945_550);
    expect(sellerSaw.data).toMatchObject({ kind: "seller", leading: false, ownBids: [], ownMinimumCents: null });

    // Everything that came over C's wire: the other sellers' names, B's bid (never the lowest once
    // committed), A's minimum, how many bids there are: none of it.
    const raw = sellerStream.raw();
    expect(raw).toContain("945550");
    for (const name of [names.a, names.b, names.c]) expect(raw).not.toContain(name);
    expect(raw).not.toContain("955550");
    expect(raw).not.toContain("612340");
    expect(raw).not.toMatch(/bidCount|organizationName|organizationId|invitations|alias|"bids"/);
  });

  it("builds the same views together (the hub's way) as one by one (the page's way)", async () => {
    const auction = await newAuction();
    await setAutoBidMinimum(db, {
      auctionId: auction.id,
      organizationId: sellerA.organizationId,
      userId: sellerA.userId,
      minimumCents: 700_000,
    });
    expect(await bid(auction.id, sellerB, 950_000)).toMatchObject({ kind: "accepted" });
    expect(await bid(auction.id, sellerC, 900_000)).toMatchObject({ kind: "accepted" });
    const row = await findAuction(db, auction.id);
    if (!row) throw new Error("no auction");
    const viewers: Viewer[] = [
      { kind: "seller", organizationId: sellerA.organizationId },
      { kind: "staff" },
      { kind: "seller", organizationId: sellerB.organizationId },
      { kind: "owner", organizationId: buyer.organizationId },
      { kind: "seller", organizationId: sellerC.organizationId },
    ];
    const now = new Date();
    const together = await viewsFor(db, row, viewers, now);
    const oneByOne = await Promise.all(viewers.map((viewer) => viewFor(db, row, viewer, now)));
    expect(together).toEqual(oneByOne);
    // A's minimum answered at the reserve, then under B, then under C.
    expect(together.map((view) => (view.kind === "owner" ? view.viewer : view.ownBids.length))).toEqual([
      3,
      "staff",
      1,
      "owner",
      1,
    ]);
  });

  it("answers 401 to visitors and 404 to anyone who may not see the auction, never 5xx", async () => {
    const auction = await newAuction();
    const draft = await createAuctionRow(db, { owner: buyer, ...catalogue, status: "draft", sellers: [sellerA] });
    const status = async (pathname: string, who?: string) => {
      const response = await fetch(`${app.baseURL}${pathname}`, {
        headers: who ? { cookie: cookies[who] as string } : {},
      });
      await response.body?.cancel();
      return response.status;
    };
    expect(await status(`/auctions/${auction.id}/events`)).toBe(401);
    expect(await status(`/auctions/${auction.id}/events`, "outsider")).toBe(404);
    expect(await status(`/auctions/${auction.id}/events`, "otherBuyer")).toBe(404);
    expect(await status(`/auctions/${draft.id}/events`, "sellerA")).toBe(404);
    expect(await status("/auctions/2147483647/events", "buyer")).toBe(404);
    expect(await status("/auctions/99999999999/events", "buyer")).toBe(404);
    expect(await status("/auctions/abc/events", "buyer")).toBe(404);
    expect(await status("/auctions/abc/events")).toBe(401);
  });

  it("answers HEAD with the headers only, leaving nothing subscribed", async () => {
    const auction = await newAuction();
    const response = await fetch(`${app.baseURL}/auctions/${auction.id}/events`, {
      method: "HEAD",
      headers: { cookie: cookies.buyer as string },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(live.stats(auction.id).subscribers).toBe(0);
  });

  it("builds each distinct view once per burst, however many watch it, and sends only views that changed", async () => {
    const auction = await newAuction();
    const path = `/auctions/${auction.id}/events`;
    const watchers = [
      await open(path, "buyer"),
      await open(path, "staff"),
      await open(path, "sellerB"),
      await open(path, "sellerB"),
      await open(path, "sellerB"),
    ];
    for (const watcher of watchers) await watcher.waitFor(() => true);
    // This auction's counters: another auction's streams (an earlier test's, still open) may get
    // views meanwhile, when the clock opens or closes that auction.
    const before = live.stats(auction.id);
    const seen = watchers.map((watcher) => watcher.views.length);

    // Ten notifications at once, each its own transaction (as ten quick bids would send), pipelined on
    // one connection on PostgreSQL (PGlite has only one), and one real change among them: A's bid.
    const notifications = async () => {
      if (databaseUrl) {
        const notifier = postgres(databaseUrl.url, { max: 1, onnotice: () => {} });
        await Promise.all(
          Array.from({ length: 10 }, () => notifier`select pg_notify('auction_events', ${String(auction.id)})`),
        );
        await notifier.end();
      } else {
        await Promise.all(Array.from({ length: 10 }, () => notifyAuction(db, auction.id)));
      }
    };
    const [accepted] = await Promise.all([bid(auction.id, sellerA, 990_000), notifications()]);
    expect(accepted).toMatchObject({ kind: "accepted" });
    await eventually(() => live.stats(auction.id).notifications - before.notifications >= 11);
    for (const [index, watcher] of watchers.entries()) {
      await watcher.waitFor(
        (view) =>
          view.lowestCents === 990_000 || (view.lowest as { amountCents?: number } | null)?.amountCents === 990_000,
        seen[index],
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    const after = live.stats(auction.id);
    const runs = after.runs - before.runs;
    // Coalesced: fewer runs than notifications (one starts at the first; the rest wait for one more).
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThan(11);
    // Each run builds the two distinct views once (the full one, seller B's)...
    expect(after.viewsBuilt - before.viewsBuilt).toBe(2 * runs);
    // ...but a stream is sent a view only when what its viewer sees changed: once, for the bid.
    expect(after.viewsDelivered - before.viewsDelivered).toBe(5);
    for (const [index, watcher] of watchers.entries()) expect(watcher.views.length - (seen[index] ?? 0)).toBe(1);
    // Seller B's three streams got the very same event each time.
    expect(watchers[3]?.views.map((view) => view.id)).toEqual(watchers[2]?.views.map((view) => view.id));
    expect(watchers[0]?.views.at(-1)?.data.viewer).toBe("owner");
    expect(watchers[1]?.views.at(-1)?.data.viewer).toBe("staff");
    expect(watchers[2]?.views.at(-1)?.data.kind).toBe("seller");
    for (const watcher of watchers) watcher.close();
  });

  it("ends the stream and forgets the subscriber when the client goes away", async () => {
    const auction = await newAuction();
    const stream = await open(`/auctions/${auction.id}/events`, "sellerA");
    await stream.waitFor(() => true);
    expect(live.stats(auction.id)).toMatchObject({ subscribers: 1, auctions: 1 });
    stream.close();
    await stream.ended;
    await eventually(() => live.stats(auction.id).auctions === 0);
    // A change after the client left is not sent anywhere and breaks nothing.
    expect(await bid(auction.id, sellerA, 900_000)).toMatchObject({ kind: "accepted" });
    const health = await fetch(`${app.baseURL}/healthz`);
    expect(health.status).toBe(200);
  });

  it("keeps the connection alive with a comment between changes", async () => {
    const auction = await newAuction();
    const access = await eventStreamAccess(db, await loadUser(db, buyer.userId), String(auction.id));
    if (access instanceof Response) throw new Error(`refused: ${access.status}`);
    const controller = new AbortController();
    const response = auctionEventStream(db, live, access, controller.signal, { heartbeatMs: 50 });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": heartbeat\n\n") || !text.includes("event: view")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toMatch(/^retry: 5000\n\n/);
    expect(text).toContain(": heartbeat\n\n");
    controller.abort();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it("tells a seller nothing of how many bids the others placed: every id and number it gets is its own (issue 17)", async () => {
    // Reserve $10,000.00, decrement $100.00; A, B and C invited. Bid ids far from any other number
    // on a page, so that one showing up anywhere A looks is found.
    const auction = await newAuction();
    const elsewhere = await newAuction();
    await db.execute(sql`select setval(pg_get_serial_sequence('auction_bids', 'id'), 7770000)`);
    const page = (pathname: string) =>
      fetch(`${app.baseURL}${pathname}`, { headers: { cookie: cookies.sellerA as string } });
    const bidAsA = async (amount: string) => {
      const response = await fetch(`${app.baseURL}/auctions/${auction.id}`, {
        method: "POST",
        headers: { cookie: cookies.sellerA as string, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "bid", amount }).toString(),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      return response.headers.get("location");
    };
    const streamA = await open(`/auctions/${auction.id}/events`, "sellerA");
    await streamA.waitFor(() => true);

    // A and B bid alternately; between A's bids B and C also bid on another auction.
    const locations = [await bidAsA("9000")];
    expect(await bid(auction.id, sellerB, 890_000)).toMatchObject({ kind: "accepted" });
    for (const [seller, cents] of [
      [sellerB, 950_000],
      [sellerC, 940_000],
      [sellerB, 930_000],
    ] as const) {
      expect(await bid(elsewhere.id, seller, cents)).toMatchObject({ kind: "accepted" });
    }
    locations.push(await bidAsA("8800"));
    expect(await bid(auction.id, sellerB, 870_000)).toMatchObject({ kind: "accepted" });
    locations.push(await bidAsA("8600"));

    // The redirect after each bid: the same address, whatever the others did.
    expect(locations).toEqual(Array(3).fill(`/auctions/${auction.id}?done=placed`));
    const lastSeen = await streamA.waitFor((view) => view.lowestCents === 860_000);
    // A's own bids are numbered among A's own: 3, 2, 1 (newest first), not by the auction's bid ids.
    expect(lastSeen.data.ownBids).toEqual([
      expect.objectContaining({ number: 3, amountCents: 860_000 }),
      expect.objectContaining({ number: 2, amountCents: 880_000 }),
      expect.objectContaining({ number: 1, amountCents: 900_000 }),
    ]);
    expect(lastSeen.data.ownBidCount).toBe(3);
    for (const view of streamA.views) expect(view.id).toMatch(/^[\w-]{22}$/);

    // No bid id (A's own included: their gaps count the others' bids) in anything A received.
    const bidIds = (await db.select({ id: auctionBids.id }).from(auctionBids))
      .filter((row) => row.id > 7_770_000)
      .map((row) => String(row.id));
    expect(bidIds.length).toBeGreaterThanOrEqual(8);
    const auctionPage = await page(`/auctions/${auction.id}?done=placed`);
    const ownBidsPage = await page(`/auctions/${auction.id}/own-bids`);
    const received = {
      page: await auctionPage.text(),
      ownBids: await ownBidsPage.text(),
      data: await (await page(`/auctions/${auction.id}.data`)).text(),
      stream: streamA.raw(),
      locations: locations.join(" "),
    };
    expect(received.ownBids).toMatch(/3 bids(<!-- -->)?, newest first/);
    for (const [what, text] of Object.entries(received)) {
      for (const id of bidIds) expect(text.includes(id), `${what} contains bid id ${id}`).toBe(false);
    }

    // Changes A cannot see (bids elsewhere, a refused bid of B's, any other notification) send A
    // nothing, and A's id stays what it was: a new stream (as after a reconnect) starts with the same id.
    const before = { views: streamA.views.length, notifications: live.stats().notifications };
    expect(await bid(elsewhere.id, sellerC, 920_000)).toMatchObject({ kind: "accepted" });
    expect(await bid(auction.id, sellerB, 999_999)).toMatchObject({ kind: "refused" });
    await notifyAuction(db, auction.id);
    await eventually(() => live.stats().notifications - before.notifications >= 2);
    const lastId = streamA.views.at(-1)?.id as string;
    const reconnected = await open(`/auctions/${auction.id}/events`, "sellerA", { "last-event-id": lastId });
    expect((await reconnected.waitFor(() => true)).id).toBe(lastId);
    expect(streamA.views.length).toBe(before.views);
    // An id the server never sent (an old-style counter, or garbage) is no obstacle either: the current view comes.
    const oldStyle = await open(`/auctions/${auction.id}/events`, "sellerA", { "last-event-id": "4-1764000000000" });
    expect((await oldStyle.waitFor(() => true)).data).toMatchObject({ lowestCents: 860_000, leading: true });
    for (const stream of [reconnected, oldStyle, streamA]) stream.close();
  });

  it.runIf(kind === "postgres")("reaches watchers on another app machine on the same database", async () => {
    const second = await startTestApp("postgres", { DATABASE_URL: databaseUrl?.url });
    try {
      const auction = await newAuction();
      const buyerCookie = await signIn(second, buyer);
      const stream = await openStream(second.baseURL, `/auctions/${auction.id}/events`, buyerCookie);
      streams.push(stream);
      await stream.waitFor(() => true);
      // The bid goes through the first machine's database handle; the second hears of it by NOTIFY.
      expect(await bid(auction.id, sellerA, 970_000)).toMatchObject({ kind: "accepted" });
      const saw = await stream.waitFor((view) => view.bidCount === 1);
      expect(saw.data.lowest).toMatchObject({ amountCents: 970_000, organizationName: names.a });
      stream.close();
    } finally {
      await second.stop();
    }
  });
});
