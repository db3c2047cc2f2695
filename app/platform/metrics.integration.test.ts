import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages } from "~db/schema";
import {
  catalogueForAuctions,
  createAuctionRow,
  createBuyer,
  createSeller,
  type Party,
} from "../../tests/support/auction-fixtures";
import { freePort } from "../../tests/support/free-port";
import { createClient, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";

// The metrics an operator scrapes (issue 33), on the production build: the app's own metrics server
// on METRICS_PORT, as server.js starts it. A page, a 404, a bid accepted and one refused, a minimum
// and an open event stream, then each family read back from /metrics; the public port has none.

/** One sample's value from Prometheus' text format (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(/,(?=[a-z_]+=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

/** The sum of every sample of `name` whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(/,(?=[a-z_]+=")/);
    if (wanted.every((pair) => present.includes(pair))) sum += Number(match[3]);
  }
  return sum;
}

describe.each(databaseKinds)("metrics on %s", (kind) => {
  let app: TestApp;
  let metricsUrl: string;
  let buyer: Party;
  let seller: Party;
  let rival: Party;
  let auctionId: number;
  const streamClosed = new AbortController();

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp(kind, { METRICS_PORT: String(port), HOST: "127.0.0.1" });
    const served = await app.startMetricsServer();
    if (!served) throw new Error(`the metrics server did not start on port ${port}`);
    expect(served.port).toBe(port);
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    const { db } = app.services;
    const catalogue = await catalogueForAuctions(db);
    const offer = { serviceIds: [catalogue.serviceId], serviceAreaIds: [catalogue.serviceAreaId] };
    buyer = await createBuyer(db);
    seller = await createSeller(db, offer);
    rival = await createSeller(db, offer);
    auctionId = (await createAuctionRow(db, { owner: buyer, ...catalogue, sellers: [seller, rival] })).id;
  });
  afterAll(async () => {
    streamClosed.abort();
    await app?.stop();
  });

  const scrape = async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it("counts requests, bids and the way of a bid to an open event stream, and reads the queues and the pool", async () => {
    const signIn = async (party: Party) => {
      const client = createClient(app.baseURL);
      const answer = await client.request("/login", { form: { email: party.email, password: party.password } });
      expect(answer.status).toBe(302);
      return client;
    };
    const sellerClient = await signIn(seller);
    const rivalClient = await signIn(rival);
    const buyerClient = await signIn(buyer);

    // A static page and the catalogue from memory (the fast paths), a page through the router, a 404.
    expect((await fetch(`${app.baseURL}/`)).status).toBe(200);
    expect((await fetch(`${app.baseURL}/login`)).status).toBe(200);
    expect((await fetch(`${app.baseURL}/api/service_checkboxes`)).status).toBe(200);
    expect((await fetch(`${app.baseURL}/no/such/page/${auctionId}`)).status).toBe(404);

    // The buyer watches the auction: the first view arrives at once.
    const cookie = [...buyerClient.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const stream = await fetch(`${app.baseURL}/auctions/${auctionId}/events`, {
      headers: { cookie, accept: "text/event-stream" },
      signal: streamClosed.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    if (!reader) throw new Error("the event stream has no body");
    let received = "";
    const readUntil = async (text: string) => {
      while (!received.includes(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`the stream ended before ${text}`);
        received += new TextDecoder().decode(chunk.value);
      }
    };
    await readUntil("event: view");

    // A bid accepted, its event on the stream; one refused (higher than the lowest); a minimum set.
    const placed = await sellerClient.request(`/auctions/${auctionId}`, {
      form: { intent: "bid", amount: "9000.00", confirm: "yes" },
    });
    expect(placed.status).toBe(302);
    await readUntil('"amountCents":900000');
    const refused = await rivalClient.request(`/auctions/${auctionId}`, {
      form: { intent: "bid", amount: "9500.00", confirm: "yes" },
    });
    expect(refused.status).toBe(400);
    const minimum = await rivalClient.request(`/auctions/${auctionId}`, {
      form: { intent: "auto-bid", minimum: "7000.00" },
    });
    expect(minimum.status).toBe(302);

    const text = await scrape();
    const requests = "marketplace_http_request_duration_seconds_count";
    expect(sample(text, requests, { route: "/", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, requests, { route: "/login", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, requests, { route: "/api/service_checkboxes", method: "GET", status: "200" })).toBe(1);
    expect(sample(text, requests, { route: "/*", method: "GET", status: "404" })).toBe(1);
    expect(sample(text, requests, { route: "/auctions/:auctionId", method: "POST", status: "302" })).toBe(2);
    expect(sample(text, requests, { route: "/auctions/:auctionId", method: "POST", status: "400" })).toBe(1);
    expect(total(text, "marketplace_http_request_duration_seconds_sum")).toBeGreaterThan(0);
    // Route patterns only: no request's own path (with its id) is a label.
    expect(text).not.toContain(`/${auctionId}`);

    expect(sample(text, "marketplace_bids_accepted_total", { kind: "bid", placed_by: "seller" })).toBe(1);
    expect(sample(text, "marketplace_bids_accepted_total", { kind: "minimum", placed_by: "seller" })).toBe(1);
    expect(sample(text, "marketplace_bids_refused_total", { kind: "bid", placed_by: "seller", reason: "rules" })).toBe(
      1,
    );

    // The accepted bid and the minimum (it bid for the rival at once), each timed to the stream.
    expect(sample(text, "marketplace_bid_to_event_seconds_count")).toBeGreaterThanOrEqual(1);
    const bidToEvent = sample(text, "marketplace_bid_to_event_seconds_sum") ?? Number.NaN;
    expect(bidToEvent).toBeGreaterThan(0);
    expect(bidToEvent).toBeLessThan(10);

    expect(sample(text, "marketplace_event_streams_open")).toBe(1);

    for (const channel of ["email", "sms"]) {
      for (const status of ["queued", "sending", "failed"]) {
        expect(sample(text, "marketplace_outbox_messages", { channel, status })).toBeGreaterThanOrEqual(0);
      }
      for (const outcome of ["retry", "failed"]) {
        expect(sample(text, "marketplace_message_delivery_failures_total", { channel, outcome })).toBe(0);
      }
    }
    expect(sample(text, "marketplace_provider_events", { state: "received" })).toBe(0);
    expect(sample(text, "marketplace_provider_events", { state: "failed" })).toBe(0);
    expect(sample(text, "marketplace_provider_event_failures_total", { outcome: "failed" })).toBe(0);

    const pool = (state: string) => sample(text, "marketplace_database_pool_connections", { state });
    const max = kind === "postgres" ? Number(process.env.DATABASE_POOL_SIZE ?? 10) : 1;
    expect(pool("max")).toBe(max);
    expect(pool("in_use")).toBeGreaterThanOrEqual(0);
    expect(pool("in_use")).toBeLessThanOrEqual(max);
    expect(pool("waiting")).toBeGreaterThanOrEqual(0);

    // Node's own: CPU, memory, the event loop.
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(text).toContain("nodejs_eventloop_lag_seconds");

    // The stream closed, the gauge follows.
    streamClosed.abort();
    await reader.cancel().catch(() => {});
    const deadline = Date.now() + 5_000;
    let open = sample(await scrape(), "marketplace_event_streams_open");
    while (open !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      open = sample(await scrape(), "marketplace_event_streams_open");
    }
    expect(open).toBe(0);
  });

  it("counts a queued message's depth by its channel", async () => {
    // An e-mail queued for a provider that is not configured here would be 'sent' to the dev outbox
    // at once, so the row is written queued directly, as a provider's outage leaves it.
    await app.services.db.insert(outboxMessages).values({
      channel: "sms",
      kind: "test",
      to: "+14035550100",
      text: "Queued for the metrics test",
      provider: "twilio",
      status: "queued",
      nextAttemptAt: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });
    expect(sample(await scrape(), "marketplace_outbox_messages", { channel: "sms", status: "queued" })).toBe(1);
  });

  it("serves /metrics on its own port only: the public site answers 404 there", async () => {
    const publicAnswer = await fetch(`${app.baseURL}/metrics`);
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain("marketplace_");
    const elsewhere = await fetch(metricsUrl.replace("/metrics", "/"));
    expect(elsewhere.status).toBe(404);
  });
});
