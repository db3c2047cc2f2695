import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~db/database.server";
import { freePort } from "../support/free-port";
import { createPostgresDatabase } from "../support/test-database";
import { type AccountFixtures, prepareAccountFixtures, STAFF } from "./account-fixtures";
import { type HtmlValidator, startHtmlValidator } from "./html-validator";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    accountFixtures: AccountFixtures;
    htmlValidator: HtmlValidator;
    /** The run's Chromium, for `chromium.connect` (browser.ts). */
    browserEndpoint: string;
  }
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early (${server.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become healthy in time:\n${output()}`);
}

/**
 * Debian's old headless shell (package chromium-headless-shell) when it is installed, else Debian's
 * Chromium; never a downloaded browser. The shell is the same engine without the full browser's
 * window and UI layers: measured on the whole browser project, the browser's CPU fell by about a
 * third and the project's wall time from 423 s to 291 s, with the same results.
 */
function chromiumExecutable(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const installed = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file));
  if (!installed) {
    throw new Error(
      "No Chromium for the browser tests: apt-get install -y chromium-headless-shell (or chromium), or set CHROMIUM_PATH.",
    );
  }
  return installed;
}

/**
 * Chromium, once for the run: every file connects to it instead of starting its own. The flags are
 * those this closed network needs.
 */
function startChromium(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: chromiumExecutable(),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      // No GPU process of its own: software compositing in the browser process, one process less.
      "--in-process-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Starts the production build (`node server.js`) on a fresh database for the browser tests. */
export default async function setup(project: TestProject) {
  if (!existsSync("build/server/index.js")) {
    throw new Error("No production build: run `npm run build` before the e2e tests (`npm test` does).");
  }
  // The validator's JVM and Chromium start while the server does.
  const validatorStarting = startHtmlValidator();
  const browserStarting = startChromium();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const postgresDatabase = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  // PGlite in a folder rather than in memory, so the accounts the tests need can be written before the
  // server opens it (one process at a time may open a PGlite folder).
  const pgliteDir = postgresDatabase ? undefined : mkdtempSync(path.join(tmpdir(), "e2e-pglite-"));
  const database = await openDatabase({ databaseUrl: postgresDatabase?.url, pgliteDir: pgliteDir ?? "" });
  let accountFixtures: AccountFixtures;
  try {
    await database.migrate();
    accountFixtures = await prepareAccountFixtures(database, baseURL);
  } finally {
    await database.close();
  }

  const environment: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    // A staging copy: the tests read SMS codes and links in the dev outbox and pay with test cards.
    DEV_OUTBOX: "on",
    // Tests stand for clients at several addresses by sending X-Forwarded-For (and HTTPS by X-Forwarded-Proto).
    TRUSTED_PROXY_HOPS: "1",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseURL,
    ...(postgresDatabase ? { DATABASE_URL: postgresDatabase.url } : { PGLITE_DIR: pgliteDir }),
    SEED_STAFF_EMAIL: STAFF.email,
    SEED_STAFF_PASSWORD: STAFF.password,
    // A line per request only when asked for (E2E_SERVER_LOG prints the server's output at the end).
    LOG_LEVEL: process.env.E2E_SERVER_LOG ? "info" : "warn",
  };
  let log = "";
  const server = spawn(process.execPath, ["server.js"], { env: environment, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  try {
    await waitForHealth(baseURL, server, () => log);
  } catch (error) {
    // Nothing started here outlives a failed start.
    server.kill("SIGTERM");
    await Promise.allSettled([validatorStarting.then((v) => v.stop()), browserStarting.then((b) => b.close())]);
    throw error;
  }
  const htmlValidator = await validatorStarting;
  const browserServer = await browserStarting;
  project.provide("baseURL", baseURL);
  project.provide("accountFixtures", accountFixtures);
  project.provide("htmlValidator", htmlValidator.validator);
  project.provide("browserEndpoint", browserServer.wsEndpoint());

  return async () => {
    await browserServer.close();
    await htmlValidator.stop();
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await postgresDatabase?.drop();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
    if (process.env.E2E_SERVER_LOG) console.log(log);
  };
}
