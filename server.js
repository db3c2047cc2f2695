// Production entry: `node server.js` serves the built app (`npm run build` first; `npm start` does both).
// `node server.js --dev` serves the sources through Vite instead, for local development.
// `node server.js --migrate-only` applies migrations and reference data, then exits (release command).
// `node server.js --worker` runs the job queue's worker (daily expiry reminders; needs PostgreSQL).
// `node server.js --send-reminders` sends today's expiry reminders once, then exits (safe to repeat).
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
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => {
        logger.info(`${signal} received: stopping the worker`);
        worker.stop().then(() => process.exit(0));
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

const server = http.createServer(application.handle);
server.keepAliveTimeout = 65_000; // longer than the load balancer's idle timeout
server.listen(application.port, application.host, () => {
  const shownHost = application.host === "0.0.0.0" ? "localhost" : application.host;
  logger.info(`Upstream Marketplace listening on http://${shownHost}:${application.port}`);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal} received: finishing open requests, then closing the database`);
  const closed = new Promise((resolve) => server.on("close", resolve));
  server.close();
  // Event streams never finish on their own: end them so their browsers reconnect elsewhere.
  await application.endLiveStreams?.();
  server.closeIdleConnections();
  const forced = setTimeout(() => server.closeAllConnections(), 10_000);
  forced.unref();
  await closed;
  await application.close();
  logger.info("Stopped.");
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
