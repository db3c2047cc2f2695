import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import type { DestinationStream } from "pino";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import serveStatic from "serve-static";
import { createThrottles } from "~/accounts/sign-in/throttle.server";
import { ensureStaffUser } from "~/accounts/staff/staff.server";
import { startBidEffectsSweep } from "~/auctions/bidding/bid-notices.server";
import { startAuctionClock } from "~/auctions/clock/auction-clock.server";
import { createAuctionLive } from "~/auctions/live/auction-live.server";
import { createCatalogueReadCache, serveCachedJson } from "~/catalogue/catalogue-read-cache.server";
import { drainQueue, startMessageDelivery } from "~/messaging/delivery/delivery-runner.server";
import { outboxCounts } from "~/messaging/delivery/outbox.server";
import { createMessaging, type DeliverySettings, type Messaging } from "~/messaging/messaging.server";
import { createPayments, type Payments } from "~/payments/payments.server";
import { checkStripeFees } from "~/payments/stripe-fees.server";
import {
  type EventRetrySettings,
  providerEventCounts,
  startProviderEventDrain,
} from "~/payments/subscriptions/provider-events.server";
import { sendExpiryReminders } from "~/reminders/expiry-reminders.server";
import { startRemindersWorker } from "~/reminders/reminders-worker.server";
import { createSessionStore } from "~/sessions/session.server";
import {
  createSignedInUsers,
  forgettingAnnounced,
  SESSION_CHANGES_CHANNEL,
  sessionChangeOf,
} from "~/sessions/signed-in-users.server";
import { utcDay } from "~/shared/dates";
import { type DatabaseHandle, openDatabase } from "~db/database.server";
import { seedDemoCatalogue, seedReferenceData } from "~db/seed";
import { CROSS_ORIGIN_MESSAGE, isCrossOriginWrite } from "../platform/cross-origin";
import { ConfigurationError, type Environment, isStagingCopy, readEnvironment } from "../platform/env.server";
import { configureLogger, logger } from "../platform/logger.server";
import { forwardable, type MachineRouting, machineIdOf, startMachineRouting } from "../platform/machine-routing.server";
import {
  type AppMetrics,
  attachMetrics,
  createMetrics,
  type MetricsServer,
  startMetricsServer,
} from "../platform/metrics.server";
import {
  clientAddressOf,
  isHttps,
  pathnameOf,
  sendFetchResponse,
  setPreReadBody,
  toFetchRequest,
} from "../platform/node-http.server";
import { proxyTrustOf } from "../platform/proxy-trust";
import { createRequestLog } from "../platform/request-log.server";
import { createRouteLabeller } from "../platform/route-label.server";
import { createNonce, securityHeaders } from "../platform/security-headers";
import { SESSION_COOKIE_NAME } from "../platform/session-cookie";
import { createStaticPageCache } from "../platform/static-page-cache.server";
import { type StopTimings, stopInOrder } from "../platform/stop-in-order.server";
import { type AppServices, appServicesContext, clientAddressContext, cspNonceContext } from "./app-context";

export { ConfigurationError } from "../platform/env.server";
/** For server.js: its start, stop and job lines are JSON lines too. */
export { logger } from "../platform/logger.server";

export type ApplicationOptions = {
  /** Dev server: loads the route build through Vite on each request. */
  loadBuild?: () => Promise<ServerBuild>;
  environment?: NodeJS.ProcessEnv;
  /** The message queue's timing (tests shorten the backoff). */
  delivery?: Partial<DeliverySettings>;
  /** The provider events' retry timing (tests shorten the backoff). */
  eventRetry?: Partial<EventRetrySettings>;
  /**
   * A database already open, used instead of the one the environment names (tests hand in a copy of
   * a prepared one); it is still migrated and seeded, and closed with the application.
   */
  database?: DatabaseHandle;
  /** Where the log lines go instead of standard output (a test reads them). */
  logDestination?: DestinationStream;
};

export type Application = {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** What loaders get; exposed for integration tests and tools (never to the browser). */
  services: AppServices;
  port: number;
  host: string;
  /** Ends the open event streams (their browsers reconnect to another machine); call when the server stops accepting. */
  endLiveStreams(): Promise<void>;
  /** Leaves the list of machines, so the others stop sending it auctions' bids; call first when stopping. */
  leaveMachines(): Promise<void>;
  /** Serves the metrics on `METRICS_PORT` (none when `off`, or when the port is taken); closed with the application. */
  startMetricsServer(): Promise<MetricsServer | undefined>;
  /** Stops the queues, clocks and database in order; answers how long each took (for the stop's log line). */
  close(): Promise<StopTimings>;
};

/** A process's metrics (issue 33), registered on its database for the features that record into them. */
function processMetrics(database: DatabaseHandle, openEventStreams?: () => number): AppMetrics {
  const metrics = createMetrics({
    openEventStreams,
    databasePool: () => database.poolUsage(),
    outboxMessages: () => outboxCounts(database.db),
    providerEvents: () => providerEventCounts(database.db),
  });
  attachMetrics(database.db, metrics);
  return metrics;
}

/** `startMetricsServer` of an application or the worker: at most one server, closed by `close`. */
function metricsServing(metrics: AppMetrics, env: Environment) {
  let serving: Promise<MetricsServer | undefined> | undefined;
  return {
    start() {
      if (env.METRICS_PORT === "off") return Promise.resolve(undefined);
      serving ??= startMetricsServer(metrics, env.METRICS_PORT, env.HOST);
      return serving;
    },
    async close() {
      await (await serving?.catch(() => undefined))?.close();
    },
  };
}

/** Migrations and reference data, under a lock so several machines starting together take turns. */
async function prepareDatabase(database: DatabaseHandle): Promise<void> {
  await database.withStartupLock(async () => {
    await database.migrate();
    await seedReferenceData(database.db);
    await seedDemoCatalogue(database.db);
  });
}

/** Reads the environment (a ConfigurationError when it is wrong), then sets the log level it names. */
function startEnvironment(environment: NodeJS.ProcessEnv | undefined, logDestination?: DestinationStream) {
  const env = readEnvironment(environment);
  configureLogger({ level: env.LOG_LEVEL, destination: logDestination });
  return env;
}

/** `node server.js --migrate-only` (Fly's release command): prepare the database, then exit. */
export async function migrateOnly(environment: NodeJS.ProcessEnv = process.env): Promise<void> {
  const env = startEnvironment(environment);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
  try {
    await prepareDatabase(database);
    if (env.SEED_STAFF_EMAIL && env.SEED_STAFF_PASSWORD) {
      await ensureStaffUser(database.db, env.SEED_STAFF_EMAIL, env.SEED_STAFF_PASSWORD);
    }
  } finally {
    await database.close();
  }
}

/** Says on every start which development doors are open (they are only where `devDoorsOpen` allows). */
function warnAboutDevDoors(env: Environment, messaging: Messaging, payments?: Payments): void {
  if (isStagingCopy(env)) {
    logger.warn(
      "DEV_OUTBOX=on: this production server is a staging copy; every page says so, and missing " +
        "providers are replaced by the dev outbox (readable by anyone at /dev/outbox) and the test card provider",
    );
  }
  for (const channel of messaging.outboxChannels) {
    logger.warn(
      `${channel === "sms" ? "SMS (Twilio)" : "e-mail (Postmark)"} is not configured; ` +
        `messages are kept in the dev outbox at ${env.APP_URL}/dev/outbox`,
    );
  }
  if (payments?.provider === "test") {
    logger.warn("card payments (Stripe) are not configured; the built-in test card provider is used");
  }
}

/** The services a background process needs: the database (migrated) and messaging. */
async function openBackgroundServices(environment: NodeJS.ProcessEnv, delivery?: Partial<DeliverySettings>) {
  const env = startEnvironment(environment);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
  await prepareDatabase(database);
  const services = { env, db: database.db, messaging: createMessaging(env, database.db, { settings: delivery }) };
  warnAboutDevDoors(env, services.messaging);
  return { env, database, services };
}

/**
 * `node server.js --worker`: the job queue's worker (the daily expiry reminders). It needs
 * PostgreSQL; on the embedded database run `node server.js --send-reminders` daily instead.
 */
export async function runWorker(
  environment: NodeJS.ProcessEnv = process.env,
  options: { delivery?: Partial<DeliverySettings> } = {},
): Promise<{ startMetricsServer(): Promise<MetricsServer | undefined>; stop(): Promise<StopTimings> }> {
  // Before the database: Stripe's prices must be the fee table's (stops the start otherwise).
  await checkStripeFees(startEnvironment(environment));
  const { env, database, services } = await openBackgroundServices(environment, options.delivery);
  if (!env.DATABASE_URL) {
    await database.close();
    throw new ConfigurationError(
      "The worker needs PostgreSQL (DATABASE_URL). On the embedded database run `node server.js --send-reminders` daily instead.",
    );
  }
  const metricsServer = metricsServing(processMetrics(database), env);
  const worker = await startRemindersWorker(services, env.DATABASE_URL);
  const delivery = await startMessageDelivery(database, services.messaging, { connectionString: env.DATABASE_URL });
  const auctionClock = startAuctionClock(services);
  // Stripe's events left received by a crash or a stopped app process (issue 19).
  const eventDrain = startProviderEventDrain(services);
  // Bid notices a crash or a stopped app process left owed (issue 19).
  const bidEffectsSweep = startBidEffectsSweep(services);
  return {
    startMetricsServer: metricsServer.start,
    stop: () =>
      stopInOrder([
        ["metrics", () => metricsServer.close()],
        ["bidNotices", () => bidEffectsSweep.stop()],
        ["providerEvents", () => eventDrain.stop()],
        ["auctionClock", () => auctionClock.stop()],
        ["reminders", () => worker.stop()],
        ["messageDelivery", () => delivery.stop()],
        ["database", () => database.close()],
      ]),
  };
}

/** `node server.js --send-reminders`: today's expiry reminders once, then exit (safe to repeat). */
export async function sendRemindersOnce(environment: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { database, services } = await openBackgroundServices(environment);
  try {
    const { reminded } = await sendExpiryReminders(services, utcDay(new Date()));
    // One pass over the queue before exiting (on the embedded database no other process may be
    // running); what a provider does not take now stays queued for the next process that serves.
    await drainQueue(database, services.messaging);
    return reminded;
  } finally {
    await database.close();
  }
}

/** Opens the database, migrates, loads reference data, and returns the HTTP request listener. */
export async function createApplication(options: ApplicationOptions = {}): Promise<Application> {
  const env = startEnvironment(options.environment, options.logDestination);
  // Before the database: Stripe's prices must be the fee table's (stops the start otherwise).
  await checkStripeFees(env);
  const development = Boolean(options.loadBuild);
  // Production hands React Router the build itself: given a function, it rebuilds its route tables on
  // every request (meant for the dev server's reloads), which cost most of a plain request's CPU time.
  const build: ServerBuild | (() => Promise<ServerBuild>) =
    options.loadBuild ?? ((await import("virtual:react-router/server-build")) as ServerBuild);
  // Logs and metrics name each request by its route's pattern (the dev server's routes change under it).
  const routeLabelOf = typeof build === "function" ? () => "development" : createRouteLabeller(build);

  const database =
    options.database ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR }));
  await prepareDatabase(database);
  if (env.SEED_STAFF_EMAIL && env.SEED_STAFF_PASSWORD) {
    await ensureStaffUser(database.db, env.SEED_STAFF_EMAIL, env.SEED_STAFF_PASSWORD);
  }

  const messaging = createMessaging(env, database.db, { settings: options.delivery });
  const payments = createPayments(env);
  warnAboutDevDoors(env, messaging, payments);
  // Who may tell us the client's address and protocol, decided once.
  const trust = proxyTrustOf(env);
  const logRequest = createRequestLog(routeLabelOf, trust);

  // One LISTEN connection per app process, feeding every auction event stream it serves.
  const auctionLive = await createAuctionLive(database);
  const metrics = processMetrics(database, () => auctionLive.stats().subscribers);
  const metricsServer = metricsServing(metrics, env);
  // Signed-in users kept in memory, forgotten on every announced change (and all of them whenever
  // the channel was out of reach).
  const signedInUsers = createSignedInUsers();
  const stopHearingSessionChanges = await database.listen(
    SESSION_CHANGES_CHANNEL,
    (payload) => signedInUsers.forget(sessionChangeOf(payload)),
    () => signedInUsers.forget({ all: true }),
  );

  const services: AppServices = {
    env,
    db: database.db,
    messaging,
    payments,
    sessions: createSessionStore(database.db, env, signedInUsers),
    throttles: createThrottles(database.query),
    pingDatabase: () => database.ping(),
    auctionLive,
  };
  const mode = development ? "development" : "production";
  const makeContext = (nonce: string, clientAddress = "unknown") => {
    const context = new RouterContextProvider();
    context.set(appServicesContext, services);
    context.set(cspNonceContext, nonce);
    context.set(clientAddressContext, clientAddress);
    return context;
  };

  // Stripe.js and Checkout are let in by the Content-Security-Policy only when Stripe is configured.
  const stripeConfigured = Boolean(env.STRIPE_PUBLISHABLE_KEY);
  const appOrigin = new URL(env.APP_URL).origin;
  const handleRequest = createRequestHandler(build, mode);
  // Event streams are never compressed: gzip would hold each event back and keep a zlib state per watcher.
  const compress = compression({ filter: (req, res) => !isEventStream(res) && compression.filter(req, res) });
  const clientDir = path.resolve(process.cwd(), "build/client");
  // Fingerprinted build output never changes under the same name.
  const serveAsset = serveStatic(clientDir, { immutable: true, maxAge: "1y", index: false, redirect: false });
  const serveClientFile = serveStatic(clientDir, { maxAge: "1h", index: false, redirect: false });

  /** Everything the fast paths do not answer: security headers, compression, the CSRF check, files, React Router. */
  const app = (req: IncomingMessage, res: ServerResponse) => {
    const nonce = createNonce();
    const https = isHttps(req, trust);
    for (const [name, value] of Object.entries(securityHeaders(nonce, https, stripeConfigured))) {
      res.setHeader(name, value);
    }
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      const pathname = pathnameOf(req);
      if (isCrossOriginWrite(req, appOrigin, https)) {
        const api = pathname.startsWith("/api/");
        res.statusCode = 403;
        res.setHeader("Content-Type", api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
        res.end(api ? JSON.stringify({ errors: { form: CROSS_ORIGIN_MESSAGE } }) : CROSS_ORIGIN_MESSAGE);
        return;
      }
      const toRouter = () => {
        const request = toFetchRequest(req, res, https);
        forgettingAnnounced(
          () => handleRequest(request, makeContext(nonce, clientAddressOf(req, trust))),
          (change) => signedInUsers.forget(change),
        )
          .then((response) => {
            // Built for this request, so stored by no browser or proxy unless its route says otherwise:
            // no signed-in page on a shared computer's Back button, no stale price (decision 024).
            if (!response.headers.has("Cache-Control")) res.setHeader("Cache-Control", "no-store");
            return sendFetchResponse(res, response);
          })
          .catch((error: unknown) => {
            // The request's line carries it, with its stack.
            res.err = error instanceof Error ? error : new Error(String(error));
            if (res.headersSent) {
              res.destroy();
              return;
            }
            res.statusCode = 500;
            res.setHeader("Content-Type", "text/plain; charset=utf-8");
            res.end("Internal Server Error");
          });
      };
      // Only names with an extension can be files here (favicon.svg, robots.txt): every page and form
      // path skips the file-system lookup.
      if (development || !/\.[a-z0-9]+$/i.test(pathname)) return toRouter();
      const serve = pathname.startsWith("/assets/") ? serveAsset : serveClientFile;
      serve(req, res, toRouter);
    });
  };

  const staticPages = development
    ? undefined
    : createStaticPageCache(
        async (pagePath, nonce) => {
          const response = await handleRequest(new Request(`${env.APP_URL}${pagePath}`), makeContext(nonce));
          return { status: response.status, html: await response.text() };
        },
        SESSION_COOKIE_NAME,
        { stripe: stripeConfigured, trust },
      );
  await staticPages?.warm();

  // Every process that serves works the message queue (pg-boss on PostgreSQL, a drain loop on PGlite).
  const delivery = await startMessageDelivery(database, messaging, { connectionString: env.DATABASE_URL });

  // Without PostgreSQL there is no worker process: this process opens and closes auctions on time.
  const auctionClock = database.kind === "pglite" ? startAuctionClock(services) : undefined;
  // Stripe's events (issue 19): each app process drains what its webhook stored, and what any
  // process left behind; several machines share the work (rows claimed with SKIP LOCKED).
  const eventDrain = startProviderEventDrain(services, { retry: options.eventRetry });
  // Outbid and extension notices (issue 19): this process folds its own bids' at once; the sweep
  // takes what any process left owed (rows claimed with SKIP LOCKED).
  const bidEffectsSweep = startBidEffectsSweep(services);

  // Each auction's bids to one machine (decision 028): on PostgreSQL, where the others can reach it.
  const machineUrl = env.MACHINE_URL ?? (env.FLY_PRIVATE_IP ? `http://[${env.FLY_PRIVATE_IP}]:${env.PORT}` : undefined);
  const routing: MachineRouting | undefined =
    database.kind === "postgres" && machineUrl && !development
      ? await startMachineRouting(database, { machineId: env.FLY_MACHINE_ID ?? machineIdOf({}), url: machineUrl })
      : undefined;
  /** The machine that decides the bids of the auction a write is about, when it is another one. */
  const routeElsewhere = (req: IncomingMessage) => {
    if (!routing || req.method !== "POST" || !forwardable(req)) return undefined;
    const auctionId = AUCTION_PATH.exec(req.url ?? "")?.[1];
    return auctionId ? routing.ownerOf(`auction:${auctionId}`) : undefined;
  };

  const catalogueCache = createCatalogueReadCache(database.db);
  /** true: answered at once; false: not a fast path's; a promise: a fast path answering later (or not). */
  const serveFast = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    // A static page already in memory is answered synchronously: no promise on the busiest path.
    const now = staticPages?.serveNow(req, res);
    if (now) return true;
    const pathname = (req.url ?? "").split("?")[0] ?? "";
    if (catalogueCache.paths.has(pathname)) return serveCachedJson(catalogueCache, pathname, req, res, trust);
    return now === undefined && staticPages ? staticPages.tryServe(req, res) : false;
  };

  return {
    services,
    port: env.PORT,
    host: env.HOST,
    handle(req, res) {
      logRequest(req, res);
      metrics.observeRequest(req, res, routeLabelOf);
      const owner = routeElsewhere(req);
      if (owner && routing) {
        routing.forward(req, res, owner, (body) => {
          setPreReadBody(req, body);
          app(req, res);
        });
        return;
      }
      let fast: boolean | Promise<boolean>;
      try {
        fast = serveFast(req, res);
      } catch (error) {
        logger.error({ err: error }, "fast path failed; handing the request to the app instead");
        fast = false;
        if (res.headersSent) return;
      }
      if (fast === true) return;
      if (fast === false) {
        app(req, res);
        return;
      }
      fast.then(
        (served) => {
          if (!served) app(req, res);
        },
        (error) => {
          logger.error({ err: error }, "fast path failed; handing the request to the app instead");
          if (!res.headersSent) app(req, res);
        },
      );
    },
    endLiveStreams: () => auctionLive.close(),
    leaveMachines: async () => routing?.leave(),
    startMetricsServer: metricsServer.start,
    close: () =>
      stopInOrder([
        ["machineList", () => routing?.close()],
        ["metrics", () => metricsServer.close()],
        ["bidNotices", () => bidEffectsSweep.stop()],
        ["providerEvents", () => eventDrain.stop()],
        ["auctionClock", () => auctionClock?.stop()],
        ["messageDelivery", () => delivery.stop()],
        ["liveAuctions", () => auctionLive.close()],
        ["sessionChanges", () => stopHearingSessionChanges()],
        ["database", () => database.close()],
      ]),
  };
}

/** A path about one auction: /auctions/<id> and everything under it. */
const AUCTION_PATH = /^\/auctions\/(\d+)(?:[/?]|$)/;

function isEventStream(res: ServerResponse): boolean {
  return /^text\/event-stream/i.test(String(res.getHeader("Content-Type") ?? ""));
}
