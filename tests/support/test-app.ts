import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { DestinationStream } from "pino";
import { hashPassword } from "~/accounts/password.server";
import type { DeliverySettings } from "~/messaging/messaging.server";
import type { EventRetrySettings } from "~/payments/subscriptions/provider-events.server";
import type { AppServices } from "~/server/app-context";
import type { DatabaseHandle } from "~db/database.server";
import { users } from "~db/schema";
import { watchApiAnswer } from "./openapi-answer-check";
import { createPostgresDatabase, type DatabaseKind, openPgliteCopy } from "./test-database";
import { createTestServer } from "./test-server";

// The production build, run in-process so tests can reach its services (to issue tokens through the
// same module the product uses). `npm test` builds before it runs the tests.
export const buildEntry = path.resolve("build/server/index.js");

/** What a test that needs the build says when there is none: it fails, never skips. */
export const NO_BUILD_MESSAGE =
  "No production build: the integration tests run the built app (build/server/index.js). Run `npm run build` first (`npm test` does).";

/** Fails the integration project at once, with the message above, when there is no build. */
export function requireBuild(): void {
  if (!existsSync(buildEntry)) throw new Error(NO_BUILD_MESSAGE);
}

/**
 * For tests that stand for clients at several addresses by sending X-Forwarded-For: the app trusts one
 * proxy in front (as behind a load balancer), so the last entry is the client's address. Without it
 * the app ignores the header (a client cannot choose its address) and every test client is 127.0.0.1.
 */
export const BEHIND_ONE_PROXY = { TRUSTED_PROXY_HOPS: "1" } as const;

/**
 * The `x-test-request` header of the request being answered, for whatever runs on its behalf (a
 * test counting the queries one request sends, apart from the app's background work).
 */
export const testRequestTag = new AsyncLocalStorage<string>();

type BuiltApplication = {
  handle(req: IncomingMessage, res: ServerResponse): void;
  services: AppServices;
  startMetricsServer(): Promise<{ port: number } | undefined>;
  close(): Promise<void>;
};

export type TestApp = {
  baseURL: string;
  services: AppServices;
  /** Serves the app's metrics as server.js does, on `METRICS_PORT` of its environment (closed by `stop`). */
  startMetricsServer(): Promise<{ port: number } | undefined>;
  /** Closes only the database (to test what happens when it is gone). */
  closeDatabase(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Starts the built app on a fresh database of the given kind, on a random local port. With
 * `environment.DATABASE_URL` (postgres only) it uses that database instead and leaves it in place
 * when stopped: several apps on one database, as several machines (the caller drops it).
 */
export async function startTestApp(
  kind: DatabaseKind,
  environment: NodeJS.ProcessEnv = {},
  options: {
    delivery?: Partial<DeliverySettings>;
    eventRetry?: Partial<EventRetrySettings>;
    /** Where the app's log lines go (at `environment.LOG_LEVEL`); without it, standard output. */
    logDestination?: DestinationStream;
    /** One of several machines (decision 028): the others reach it at its own address (MACHINE_URL). */
    reachable?: boolean;
  } = {},
): Promise<TestApp> {
  const { createApplication } = (await import(/* @vite-ignore */ buildEntry)) as {
    createApplication(options: {
      environment: NodeJS.ProcessEnv;
      delivery?: Partial<DeliverySettings>;
      eventRetry?: Partial<EventRetrySettings>;
      database?: DatabaseHandle;
      logDestination?: DestinationStream;
    }): Promise<BuiltApplication>;
  };
  if (environment.DATABASE_URL && kind !== "postgres") throw new Error("DATABASE_URL is for postgres test apps");
  // A copy of the database the app prepares on start (migrated, seeded, pg-boss's schema made), not
  // an empty one it would migrate again: the app still checks and seeds it as on every start.
  const database = kind === "postgres" && !environment.DATABASE_URL ? await createPostgresDatabase("app") : undefined;
  const pglite = kind === "pglite" && !environment.PGLITE_DIR ? await openPgliteCopy("app") : undefined;
  // Listen first, so the app knows its own address for the links it puts in e-mails.
  let application: BuiltApplication | undefined;
  const server: Server = createTestServer((req, res) => {
    watchApiAnswer(req, res);
    const tag = req.headers["x-test-request"];
    if (application && typeof tag === "string") testRequestTag.run(tag, () => application?.handle(req, res));
    else if (application) application.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const started = await createApplication({
    environment: {
      // Silent in tests (vitest.config.ts) unless the test or the run names a level.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      ...(database ? { DATABASE_URL: database.url } : { PGLITE_DIR: "memory://" }),
      APP_URL: baseURL,
      ...(options.reachable ? { MACHINE_URL: baseURL } : {}),
      ...environment,
    },
    delivery: options.delivery,
    eventRetry: options.eventRetry,
    database: pglite,
    logDestination: options.logDestination,
  }).catch(async (error: unknown) => {
    // A start refused (a test of the configuration checks) leaves nothing open behind it.
    server.close();
    await pglite?.close().catch(() => {});
    await database?.drop();
    throw error;
  });
  application = started;
  let databaseClosed = false;
  return {
    baseURL,
    services: started.services,
    startMetricsServer: () => started.startMetricsServer(),
    async closeDatabase() {
      databaseClosed = true;
      await started.close();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!databaseClosed) await started.close();
      await database?.drop();
    },
  };
}

/** A tiny HTTP client with a cookie jar, for request-level tests. */
export function createClient(baseURL: string) {
  const cookies = new Map<string, string>();
  async function request(
    pathname: string,
    init: {
      method?: string;
      form?: Record<string, string> | URLSearchParams;
      json?: unknown;
      /** A multipart body, as a browser sends a form with a file input. */
      multipart?: FormData;
      headers?: Record<string, string>;
      /** Aborting it is a client that goes away (undici closes the connection). */
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers };
    if (cookies.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let body: string | FormData | undefined;
    if (init.multipart) {
      body = init.multipart;
    } else if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = typeof init.json === "string" ? init.json : JSON.stringify(init.json);
    }
    const response = await fetch(`${baseURL}${pathname}`, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
      signal: init.signal,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((attribute) => /max-age=0|expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || value === "") cookies.delete(name.trim());
      else cookies.set(name.trim(), value);
    }
    return response;
  }
  return { request, cookies };
}

/**
 * For the staff pages' tests: staff@upstream.example (staff) and buyer@upstream.example (a buyer's
 * user), both with the password "staff-password". Answers a client signed in as the staff user.
 */
export async function createStaffAndBuyerUsers(app: TestApp) {
  const passwordHash = await hashPassword("staff-password");
  await app.services.db.insert(users).values([
    { email: "staff@upstream.example", role: 1, passwordHash },
    { email: "buyer@upstream.example", role: 2, passwordHash },
  ]);
  const staff = createClient(app.baseURL);
  const answer = await staff.request("/login", {
    form: { email: "staff@upstream.example", password: "staff-password" },
  });
  if (answer.status !== 302) throw new Error(`the staff sign-in answered ${answer.status}`);
  return staff;
}
