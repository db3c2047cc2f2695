import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { attachMetrics, createMetrics, metricsOf, startMetricsServer } from "./metrics.server";

// The metrics module without a database (the integration test scrapes a whole app): one registry per
// application, the bid reasons, the route labels, and the server on its own port.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.restoreAllMocks();
});

async function text(metrics: ReturnType<typeof createMetrics>) {
  return metrics.registry.metrics();
}

/** A request answered with `status` through the hook, as the app's `handle` calls it. */
async function answer(metrics: ReturnType<typeof createMetrics>, url: string, status: number, method = "GET") {
  const labelOf = (pathname: string) =>
    pathname.startsWith("/auctions/") ? "/auctions/:auctionId" : pathname === "/" ? "/" : "/*";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    metrics.observeRequest(req, res, labelOf);
    res.statusCode = status;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await (await fetch(`http://127.0.0.1:${port}${url}`, { method })).arrayBuffer();
  await new Promise((resolve) => server.close(resolve));
}

describe("application metrics", () => {
  it("keeps each application's metrics in its own registry (many apps in one process)", async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.countBid("bid", "seller", { kind: "accepted" });
    expect(await text(first)).toContain('marketplace_bids_accepted_total{kind="bid",placed_by="seller"} 1');
    expect(await text(second)).not.toContain('marketplace_bids_accepted_total{kind="bid",placed_by="seller"}');
    const db = {};
    attachMetrics(db, second);
    expect(metricsOf(db)).toBe(second);
    expect(metricsOf({})).toBeUndefined();
  });

  it("counts refusals under a small fixed set of reasons", async () => {
    const metrics = createMetrics();
    metrics.countBid("bid", "seller", { kind: "refused", status: 400 });
    metrics.countBid("bid", "on_behalf", { kind: "refused", status: 403 });
    metrics.countBid("minimum", "seller", { kind: "refused", status: 404 });
    metrics.countBid("bid", "seller", { kind: "refused", status: 409 });
    metrics.countBid("bid", "seller", { kind: "unconfirmed" });
    metrics.countBid("bid", "seller", undefined);
    const scraped = await text(metrics);
    for (const line of [
      'marketplace_bids_refused_total{kind="bid",placed_by="seller",reason="rules"} 1',
      'marketplace_bids_refused_total{kind="bid",placed_by="on_behalf",reason="standing"} 1',
      'marketplace_bids_refused_total{kind="minimum",placed_by="seller",reason="not_invited"} 1',
      'marketplace_bids_refused_total{kind="bid",placed_by="seller",reason="not_open"} 1',
      'marketplace_bids_refused_total{kind="bid",placed_by="seller",reason="unconfirmed"} 1',
      'marketplace_bids_refused_total{kind="bid",placed_by="seller",reason="error"} 1',
    ]) {
      expect(scraped).toContain(line);
    }
  });

  it("times a bid to its event once, when the hub delivers the auction's views", async () => {
    const metrics = createMetrics();
    metrics.bidCommitted(7, Date.now() - 100);
    metrics.bidEventsDelivered(8);
    expect(await text(metrics)).toContain("marketplace_bid_to_event_seconds_count 0");
    metrics.bidEventsDelivered(7);
    metrics.bidEventsDelivered(7);
    const scraped = await text(metrics);
    expect(scraped).toContain("marketplace_bid_to_event_seconds_count 1");
    expect(scraped).toMatch(/marketplace_bid_to_event_seconds_bucket\{le="0.05"\} 0/);
    expect(scraped).toMatch(/marketplace_bid_to_event_seconds_bucket\{le="0.5"\} 1/);
  });

  it("labels requests by route pattern, files as one label, and unknown methods as other", async () => {
    const metrics = createMetrics();
    await answer(metrics, "/auctions/41?tab=bids", 200);
    await answer(metrics, "/assets/entry-3f9a0c.js", 200);
    await answer(metrics, "/no/such.page", 404);
    await answer(metrics, "/", 200, "PROPFIND");
    const scraped = await text(metrics);
    const count = "marketplace_http_request_duration_seconds_count";
    expect(scraped).toContain(`${count}{route="/auctions/:auctionId",method="GET",status="200"} 1`);
    expect(scraped).toContain(`${count}{route="static file",method="GET",status="200"} 1`);
    expect(scraped).toContain(`${count}{route="/*",method="GET",status="404"} 1`);
    expect(scraped).toContain(`${count}{route="/",method="other",status="200"} 1`);
    expect(scraped).not.toContain("/auctions/41");
  });

  it("reads the queue, the pool and the streams at scrape time, and still answers when the database is away", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    let streams = 3;
    const metrics = createMetrics({
      openEventStreams: () => streams,
      databasePool: () => ({ inUse: 2, waiting: 0, max: 10 }),
      outboxMessages: async () => [{ channel: "sms", status: "queued", count: 4 }],
      providerEvents: async () => {
        throw new Error("connection refused");
      },
    });
    let scraped = await text(metrics);
    expect(scraped).toContain("marketplace_event_streams_open 3");
    expect(scraped).toContain('marketplace_database_pool_connections{state="in_use"} 2');
    expect(scraped).toContain('marketplace_database_pool_connections{state="max"} 10');
    expect(scraped).toContain('marketplace_outbox_messages{channel="sms",status="queued"} 4');
    expect(scraped).toContain('marketplace_outbox_messages{channel="email",status="failed"} 0');
    expect(scraped).not.toMatch(/^marketplace_provider_events\{/m);
    streams = 0;
    scraped = await text(metrics);
    expect(scraped).toContain("marketplace_event_streams_open 0");
  });
});

describe("the metrics server", () => {
  it("serves GET /metrics in Prometheus' text format with Node's own metrics, and 404 elsewhere", async () => {
    const metrics = createMetrics();
    const server = await startMetricsServer(metrics, 0, "127.0.0.1");
    if (!server) throw new Error("the metrics server did not start");
    closers.push(server.close);
    const scraped = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await scraped.text();
    expect(body).toContain("process_cpu_user_seconds_total");
    expect(body).toContain("marketplace_bids_accepted_total");
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("warns and serves nothing when its port is taken, rather than stopping the start", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const first = await startMetricsServer(createMetrics(), 0, "127.0.0.1");
    if (!first) throw new Error("the metrics server did not start");
    closers.push(first.close);
    expect(await startMetricsServer(createMetrics(), first.port, "127.0.0.1")).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      `warning: port ${first.port} is in use: metrics are not served (set METRICS_PORT to another port, or off)`,
    );
  });
});
