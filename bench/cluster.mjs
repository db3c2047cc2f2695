// Several machines, one auction, a rolling restart (issue 33): three app processes and a worker on one
// fresh PostgreSQL database, behind HAProxy (Debian's, round robin, health checks on /healthz, as Fly's
// proxy does), with a fake Postmark on localhost so every e-mail goes through the durable queue.
//
// 1. Bids per second on one auction, 50 sellers bidding as fast as they can, in three set-ups measured
//    alternately in the same run: one machine; three machines behind the balancer (round robin), each
//    deciding the bids it receives; the same three with each auction's bids sent on to the one machine
//    that takes them, as the product does (decision 028).
// 2. The event: 50 sellers bid on one auction through the balancer while 300 watchers follow it (spread
//    over the machines by the balancer), 10 sellers' secret minimums set on different machines, the
//    soft close moving the end and the worker's clock closing it. Midway each app machine is restarted
//    in turn (SIGTERM, wait for it to exit, start it again, wait until the balancer sees it healthy), as
//    a rolling deploy does, while Stripe events are posted to the webhook through the balancer.
//
// What must hold, counted and printed (exit code 1 when any fails): every accepted bid is in the
// database once, each bid at least a decrement under the lowest before it (a minimum's may stop at the
// minimum, bidding.ts); every watcher ends on the final price, resuming with Last-Event-ID after its
// machine stopped; no 5xx (a 503 only with Retry-After);
// the auction closes once, after its last bid; each e-mail is delivered once and each provider event
// handled once; every machine stops on its own (no connection held until the forced close), and
// nothing is left owed or claimed by a machine that is gone.
//
// Usage: npm run build && node bench/cluster.mjs
//   CLUSTER_WATCHERS (default 300), CLUSTER_SECONDS (each throughput measurement, default 8),
//   BENCH_DATABASE_URL (an existing PostgreSQL database to create the run's next to; default
//   DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test). Needs Debian's haproxy.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import Stripe from "stripe";
import { tsImport } from "tsx/esm/api";
import {
  createPostgresDatabase,
  fixed,
  freePort,
  printTable,
  signIn,
  startChild,
  stopChild,
} from "./bench-support.mjs";
import { bidAsFastAsTheyCan, dollars, lowestOf, percentile, request as sharedRequest, sleep } from "./bidders.mjs";

const MACHINES = 3;
const SELLERS = 50;
const MINIMUM_SETTERS = 10;
const WATCHERS = Number(process.env.CLUSTER_WATCHERS ?? 300);
const THROUGHPUT_SECONDS = Number(process.env.CLUSTER_SECONDS ?? 8);
const DECREMENT_CENTS = 100;
const RESERVE_CENTS = 1_000_000_000;
/**
 * The event's auction is scheduled to end this long after it is made; every bid is in its last minute,
 * so each moves the end, up to the cap (a minute after the scheduled end).
 */
const SCHEDULED_END_SECONDS = 40;
const SOFT_CLOSE = { window: 1, extension: 1, cap: 1 };
/** When the rolling restart begins, after bidding started. */
const RESTART_AFTER_MS = 6_000;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString("hex")}`;
const POSTMARK_TOKEN = "cluster-token";

const haproxyOutput = [];
const log = (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

if (spawnSync("haproxy", ["-v"]).status !== 0) {
  console.error("bench/cluster.mjs needs HAProxy: apt-get install -y haproxy");
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------------
// The client side: keep-alive connections through the balancer, as browsers keep them.

const agent = new http.Agent({ keepAlive: true, maxSockets: 400 });

/** What every answer through the balancer was: by status, 5xx apart, 503 with and without Retry-After. */
const answers = { byStatus: new Map(), serverErrors: 0, unavailableWithRetryAfter: 0, connectionErrors: 0 };
function noteAnswer(status, headers) {
  answers.byStatus.set(status, (answers.byStatus.get(status) ?? 0) + 1);
  if (status >= 500) {
    if (status === 503 && headers["retry-after"]) answers.unavailableWithRetryAfter += 1;
    else answers.serverErrors += 1;
  }
}

const counters = {
  onAnswer: noteAnswer,
  onConnectionError: () => {
    answers.connectionErrors += 1;
  },
};
const request = (origin, pathname, options) => sharedRequest(agent, origin, pathname, options, counters);

/**
 * From a machine's own stop line: when it sent its last answer, and the slowest of the steps after
 * (its queues, clocks and database), as "name 120 ms".
 */
function stopSplit(output) {
  try {
    const { answeredMs, stepsMs } = JSON.parse(output.findLast((entry) => entry.includes("Stopped in")));
    const [name, ms] = Object.entries(stepsMs).sort((a, b) => b[1] - a[1])[0];
    return { answeredMs, slowestStep: `${name} ${ms} ms` };
  } catch {
    return { answeredMs: Number.NaN, slowestStep: "unknown" };
  }
}

const form = (fields) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

async function postBid(origin, cookie, auctionId, cents, headers = {}) {
  const sent = form({ intent: "bid", amount: dollars(cents), confirm: "yes" });
  const started = performance.now();
  const response = await request(origin, `/auctions/${auctionId}`, {
    ...sent,
    headers: { ...sent.headers, ...headers, cookie },
  });
  const location = String(response.headers.location ?? "");
  return {
    status: response.status,
    accepted: [302, 303].includes(response.status) && location.includes("done=placed"),
    servedBy: response.headers["x-served-by"],
    text: response.status >= 500 ? response.body.toString().slice(0, 300) : "",
    latencyMs: response.at - started,
  };
}

/**
 * An event-stream reader that behaves as a browser's EventSource: on the end of a stream it waits the
 * server's `retry:` and connects again through the balancer, sending the last event id it saw.
 */
function createWatcher(origin, auctionId, cookie) {
  const watcher = {
    connections: 0,
    resumedWithLastEventId: 0,
    servedBy: new Set(),
    lastEventId: undefined,
    lastView: undefined,
    views: 0,
    failures: 0,
    stopped: false,
    firstView: undefined,
  };
  let markFirst;
  watcher.firstView = new Promise((resolve) => {
    markFirst = resolve;
  });
  let retryMs = 5_000;
  let current;
  const connect = () => {
    if (watcher.stopped) return;
    const headers = { cookie, accept: "text/event-stream" };
    if (watcher.lastEventId) headers["last-event-id"] = watcher.lastEventId;
    const { hostname, port } = new URL(origin);
    current = http.get({ hostname, port, path: `/auctions/${auctionId}/events`, headers, agent: false }, (response) => {
      noteAnswer(response.statusCode, response.headers);
      if (response.statusCode !== 200) {
        watcher.failures += 1;
        response.resume();
        response.on("end", () => setTimeout(connect, retryMs));
        return;
      }
      watcher.connections += 1;
      if (headers["last-event-id"]) watcher.resumedWithLastEventId += 1;
      watcher.servedBy.add(response.headers["x-served-by"]);
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id;
          let data;
          let event;
          for (const line of block.split("\n")) {
            if (line.startsWith("retry: ")) retryMs = Number(line.slice(7));
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (id) watcher.lastEventId = id;
          if (event === "view" && data) {
            watcher.lastView = JSON.parse(data);
            watcher.views += 1;
            markFirst();
          }
          end = buffer.indexOf("\n\n");
        }
      });
      const again = () => {
        if (current?.reconnecting) return;
        if (current) current.reconnecting = true;
        setTimeout(connect, retryMs);
      };
      response.on("end", again);
      response.on("error", again);
      response.on("close", again);
    });
    current.on("error", () => {
      watcher.failures += 1;
      setTimeout(connect, retryMs);
    });
  };
  connect();
  watcher.stop = () => {
    watcher.stopped = true;
    current?.destroy();
  };
  return watcher;
}

// ---------------------------------------------------------------------------------------------------
// A fake Postmark: takes every e-mail, notes duplicates, refuses the first attempt of about one in five.

async function startFakePostmark() {
  const port = await freePort();
  const state = { requests: 0, refused: 0, delivered: new Map(), duplicates: 0 };
  const refusedOnce = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      state.requests += 1;
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const key = `${message.To}\n${message.Subject}\n${message.TextBody}`;
      res.setHeader("content-type", "application/json");
      if (req.headers["x-postmark-server-token"] !== POSTMARK_TOKEN) {
        res.writeHead(401).end(JSON.stringify({ ErrorCode: 10, Message: "Bad or missing Server API token." }));
        return;
      }
      // A provider's bad moment: the queue must try again, and deliver once.
      if (state.requests % 5 === 0 && !state.delivered.has(key) && !refusedOnce.has(key)) {
        refusedOnce.add(key);
        state.refused += 1;
        res.writeHead(503).end(JSON.stringify({ Message: "Service Unavailable" }));
        return;
      }
      if (state.delivered.has(key)) state.duplicates += 1;
      state.delivered.set(key, (state.delivered.get(key) ?? 0) + 1);
      res
        .writeHead(200)
        .end(
          JSON.stringify({ To: message.To, MessageID: randomBytes(8).toString("hex"), ErrorCode: 0, Message: "OK" }),
        );
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { state, url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

// ---------------------------------------------------------------------------------------------------
// The machines and the balancer.

async function waitHealthy(origin, child, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) break;
    try {
      const response = await fetch(`${origin}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${origin} did not become healthy:\n  ${child?.output.join("\n  ")}`);
}

function haproxyConfig({ lb3, lb1, appPorts }) {
  const servers = appPorts.map((port, index) => `  server app${index + 1} 127.0.0.1:${port} check`).join("\n");
  return `global
  maxconn 4000
  # Servers going down and up, on standard error (printed when the run fails).
  log stderr format short local0 notice

defaults
  mode http
  log global
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout tunnel 1h
  timeout http-keep-alive 10s
  # A machine that went away: try again, on another one. Safe for a POST here: a connection refused or
  # closed before any answer means the request was never taken (a stopping machine answers what it took).
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
  http-reuse safe
  option httpchk GET /healthz
  http-check expect status 200
  # Fly checks every 15 s with a 5 s timeout; quicker here, and as patient with a busy machine.
  timeout check 3s
  default-server inter 500ms fall 3 rise 2

frontend three
  bind 127.0.0.1:${lb3}
  default_backend apps

frontend one
  bind 127.0.0.1:${lb1}
  default_backend app1_only
  http-response set-header X-Served-By %s

backend apps
  balance roundrobin
  http-response set-header X-Served-By %s
${servers}

backend app1_only
  http-response set-header X-Served-By %s
  server app1 127.0.0.1:${appPorts[0]} check
`;
}

async function main() {
  const startedAt = Date.now();
  const cpus = os.availableParallelism?.() ?? os.cpus().length;
  console.log(
    `bench/cluster.mjs: ${MACHINES} app machines + 1 worker on one PostgreSQL behind HAProxy, ${SELLERS} sellers, ` +
      `${WATCHERS} watchers, ${THROUGHPUT_SECONDS} s per throughput measurement, Node ${process.version}, ${cpus} CPU(s).`,
  );
  const tempDir = mkdtempSync(path.join(os.tmpdir(), "bench-cluster-"));
  const database = await createPostgresDatabase("bench_cluster");
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const postmark = await startFakePostmark();
  const appPorts = await Promise.all(Array.from({ length: MACHINES }, () => freePort()));
  const [lb3, lb1] = await Promise.all([freePort(), freePort()]);
  const origin3 = `http://127.0.0.1:${lb3}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    // SMS and cards stay in the dev outbox and the test provider; e-mail goes to the fake Postmark.
    DEV_OUTBOX: "on",
    DATABASE_URL: database.url,
    HOST: "127.0.0.1",
    APP_URL: origin3,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    POSTMARK_SERVER_TOKEN: POSTMARK_TOKEN,
    POSTMARK_API_URL: postmark.url,
    MAIL_FROM: "no-reply@cluster.example",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    METRICS_PORT: "off",
    // As in production: the machines' own stop line says where a slow stop spent its time.
    LOG_LEVEL: "info",
  };
  const machines = [];
  const startMachine = async (index) => {
    const child = startChild(["server.js"], {
      ...env,
      PORT: String(appPorts[index]),
      // As Fly sets FLY_MACHINE_ID and the private address the others reach this machine at.
      FLY_MACHINE_ID: `app${index + 1}`,
      MACHINE_URL: `http://127.0.0.1:${appPorts[index]}`,
    });
    await waitHealthy(`http://127.0.0.1:${appPorts[index]}`, child);
    machines[index] = child;
    return child;
  };
  let worker;
  let haproxy;
  const watchers = [];
  let failed = false;
  const check = (ok, line) => {
    if (!ok) failed = true;
    console.log(`${ok ? "PASS" : "FAIL"} ${line}`);
  };
  try {
    // The first machine migrates; the others and the worker start beside each other after it.
    await startMachine(0);
    worker = startChild(["server.js", "--worker"], env);
    await Promise.all([1, 2].map((index) => startMachine(index)));
    const configFile = path.join(tempDir, "haproxy.cfg");
    writeFileSync(configFile, haproxyConfig({ lb3, lb1, appPorts }));
    haproxy = spawn("haproxy", ["-db", "-f", configFile], { stdio: ["ignore", "pipe", "pipe"] });
    haproxy.output = haproxyOutput;
    haproxy.stderr.on("data", (chunk) => haproxyOutput.push(chunk.toString()));
    await waitHealthy(origin3, haproxy);
    log(`machines on ports ${appPorts.join(", ")}; HAProxy on ${lb3} (round robin) and ${lb1} (app1 only)`);

    const { openDatabase } = await tsImport("../db/database.server.ts", import.meta.url);
    const fixtures = await tsImport("../tests/support/auction-fixtures.ts", import.meta.url);
    const handle = await openDatabase({ databaseUrl: database.url, pgliteDir: "" });
    const { catalogue, buyer, sellers } = await fixtures.createAuctionParties(handle.db, SELLERS);
    const auctionOptions = {
      owner: buyer,
      ...catalogue,
      sellers,
      reserveCents: RESERVE_CENTS,
      decrement: { kind: "amount", value: DECREMENT_CENTS },
      endsAt: new Date(Date.now() + 6 * 3_600_000),
    };
    for (const seller of sellers) seller.cookie = await signIn(origin3, seller);
    buyer.cookie = await signIn(origin3, buyer);
    log(`${SELLERS} sellers and the buyer signed in through the balancer`);

    // 1. Bids per second on one auction, the three set-ups alternately (decision 028).
    const { ownerOf } = await tsImport("../app/platform/rendezvous.ts", import.meta.url);
    const machineList = (await sql`select id from app_machines order by id`).map((row) => ({ id: row.id }));
    /** An auction whose bids app1 takes: for one machine, no machine to send them to. */
    const auctionOnApp1 = async () => {
      for (;;) {
        const auction = await fixtures.createAuctionRow(handle.db, auctionOptions);
        if (ownerOf(`auction:${auction.id}`, machineList)?.id === "app1") return auction;
      }
    };
    const setups = [
      { name: "one", label: "one machine", origin: `http://127.0.0.1:${lb1}`, newAuction: auctionOnApp1 },
      {
        name: "spread",
        label: "three machines, each deciding the bids it receives",
        origin: origin3,
        // A request already forwarded once is never forwarded again: this one stays where it lands.
        headers: { "x-forwarded-by-machine": "bench" },
      },
      { name: "routed", label: "three machines, the auction's bids sent to one", origin: origin3 },
    ];
    const throughput = Object.fromEntries(setups.map((setup) => [setup.name, []]));
    for (const round of [0, 1]) {
      for (const setup of round === 0 ? setups : [...setups].reverse()) {
        const auction = await (setup.newAuction ?? (() => fixtures.createAuctionRow(handle.db, auctionOptions)))();
        const warmUp = await burst(setup.origin, auction.id, sellers, 1, { headers: setup.headers });
        throughput[setup.name].push(
          await burst(setup.origin, auction.id, sellers, THROUGHPUT_SECONDS, {
            headers: setup.headers,
            lowestCents: warmUp.next - 1_000 * DECREMENT_CENTS,
          }),
        );
      }
    }
    const rate = (name) => throughput[name].reduce((sum, run) => sum + run.perSecond, 0) / throughput[name].length;
    console.log("");
    printTable(
      [`bids on one auction, ${SELLERS} sellers`, "accepted/s", "p50 ms", "p99 ms", "÷ one machine"],
      setups.map(({ name, label }) => {
        const latencies = throughput[name].flatMap((run) => run.latencies);
        return [
          label,
          fixed(rate(name), 1),
          fixed(percentile(latencies, 0.5), 1),
          fixed(percentile(latencies, 0.99), 1),
          fixed(rate(name) / rate("one"), 2),
        ];
      }),
    );
    console.log("");

    // 2. The event.
    // Its end is written when it is made (the machines keep an auction's terms in memory while it is
    // bid on): long enough for the minimums and the watchers to be in place, then moved by the bids.
    const scheduledEnd = Date.now() + SCHEDULED_END_SECONDS * 1000;
    const auction = await fixtures.createAuctionRow(handle.db, {
      ...auctionOptions,
      endsAt: new Date(scheduledEnd),
      softClose: SOFT_CLOSE,
    });
    const minimumSetters = sellers.slice(SELLERS - MINIMUM_SETTERS);
    const minimumMachines = new Set();
    /** Each minimum-setting seller's minimum, by organization. */
    const minimums = new Map();
    for (const [index, seller] of minimumSetters.entries()) {
      // Each a little lower: they bid for their sellers as the price comes down, then drop out in turn.
      const minimum = RESERVE_CENTS - (index + 1) * 40 * DECREMENT_CENTS;
      minimums.set(seller.organizationId, minimum);
      const sent = form({ intent: "auto-bid", minimum: dollars(minimum) });
      const response = await request(origin3, `/auctions/${auction.id}`, {
        ...sent,
        headers: { ...sent.headers, cookie: seller.cookie },
      });
      if (![302, 303].includes(response.status)) throw new Error(`a minimum answered ${response.status}`);
      minimumMachines.add(response.headers["x-served-by"]);
    }
    log(`${MINIMUM_SETTERS} minimums set, on ${[...minimumMachines].sort().join(", ")}`);
    const sessions = [...sellers.map((seller) => seller.cookie), buyer.cookie];
    for (let index = 0; index < WATCHERS; index += 1) {
      watchers.push(createWatcher(origin3, auction.id, sessions[index % sessions.length]));
      if (index % 50 === 49) await sleep(100);
    }
    await Promise.race([Promise.all(watchers.map((watcher) => watcher.firstView)), sleep(60_000)]);
    const firstByMachine = countBy(watchers.map((watcher) => [...watcher.servedBy][0]));
    log(
      `${watchers.filter((w) => w.views > 0).length} of ${WATCHERS} watchers following (${describeCounts(firstByMachine)})`,
    );

    const bidStart = Date.now();
    const latestEnd = scheduledEnd + SOFT_CLOSE.cap * 60_000;
    if (scheduledEnd - bidStart < 10_000)
      throw new Error("setting up took too long: the auction ends before bidding can begin");

    const restarts = [];
    const events = { sent: 0, replays: 0, answers: new Map(), ids: [] };
    const stripe = new Stripe("sk_test_cluster");
    let restarting = true;
    const rolling = (async () => {
      await sleep(RESTART_AFTER_MS);
      for (let index = 0; index < MACHINES; index += 1) {
        const child = machines[index];
        const stopStarted = performance.now();
        const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
        child.kill("SIGTERM");
        const exit = await exited;
        const stopMs = performance.now() - stopStarted;
        const forced = child.output.some((line) => line.includes("still open 10 s after"));
        const { answeredMs, slowestStep } = stopSplit(child.output);
        const startStarted = performance.now();
        await startMachine(index);
        const startMs = performance.now() - startStarted;
        // Up for the balancer after two good checks (rise 2, inter 500 ms).
        await sleep(1_200);
        restarts.push({ machine: `app${index + 1}`, stopMs, answeredMs, slowestStep, startMs, exit, forced });
        log(
          `app${index + 1} restarted: stopped in ${fixed(stopMs)} ms (exit ${exit.code ?? exit.signal}, last answer after ${fixed(answeredMs)} ms, slowest step after it: ${slowestStep}), up again in ${fixed(startMs)} ms`,
        );
      }
      restarting = false;
    })();
    // Stripe's events through the balancer all through the restarts, each sent twice as Stripe retries.
    const webhooks = (async () => {
      let sequence = 0;
      while (restarting) {
        sequence += 1;
        const id = `evt_cluster_${sequence}_${randomBytes(4).toString("hex")}`;
        const payload = JSON.stringify({
          id,
          object: "event",
          type: "customer.updated",
          created: Math.floor(Date.now() / 1000),
          data: { object: { id: `cus_cluster_${sequence}`, object: "customer" } },
        });
        events.ids.push(id);
        for (let copy = 0; copy < 2; copy += 1) {
          const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
          const response = await request(origin3, "/webhooks/stripe", {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": signature },
            body: payload,
          }).catch(() => ({ status: "error", body: Buffer.from("") }));
          events.sent += 1;
          events.answers.set(response.status, (events.answers.get(response.status) ?? 0) + 1);
          if (response.body.toString().includes('"replay":true')) events.replays += 1;
        }
        await sleep(150);
      }
    })();
    const bidders = sellers.slice(0, SELLERS - MINIMUM_SETTERS);
    const event = await burst(origin3, auction.id, bidders, (latestEnd - Date.now()) / 1000 + 5, {
      untilClosed: async () =>
        (await sql`select status from auctions where id = ${auction.id}`)[0]?.status === "closed",
    });
    await rolling;
    await webhooks;
    log(`bidding over: ${event.accepted} accepted, ${event.refused} refused in ${fixed(event.elapsed, 1)} s`);

    // Closed by the worker's clock, once.
    const closeDeadline = Date.now() + 30_000;
    let closedRow;
    while (Date.now() < closeDeadline) {
      [closedRow] = await sql`select status, ends_at, closed_at from auctions where id = ${auction.id}`;
      if (closedRow?.status === "closed") break;
      await sleep(250);
    }
    const closings =
      await sql`select count(*)::int as n from auction_events where auction_id = ${auction.id} and kind = 'closed'`;
    const bids = await sql`select id, organization_id, amount_cents, kind, created_at from auction_bids
      where auction_id = ${auction.id} order by id`;
    const finalLowest = bids.length > 0 ? Number(bids.at(-1).amount_cents) : null;

    // Every watcher on the final price.
    const watchDeadline = Date.now() + 20_000;
    const onFinal = () => watchers.filter((watcher) => watcher.lastView && lowestOf(watcher.lastView) === finalLowest);
    while (onFinal().length < WATCHERS && Date.now() < watchDeadline) await sleep(250);
    // Every e-mail delivered and every event handled, by the machines still standing.
    // (A notice refused once is tried again 30 s later: the schedule that suits notices.)
    const queueDeadline = Date.now() + 120_000;
    let pending;
    while (Date.now() < queueDeadline) {
      [pending] = await sql`select
        (select count(*)::int from outbox_messages where status in ('queued', 'sending')) as messages,
        (select count(*)::int from provider_events where state = 'received') as events,
        (select count(*)::int from bid_effects) as effects`;
      if (pending.messages + pending.events + pending.effects === 0) break;
      await sleep(500);
    }
    const messages = await sql`select status, count(*)::int as n, max(attempts)::int as most_attempts
      from outbox_messages where channel = 'email' group by status`;
    const stuck = await sql`select id, kind, status, attempts, next_attempt_at, claimed_until, last_error, created_at
      from outbox_messages where status in ('queued', 'sending') order by id limit 20`;
    for (const row of stuck) {
      console.log(
        `  left: message ${row.id} ${row.kind} ${row.status}, ${row.attempts} attempts, made ${row.created_at.toISOString()}, ` +
          `next ${row.next_attempt_at.toISOString()}, claimed until ${row.claimed_until?.toISOString() ?? "-"}, ${row.last_error ?? ""}`,
      );
    }
    const closingNotices = await sql`select "to", kind, count(*)::int as n from outbox_messages
      where created_at >= ${new Date(bidStart)} and kind ilike '%clos%' group by "to", kind having count(*) > 1`;
    const handled = await sql`select state, count(*)::int as n, max(attempts)::int as most_attempts
      from provider_events where id like 'evt_cluster_%' group by state`;
    await handle.close();

    // The counts.
    const accepted = new Map();
    for (const bid of event.acceptedBids) {
      const key = `${sellers[bid.index].organizationId}:${bid.amount}`;
      accepted.set(key, (accepted.get(key) ?? 0) + 1);
    }
    const stored = new Map();
    for (const bid of bids.filter((row) => row.kind === "manual")) {
      const key = `${bid.organization_id}:${Number(bid.amount_cents)}`;
      stored.set(key, (stored.get(key) ?? 0) + 1);
    }
    const lost = [...accepted.keys()].filter((key) => !stored.has(key)).length;
    const duplicates = [...stored.values()].filter((count) => count > 1).length;
    const unanswered = [...stored.keys()].filter((key) => !accepted.has(key)).length;
    // The rules (bidding.ts): a manual bid at least a decrement under the lowest before it; a bid for a
    // minimum likewise, or at the minimum itself when that is closer (never above the lowest).
    let outOfOrder = 0;
    let lowestSoFar = RESERVE_CENTS + DECREMENT_CENTS;
    for (const bid of bids) {
      const amount = Number(bid.amount_cents);
      const minimum = minimums.get(bid.organization_id);
      const allowed =
        amount <= lowestSoFar - DECREMENT_CENTS || (bid.kind === "auto" && amount === minimum && amount <= lowestSoFar);
      if (!allowed) {
        outOfOrder += 1;
        console.log(
          `  out of order: bid ${bid.id} (${bid.kind}) $${dollars(amount)} after the lowest $${dollars(lowestSoFar)}`,
        );
      }
      lowestSoFar = Math.min(lowestSoFar, amount);
    }
    const afterClose = closedRow?.ends_at
      ? bids.filter((bid) => new Date(bid.created_at) > new Date(closedRow.ends_at)).length
      : bids.length;
    const resumed = watchers.filter((watcher) => watcher.resumedWithLastEventId > 0).length;
    const movedMachines = watchers.filter((watcher) => watcher.servedBy.size > 1).length;
    const deliveredEmails = [...postmark.state.delivered.values()].reduce((sum, count) => sum + count, 0);
    const sentRows = messages.find((row) => row.status === "sent")?.n ?? 0;

    console.log("");
    console.log(
      `The event: ${bids.length} bids stored (${bids.filter((b) => b.kind === "manual").length} placed by ${bidders.length} sellers, ` +
        `${bids.filter((b) => b.kind === "auto").length} by ${MINIMUM_SETTERS} minimums), final price $${dollars(finalLowest ?? 0)}, ` +
        `${event.refused} refused (beaten to it, leading already or closed), ${event.errors} errors.`,
    );
    console.log(
      `Answers through the balancer: ${[...answers.byStatus.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status} ×${count}`)
        .join(", ")}; connection errors ${answers.connectionErrors}.`,
    );
    for (const restart of restarts) {
      console.log(
        `  ${restart.machine}: SIGTERM to exit ${fixed(restart.stopMs)} ms (last answer sent after ${fixed(restart.answeredMs)} ms, slowest step after it: ${restart.slowestStep})${restart.forced ? " (connections closed by force)" : ""}, ` +
          `start to healthy ${fixed(restart.startMs)} ms`,
      );
    }
    console.log("");
    check(
      lost === 0 && duplicates === 0,
      `every accepted bid is stored once: ${accepted.size} accepted, ${lost} missing, ${duplicates} stored twice` +
        (unanswered ? ` (${unanswered} stored whose answer the client never got)` : ""),
    );
    check(
      outOfOrder === 0,
      `each of the ${bids.length} bids at least $${dollars(DECREMENT_CENTS)} under the lowest before it (or, for a minimum, at it): ${outOfOrder} not`,
    );
    check(
      answers.serverErrors === 0,
      `no 5xx: ${answers.serverErrors} (and ${answers.unavailableWithRetryAfter} 503 with Retry-After)`,
    );
    check(
      restarts.length === MACHINES && restarts.every((restart) => restart.exit.code === 0 && !restart.forced),
      `${restarts.length} of ${MACHINES} machines restarted in turn, each stopping on its own: ` +
        `${restarts.map((restart) => `${fixed(restart.stopMs)} ms`).join(", ")}`,
    );
    check(
      onFinal().length === WATCHERS,
      `${onFinal().length} of ${WATCHERS} watchers end on the final price; ${resumed} resumed with Last-Event-ID, ` +
        `${movedMachines} moved to another machine (first machines: ${describeCounts(firstByMachine)})`,
    );
    check(
      closedRow?.status === "closed" && closings[0].n === 1 && afterClose === 0,
      `the auction closed once (${closings[0].n} closing), ${afterClose} bids after its end ` +
        `(its end moved by the soft close from ${fixed((scheduledEnd - bidStart) / 1000)} s after bidding began to ` +
        `${closedRow ? fixed((new Date(closedRow.ends_at) - bidStart) / 1000) : "?"} s)`,
    );
    check(
      postmark.state.duplicates === 0 &&
        pending?.messages === 0 &&
        closingNotices.length === 0 &&
        deliveredEmails === sentRows,
      `each e-mail delivered once: ${deliveredEmails} delivered for ${sentRows} sent rows, ${postmark.state.refused} refused first and retried, ` +
        `${postmark.state.duplicates} twice, ${pending?.messages ?? "?"} left queued, ${closingNotices.length} closing notices repeated`,
    );
    const handledCount = handled.filter((row) => row.state !== "received").reduce((sum, row) => sum + row.n, 0);
    check(
      handledCount === events.ids.length && handled.every((row) => row.most_attempts <= 1),
      `each provider event handled once: ${events.ids.length} events (each sent twice: ${events.replays} replays answered), ` +
        `${handledCount} handled, at most ${Math.max(0, ...handled.map((row) => row.most_attempts))} attempt each; answers ` +
        `${[...events.answers.entries()].map(([status, count]) => `${status} ×${count}`).join(", ")}`,
    );
    check(
      pending?.effects === 0 && pending?.events === 0,
      `nothing left owed by a machine that is gone: ${pending?.effects ?? "?"} bid notices, ${pending?.events ?? "?"} provider events`,
    );
    console.log(`\nbench/cluster.mjs took ${fixed((Date.now() - startedAt) / 1000)} s.`);
  } finally {
    for (const watcher of watchers) watcher.stop();
    await Promise.all([...machines, worker].filter(Boolean).map((child) => stopChild(child)));
    haproxy?.kill("SIGKILL");
    postmark.close();
    agent.destroy();
    await sql.end();
    await database.drop();
    rmSync(tempDir, { recursive: true, force: true });
  }
  return failed;
}

function countBy(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

const describeCounts = (counts) =>
  [...counts.entries()]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([name, count]) => `${name ?? "none"} ${count}`)
    .join(", ");

/**
 * Sellers bidding as fast as they can for `seconds` (or until `untilClosed` says the auction closed):
 * each attempt one decrement under the last amount handed out, or under the lowest the last answer
 * showed. A bid beaten to it by a lower one is refused, as it would be for a person.
 */
async function burst(origin, auctionId, sellers, seconds, options = {}) {
  const price = { next: (options.lowestCents ?? RESERVE_CENTS) - DECREMENT_CENTS };
  const probe = await postBid(origin, sellers[0].cookie, auctionId, RESERVE_CENTS + DECREMENT_CENTS, options.headers);
  if (probe.status !== 400) {
    throw new Error(
      `a bid above the reserve answered ${probe.status}, not 400 (served by ${probe.servedBy}): ${probe.text}`,
    );
  }
  const deadline = performance.now() + seconds * 1000;
  let closed = false;
  const watchClose = options.untilClosed
    ? (async () => {
        while (!closed && performance.now() < deadline) {
          closed = await options.untilClosed();
          await sleep(200);
        }
      })()
    : undefined;
  const results = await bidAsFastAsTheyCan({
    count: sellers.length,
    placeBid: (index, amount) => postBid(origin, sellers[index].cookie, auctionId, amount, options.headers),
    price,
    decrement: DECREMENT_CENTS,
    stop: () => closed || performance.now() >= deadline,
  });
  closed = true;
  await watchClose;
  return { ...results, next: price.next };
}

try {
  const failed = await main();
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error(`bench/cluster.mjs failed: ${error.stack ?? error}`);
  if (haproxyOutput.length > 0) console.error(`HAProxy said:\n${haproxyOutput.join("").slice(-3000)}`);
  process.exit(2);
}
