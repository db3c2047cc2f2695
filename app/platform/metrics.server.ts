import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { STATIC_FILE_ROUTE } from "./route-label.server";

// What an operator watches (issue 33), in Prometheus' text format on a port of its own
// (`METRICS_PORT`, default 9091), never on the public one. One registry per application instance:
// tests run many applications in one process, so nothing here touches prom-client's global registry.
// Label values come from small fixed sets: route patterns (never raw URLs: paths carry tokens),
// methods, statuses and the reasons below.
//
// Features record through the database handle they already hold (`metricsOf(db)`), as the bid
// queue keeps its state per database: a process's metrics are those of the database it serves.

/** Why a bid or minimum was refused: from its answer's status (bid-round.server.ts), a fixed set. */
export const BID_REFUSAL_REASONS = {
  400: "rules", // under the rules: not low enough, not a multiple of the decrement, ...
  403: "standing", // the seller's subscription is overdue or cancelled
  404: "not_invited", // no such auction for this seller
  409: "not_open", // terms not accepted, sealed-bid auction, not started or closed
  413: "rules", // a sealed bid's documents too large
} as const;
export type BidRefusalReason = (typeof BID_REFUSAL_REASONS)[keyof typeof BID_REFUSAL_REASONS] | "unconfirmed" | "error";

/** What a bid is: a manual bid, a secret minimum or a sealed bid; entered by the seller or on their behalf (by phone). */
export type BidKind = "bid" | "minimum" | "sealed";
export type BidPlacedBy = "seller" | "on_behalf";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const FILE_PATH = /\.[a-z0-9]+$/i;
/** Bid-to-event times kept per auction while no run has delivered them (an auction nobody watches). */
const PENDING_PER_AUCTION = 100;
const PENDING_MAX_AGE_MS = 60_000;

/** What the scrape reads from the rest of the application (each optional: the worker has no event streams). */
export type MetricSources = {
  /** The event streams open in this process now. */
  openEventStreams?: () => number;
  /** The database pool: connections in use and waited for, and its size. */
  databasePool?: () => { inUse: number; waiting: number; max: number };
  /** Messages by channel and state (queued, sending, failed), read at scrape time. */
  outboxMessages?: () => Promise<{ channel: string; status: string; count: number }[]>;
  /** Provider (Stripe) events waiting or given up on, by state, read at scrape time. */
  providerEvents?: () => Promise<{ state: string; count: number }[]>;
};

export type AppMetrics = ReturnType<typeof createMetrics>;

/** One application's metrics; register it on its database with `attachMetrics`. */
export function createMetrics(sources: MetricSources = {}) {
  const registry = new Registry();
  const registers = [registry];

  const requestDuration = new Histogram({
    name: "marketplace_http_request_duration_seconds",
    help: "HTTP requests on the public port by route pattern, method and status, and how long each took (event streams: their whole life)",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const bidsAccepted = new Counter({
    name: "marketplace_bids_accepted_total",
    help: "Bids and minimums accepted, by kind and by who entered them (the seller, or staff on the seller's behalf)",
    labelNames: ["kind", "placed_by"] as const,
    registers,
  });
  const bidsRefused = new Counter({
    name: "marketplace_bids_refused_total",
    help: "Bids and minimums refused, by kind, who entered them and reason (rules, standing, not_invited, not_open, unconfirmed: a large drop asked about, error)",
    labelNames: ["kind", "placed_by", "reason"] as const,
    registers,
  });
  const bidToEvent = new Histogram({
    name: "marketplace_bid_to_event_seconds",
    help: "From the commit of a bid this process accepted to this process handing the new view to its watchers' event streams",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const deliveryFailures = new Counter({
    name: "marketplace_message_delivery_failures_total",
    help: "Message deliveries that failed in this process, by channel and outcome (retry: queued again after the backoff; failed: given up)",
    labelNames: ["channel", "outcome"] as const,
    registers,
  });
  const providerEventFailures = new Counter({
    name: "marketplace_provider_event_failures_total",
    help: "Provider (Stripe) event attempts that failed in this process, by outcome (retry: tried again after the backoff; failed: given up)",
    labelNames: ["outcome"] as const,
    registers,
  });
  // Zero from the start, so an alert on an increase sees the first failure.
  for (const outcome of ["retry", "failed"]) {
    providerEventFailures.inc({ outcome }, 0);
    for (const channel of ["email", "sms"]) deliveryFailures.inc({ channel, outcome }, 0);
  }

  const { openEventStreams, databasePool, outboxMessages, providerEvents } = sources;
  if (openEventStreams) {
    new Gauge({
      name: "marketplace_event_streams_open",
      help: "Auction event streams (server-sent events) open in this process",
      registers,
      collect() {
        this.set(openEventStreams());
      },
    });
  }
  if (databasePool) {
    new Gauge({
      name: "marketplace_database_pool_connections",
      help: "This process's database pool: connections in use, queries and transactions waiting for one, and the pool's size (max)",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const pool = databasePool();
        this.set({ state: "in_use" }, pool.inUse);
        this.set({ state: "waiting" }, pool.waiting);
        this.set({ state: "max" }, pool.max);
      },
    });
  }
  if (outboxMessages) {
    new Gauge({
      name: "marketplace_outbox_messages",
      help: "Messages in the outbox (the whole database, the same on every machine) by channel and state: queued, sending, failed",
      labelNames: ["channel", "status"] as const,
      registers,
      async collect() {
        const rows = await readOrWarn("outbox messages", outboxMessages);
        this.reset();
        if (!rows) return;
        for (const channel of ["email", "sms"]) {
          for (const status of ["queued", "sending", "failed"]) this.set({ channel, status }, 0);
        }
        for (const row of rows) this.set({ channel: row.channel, status: row.status }, row.count);
      },
    });
  }
  if (providerEvents) {
    new Gauge({
      name: "marketplace_provider_events",
      help: "Provider (Stripe) events (the whole database) waiting to be processed (received) or given up on (failed)",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const rows = await readOrWarn("provider events", providerEvents);
        this.reset();
        if (!rows) return;
        for (const state of ["received", "failed"]) this.set({ state }, 0);
        for (const row of rows) this.set({ state: row.state }, row.count);
      },
    });
  }

  /** Commit times (ms) of this process's accepted bids, by auction, until a run delivers their event. */
  const pendingBidEvents = new Map<number, number[]>();
  let defaultMetricsOn = false;

  return {
    registry,

    /**
     * Times the request and counts it when its response is done (or the client went away), under its
     * route's pattern. Called once per request, fast paths included.
     */
    observeRequest(req: IncomingMessage, res: ServerResponse, routeLabelOf: (pathname: string) => string) {
      const start = process.hrtime.bigint();
      res.once("close", () => {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        const method = req.method && METHODS.has(req.method) ? req.method : "other";
        const status = res.statusCode;
        requestDuration.observe({ route: requestLabel(req.url ?? "/", status, routeLabelOf), method, status }, seconds);
      });
    },

    /** A bid or minimum answered (accepted, refused, asked about) or failed with an error (`undefined`). */
    countBid(kind: BidKind, placedBy: BidPlacedBy, outcome: { kind: string; status?: number } | undefined) {
      if (outcome?.kind === "accepted") {
        bidsAccepted.inc({ kind, placed_by: placedBy });
        return;
      }
      const reason: BidRefusalReason =
        outcome === undefined
          ? "error"
          : outcome.kind === "unconfirmed"
            ? "unconfirmed"
            : (BID_REFUSAL_REASONS[outcome.status as keyof typeof BID_REFUSAL_REASONS] ?? "error");
      bidsRefused.inc({ kind, placed_by: placedBy, reason });
    },

    /** A bid on the auction committed now; its event is timed when a run of the live hub delivers it. */
    bidCommitted(auctionId: number, at = Date.now()) {
      const pending = pendingBidEvents.get(auctionId) ?? [];
      if (pending.length < PENDING_PER_AUCTION) pending.push(at);
      pendingBidEvents.set(auctionId, pending);
      // Bids on auctions nobody watches here are never delivered: forget them after a while.
      if (pendingBidEvents.size > 1_000) {
        for (const [id, times] of pendingBidEvents) {
          if ((times.at(-1) ?? 0) < at - PENDING_MAX_AGE_MS) pendingBidEvents.delete(id);
        }
      }
    },

    /**
     * The live hub just handed the auction's new views to its watchers' streams: every bid of this
     * process pending on it is timed now. A bid committed while the run was reading is timed with it
     * (its own view follows in the next run): off by one read at most, never left waiting.
     */
    bidEventsDelivered(auctionId: number) {
      const pending = pendingBidEvents.get(auctionId);
      if (!pending) return;
      pendingBidEvents.delete(auctionId);
      const now = Date.now();
      for (const at of pending) bidToEvent.observe((now - at) / 1000);
    },

    /** A message delivery failed: `retry` (queued again) or `failed` (given up). */
    countDeliveryFailure(channel: "email" | "sms", outcome: "retry" | "failed") {
      deliveryFailures.inc({ channel, outcome });
    },

    /** A provider event's attempt failed: `retry` (tried again later) or `failed` (given up). */
    countProviderEventFailure(outcome: "retry" | "failed") {
      providerEventFailures.inc({ outcome });
    },

    /** Node's process metrics (memory, CPU, event loop, GC), collected only by a process that serves metrics. */
    includeProcessMetrics() {
      if (defaultMetricsOn) return;
      defaultMetricsOn = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}

/**
 * The route's pattern; a file served from `build/client` (a path with an extension that only the
 * catch-all route matches, answered without an error) is "static file".
 */
function requestLabel(url: string, status: number, routeLabelOf: (pathname: string) => string): string {
  const pathname = url.split("?")[0] ?? "/";
  const pattern = routeLabelOf(pathname);
  return pattern.endsWith("*") && status < 400 && FILE_PATH.test(pathname) ? STATIC_FILE_ROUTE : pattern;
}

async function readOrWarn<T>(what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    // A scrape while the database is away still answers, without these figures.
    console.error(`metrics: reading ${what} failed:`, (error as Error).message);
    return undefined;
  }
}

const metricsByDatabase = new WeakMap<object, AppMetrics>();

/** Features find the application's metrics through the database handle they hold. */
export function attachMetrics(db: object, metrics: AppMetrics): void {
  metricsByDatabase.set(db, metrics);
}

/** The metrics of the application serving this database, if any (a tool or a test may have none). */
export function metricsOf(db: object): AppMetrics | undefined {
  return metricsByDatabase.get(db);
}

export type MetricsServer = { port: number; close(): Promise<void> };

/**
 * Serves `GET /metrics` on its own port (`METRICS_PORT`), apart from the public site. Answers
 * undefined when the port is taken (the start goes on, and says so).
 */
export async function startMetricsServer(
  metrics: AppMetrics,
  port: number,
  host: string,
): Promise<MetricsServer | undefined> {
  metrics.includeProcessMetrics();
  const server = createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        console.error("metrics: the scrape failed:", error);
        res
          .writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
          .end("The metrics could not be collected.\n");
      },
    );
  });
  const listening = await new Promise<boolean>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") resolve(false);
      else reject(error);
    });
    server.listen(port, host, () => resolve(true));
  });
  if (!listening) {
    console.warn(`warning: port ${port} is in use: metrics are not served (set METRICS_PORT to another port, or off)`);
    return undefined;
  }
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
