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

async function loadApplication() {
  if (!development) {
    const { createApplication } = await import("./build/server/index.js");
    return createApplication();
  }
  const vite = await import("vite").then((module) =>
    module.createServer({ server: { middlewareMode: true }, appType: "custom" }),
  );
  const runner = vite.environments.ssr.runner;
  const { createApplication } = await runner.import("./app/server/server-app.ts");
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
    const { migrateOnly: prepare } = await import("./build/server/index.js");
    await prepare();
    console.log("Database migrated and reference data loaded.");
    process.exit(0);
  }
  if (process.argv.includes("--send-reminders")) {
    const { sendRemindersOnce } = await import("./build/server/index.js");
    const reminded = await sendRemindersOnce();
    console.log(`Expiry reminders sent for ${reminded} document(s).`);
    process.exit(0);
  }
  if (process.argv.includes("--worker")) {
    const { runWorker } = await import("./build/server/index.js");
    const worker = await runWorker();
    console.log("Worker started: expiry reminders daily at 14:00 UTC.");
    await announceMetrics(worker.startMetricsServer(), process.env.HOST ?? "0.0.0.0");
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => worker.stop().then(() => process.exit(0)));
    }
    await new Promise(() => {});
  }
  application = await loadApplication();
} catch (error) {
  // A configuration problem is one clear line, not a stack trace.
  if (error?.name === "ConfigurationError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const server = http.createServer(application.handle);
server.keepAliveTimeout = 65_000; // longer than the load balancer's idle timeout
server.listen(application.port, application.host, () => {
  const shownHost = application.host === "0.0.0.0" ? "localhost" : application.host;
  console.log(`Upstream Marketplace listening on http://${shownHost}:${application.port}`);
});
await announceMetrics(application.startMetricsServer(), application.host);

async function announceMetrics(starting, host) {
  const metrics = await starting;
  const shownHost = host === "0.0.0.0" ? "localhost" : host;
  if (metrics) console.log(`Metrics at http://${shownHost}:${metrics.port}/metrics`);
}

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: finishing open requests, then closing the database`);
  const closed = new Promise((resolve) => server.on("close", resolve));
  server.close();
  // Event streams never finish on their own: end them so their browsers reconnect elsewhere.
  await application.endLiveStreams?.();
  server.closeIdleConnections();
  const forced = setTimeout(() => server.closeAllConnections(), 10_000);
  forced.unref();
  await closed;
  await application.close();
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
