// Production entry: `node server.js` serves the built app (`npm run build` first; `npm start` does both).
// `node server.js --dev` serves the sources through Vite instead, for local development.
// `node server.js --migrate-only` applies migrations and reference data, then exits (release command).
// `node server.js --worker` runs the job queue's worker (daily expiry reminders; needs PostgreSQL).
// `node server.js --send-reminders` sends today's expiry reminders once, then exits (safe to repeat).
// The web process and the worker serve Prometheus metrics at http://HOST:METRICS_PORT/metrics
// (default 9091; METRICS_PORT=off: none), never on the public port.
import { existsSync } from "node:fs";
import http from "node:http";

// Local configuration file, if any; variables already set in the environment win.
if (existsSync(".env")) process.loadEnvFile(".env");

const development = process.argv.includes("--dev");

// Its lines are JSON on standard output, at LOG_LEVEL, once the application has read the environment.
let logger;

async function loadApplication() {
  if (!development) {
    const server = await import("./build/server/index.js");
    logger = server.logger;
    return server.createApplication();
  }
  const vite = await import("vite").then((module) =>
    module.createServer({ server: { middlewareMode: true }, appType: "custom" }),
  );
  const runner = vite.environments.ssr.runner;
  const server = await runner.import("./app/server/server-app.ts");
  logger = server.logger;
  const { createApplication } = server;
  const application = await createApplication({
    loadBuild: () => runner.import("virtual:react-router/server-build"),
  });
  return {
    ...application,
    handle: (req, res) => vite.middlewares(req, res, () => application.handle(req, res)),
    close: async () => {
      await application.close();
      await vite.close();
    },
  };
}

const migrateOnly = process.argv.includes("--migrate-only");

let application;
try {
  if (migrateOnly) {
    const server = await import("./build/server/index.js");
    logger = server.logger;
    await server.migrateOnly();
    logger.info("Database migrated and reference data loaded.");
    process.exit(0);
  }
  if (process.argv.includes("--send-reminders")) {
    const server = await import("./build/server/index.js");
    logger = server.logger;
    const reminded = await server.sendRemindersOnce();
    logger.info({ reminded }, `Expiry reminders sent for ${reminded} document(s).`);
    process.exit(0);
  }
  if (process.argv.includes("--worker")) {
    const server = await import("./build/server/index.js");
    logger = server.logger;
    const worker = await server.runWorker();
    logger.info("Worker started: expiry reminders daily at 14:00 UTC.");
    await announceMetrics(worker.startMetricsServer(), process.env.HOST ?? "0.0.0.0");
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => {
        logger.info(`${signal} received: stopping the worker`);
        const started = Date.now();
        worker.stop().then((stepsMs) => {
          const durationMs = Date.now() - started;
          logger.info({ durationMs, stepsMs }, `Worker stopped in ${durationMs} ms.`);
          process.exit(0);
        });
      });
    }
    await new Promise(() => {});
  }
  application = await loadApplication();
} catch (error) {
  // A configuration problem is one clear line, not a stack trace; plain text on standard error, as the
  // log level itself may be what is wrong.
  if (error?.name === "ConfigurationError") {
    console.error(error.message);
    process.exit(1);
  }
  if (!logger) throw error;
  logger.fatal({ err: error }, "start failed");
  process.exit(1);
}

let stopping = false;
/** Answers not yet sent: told to close their connections when the stop begins. */
const unanswered = new Set();
const server = http.createServer((req, res) => {
  // Once stopping, every answer closes its connection: a client (or the load balancer) that keeps a
  // connection alive would otherwise go on sending requests on it, holding the stop until forced.
  if (stopping) res.shouldKeepAlive = false;
  else {
    unanswered.add(res);
    res.once("close", () => unanswered.delete(res));
  }
  application.handle(req, res);
});
server.keepAliveTimeout = 65_000; // longer than the load balancer's idle timeout
server.listen(application.port, application.host, () => {
  const shownHost = ["0.0.0.0", "::"].includes(application.host) ? "localhost" : application.host;
  logger.info(`Upstream Marketplace listening on http://${shownHost}:${application.port}`);
});
await announceMetrics(application.startMetricsServer(), application.host);

async function announceMetrics(starting, host) {
  const metrics = await starting;
  const shownHost = host === "0.0.0.0" ? "localhost" : host;
  if (metrics) console.log(`Metrics at http://${shownHost}:${metrics.port}/metrics`);
}

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  logger.info(`${signal} received: finishing open requests, then closing the database`);
  // First, the other machines stop sending this one the bids of the auctions it took (decision 028).
  await application.leaveMachines?.();
  const closed = new Promise((resolve) => server.on("close", resolve));
  server.close();
  for (const res of unanswered) if (!res.headersSent) res.shouldKeepAlive = false;
  unanswered.clear();
  // Event streams never finish on their own: end them so their browsers reconnect elsewhere.
  await application.endLiveStreams?.();
  // A connection turns idle when its last answer is sent (an ended event stream, a request that was
  // in flight): close each one as it does, not only those idle at this moment.
  server.closeIdleConnections();
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const forced = setTimeout(() => {
    logger.warn("connections still open 10 s after the stop began: closing them");
    server.closeAllConnections();
  }, 10_000);
  forced.unref();
  await closed;
  clearInterval(idleSweep);
  clearTimeout(forced);
  // Where a slow stop spent its time: the last answers, or the queue workers and the database.
  const answeredMs = Date.now() - started;
  const stepsMs = await application.close();
  const durationMs = Date.now() - started;
  logger.info(
    { durationMs, answeredMs, stepsMs },
    `Stopped in ${durationMs} ms (last answer sent after ${answeredMs} ms).`,
  );
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
