import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~db/database.server";
import { createAuctionParties, createAuctionRow } from "../support/auction-fixtures";
import { freePort } from "../support/free-port";
import { captureLogLines } from "../support/log-lines";
import { requireBuild } from "../support/test-app";
import { createPostgresDatabase } from "../support/test-database";

// A rolling deploy stops each machine with SIGTERM (issue 33). An event stream the stop ended left its
// kept-alive connection open and idle, and a client that keeps its connection alive and goes on
// sending requests on it (a browser, or the load balancer) kept it busy: either held a stopping server
// open until the forced close 10 s later (a machine took 10.2 s to stop). Now every answer after the
// stop began closes its connection, and connections that turn idle are closed as they do.

requireBuild();

const CONNECTIONS = 8;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

async function startServer(
  database: Record<string, string>,
): Promise<{ origin: string; server: ChildProcess; log: ReturnType<typeof captureLogLines> }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["server.js"], {
    env: {
      PATH: process.env.PATH,
      ...database,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      METRICS_PORT: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = server;
  const log = captureLogLines();
  server.stdout?.setEncoding("utf8").on("data", (chunk: string) => log.destination.write(chunk));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return { origin, server, log };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("node server.js did not become healthy within 60 s");
}

describe("stopping a machine", () => {
  it("closes kept-alive connections as their answers go, and exits long before the forced close", async () => {
    const { origin, server, log } = await startServer({ PGLITE_DIR: "memory://" });
    // Kept-alive connections, busy without a pause, as a load balancer's to its machine are.
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const outcomes = { answered: 0, closedByServer: 0, refused: 0, idleClosed: 0, unread: 0, other: [] as string[] };
    let running = true;
    const ask = () =>
      new Promise<void>((resolve) => {
        // A page React Router renders: a request is in flight on some connection when the stop begins.
        const request = http.get(`${origin}/login`, { agent }, (response) => {
          response.resume();
          response.on("end", () => {
            outcomes.answered += 1;
            if (response.headers.connection === "close") outcomes.closedByServer += 1;
            resolve();
          });
        });
        request.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") outcomes.refused += 1;
          // An idle kept-alive connection closed as the next request went out on it: that request was
          // never read (Node's documented case; browsers and balancers send it again elsewhere).
          else if (request.reusedSocket && error.code === "ECONNRESET") outcomes.idleClosed += 1;
          // A new connection reset before any answer: it was still in the listener's queue when the
          // stop closed it, or accepted with its request not yet read. Never read, as one refused;
          // that no request the server read was cut off is checked in its log below.
          else if (error.code === "ECONNRESET") outcomes.unread += 1;
          else outcomes.other.push(error.code ?? error.message);
          resolve();
        });
      });
    const clients = Array.from({ length: CONNECTIONS }, async () => {
      while (running) await ask();
    });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopped = new Promise<number | null>((resolve) => server.once("exit", resolve));
    const stopStarted = Date.now();
    server.kill("SIGTERM");
    const code = await stopped;
    const stopMs = Date.now() - stopStarted;
    running = false;
    await Promise.all(clients);
    agent.destroy();

    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(5_000);
    expect(outcomes.answered).toBeGreaterThan(10);
    // Answered, or refused once it stopped listening; never cut off in the middle.
    expect(outcomes.other).toEqual([]);
    const cutOff = ["connection closed before the response finished", "request failed"];
    expect(log.lines().filter((line) => cutOff.includes(String(line.msg)))).toEqual([]);
    expect(log.lines().filter((line) => line.msg === "request finished").length).toBeGreaterThanOrEqual(
      outcomes.answered,
    );
    // The stop's line says where its time went: the last answer, then each part stopped in turn.
    const stopLine = log.lines().find((line) => line.msg.startsWith("Stopped in"));
    expect(stopLine?.durationMs).toBeGreaterThanOrEqual(Number(stopLine?.answeredMs));
    expect(Object.keys(stopLine?.stepsMs ?? {})).toEqual([
      "machineList",
      "metrics",
      "bidNotices",
      "providerEvents",
      "auctionClock",
      "messageDelivery",
      "liveAuctions",
      "sessionChanges",
      "database",
    ]);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("stopping a machine with watchers (PostgreSQL)", () => {
  it("ends the event streams and closes their connections at once, not 10 s later", async () => {
    const database = await createPostgresDatabase("app");
    const handle = await openDatabase({ databaseUrl: database.url, pgliteDir: "" });
    try {
      const { catalogue, buyer, sellers } = await createAuctionParties(handle.db, 1);
      const seller = sellers[0] as (typeof sellers)[number];
      const auction = await createAuctionRow(handle.db, { owner: buyer, ...catalogue, sellers });
      const { origin, server } = await startServer({ DATABASE_URL: database.url });
      const signIn = await fetch(`${origin}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: seller.email, password: seller.password }),
        redirect: "manual",
      });
      const cookie = signIn.headers
        .getSetCookie()
        .map((header) => header.split(";")[0])
        .join("; ");
      // Streams on kept-alive connections, as a browser's EventSource holds them.
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      const ended: Promise<void>[] = [];
      const firstViews = Array.from(
        { length: CONNECTIONS },
        () =>
          new Promise<void>((resolve, reject) => {
            const request = http.get(
              `${origin}/auctions/${auction.id}/events`,
              { agent, headers: { cookie, accept: "text/event-stream" } },
              (response) => {
                if (response.statusCode !== 200) reject(new Error(`the stream answered ${response.statusCode}`));
                response.setEncoding("utf8");
                response.on("data", (chunk: string) => {
                  if (chunk.includes("event: view")) resolve();
                });
                ended.push(new Promise((done) => response.on("close", () => done())));
              },
            );
            request.on("error", reject);
          }),
      );
      await Promise.all(firstViews);

      const stopped = new Promise<number | null>((resolve) => server.once("exit", resolve));
      const stopStarted = Date.now();
      server.kill("SIGTERM");
      const code = await stopped;
      const stopMs = Date.now() - stopStarted;
      await Promise.all(ended);
      agent.destroy();

      expect(code).toBe(0);
      expect(stopMs).toBeLessThan(5_000);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
