// Signed-in pages benchmark (issue 20), against `node server.js` on a fresh database made for the run,
// PostgreSQL (default) or PGlite (BENCH_DB=pglite), with realistic data: an auction with 500 bids, 50
// invited sellers and 20 documents; a buyer with 50 auctions and 200 notifications; a staff queue of
// 500 registrations. Each party signs in through /login; autocannon then asks for each page with 10 and
// with 50 clients, and for the same server's GET /healthz (one `select 1`) in the same run: the ratio
// to it is steadier than absolute figures on a shared machine.
// Issue 31: an auction of 5 lots x 20 line items with 500 bids in all (100 a lot, each with its 20
// unit prices), its buyer's console and a seller's page ("lots-console", "lots-seller").
// Targets: each page at least 0.25 of /healthz, p99 under 150 ms at 10 clients, no timeout at 50; the
// lotted auction's two pages at most 2.5 times the app CPU per answer of the cheapest signed-in page
// (the "floor" reference row), in the same run.
// Usage: npm run build && node bench/pages.mjs
//   BENCH_DB (postgres | pglite, default postgres), BENCH_SECONDS (per measurement, default 5),
//   BENCH_CLIENTS (comma-separated, default 10,50), BENCH_PAGES (comma-separated names among account,
//   auctions, console, seller, lots-console, lots-seller, staff, and the references floor and login;
//   default all),
//   BENCH_DATABASE_URL (an existing PostgreSQL database to create the run's database next to; default
//   DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test),
//   BENCH_CPU_PROF=1 (the app server writes a V8 CPU profile to /tmp/prof), BENCH_SKIP_HEALTHZ=1 (no
//   /healthz runs, so that a profile holds only the pages).
// It reports; it does not fail: exit code 0 unless something crashes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { tsImport } from "tsx/esm/api";
import {
  createPostgresDatabase,
  fixed,
  printTable,
  runBench,
  settings,
  signIn,
  startApp,
  stopChild,
} from "./bench-support.mjs";

const SELLERS = 50;
const BIDS = 500;
const DOCUMENTS = 20;
const BUYER_AUCTIONS = 50;
const NOTIFICATIONS = 200;
const REGISTRATIONS = 500;
const RATIO_TARGET = 0.25;
const P99_TARGET_MS = 150;
const LOTS = 5;
const LOT_LINES = 20;
/** The lotted auction's pages: at most this many times the floor reference's app CPU per answer. */
const LOTS_CPU_TARGET = 2.5;
const STAFF = { email: "staff@example.com", password: "staff-password" };

const kind = process.env.BENCH_DB === "pglite" ? "pglite" : "postgres";
const clientCounts = (process.env.BENCH_CLIENTS ?? "10,50").split(",").map(Number);
const wantedPages = process.env.BENCH_PAGES?.split(",");
const skipHealthz = process.env.BENCH_SKIP_HEALTHZ === "1";
let appPid = 0;

/** A fresh PostgreSQL database next to the admin URL's, or a PGlite directory; `drop` removes it. */
async function createDatabase() {
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pages-"));
    return {
      options: { pgliteDir: dir },
      env: { PGLITE_DIR: dir },
      label: `PGlite in ${dir}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createPostgresDatabase("bench_pages");
  return {
    options: { databaseUrl: database.url, pgliteDir: "" },
    env: { DATABASE_URL: database.url },
    label: `PostgreSQL (fresh database ${database.name})`,
    drop: database.drop,
  };
}

/**
 * The data, written before the server starts (PGlite has one process): the fixtures' parties and
 * auctions, 500 bids through the bid queue itself (so the auction row's standing lowest, sequence and
 * events are what the app would have written), the rest by plain inserts.
 */
async function writeData(options) {
  const { openDatabase } = await tsImport("../db/database.server.ts", import.meta.url);
  const { seedDemoCatalogue, seedReferenceData } = await tsImport("../db/seed.ts", import.meta.url);
  const fixtures = await tsImport("../tests/support/auction-fixtures.ts", import.meta.url);
  const { placeManualBid } = await tsImport("../app/auctions/bidding/bid-queue.server.ts", import.meta.url);
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    await seedReferenceData(handle.db);
    await seedDemoCatalogue(handle.db);
    const db = handle.db;
    const query = handle.query;
    const { catalogue, buyer, sellers } = await fixtures.createAuctionParties(db, SELLERS);
    const reserveCents = 100_000_000;
    const busy = await fixtures.createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      sellers,
      reserveCents,
      decrement: { kind: "amount", value: 100 },
      endsAt: new Date(Date.now() + 6 * 3_600_000),
    });
    // The buyer's other auctions: a few sellers each, in every state a list shows.
    const states = ["open", "draft", "scheduled", "closed"];
    for (let index = 1; index < BUYER_AUCTIONS; index += 1) {
      const status = states[index % states.length];
      const future = status === "draft" || status === "scheduled";
      await fixtures.createAuctionRow(db, {
        owner: buyer,
        ...catalogue,
        sellers: sellers.slice(index % 40, (index % 40) + 3),
        status,
        startsAt: new Date(Date.now() + (future ? 1 : -2) * 86_400_000),
        endsAt: new Date(Date.now() + (future ? 2 : status === "closed" ? -1 : 1) * 86_400_000),
      });
    }
    for (let index = 0; index < BIDS; index += 1) {
      const seller = sellers[index % SELLERS];
      const outcome = await placeManualBid(db, {
        auctionId: busy.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        amountCents: reserveCents - 100 * (index + 1),
      });
      if (outcome.kind !== "accepted") throw new Error(`bid ${index + 1} was not accepted: ${JSON.stringify(outcome)}`);
    }
    // Issue 31: 5 lots of 20 lines (quantities 1 to 20 units), 100 bids on each, a unit price per line.
    const lotReserveCents = 100_000_000;
    const lotted = await fixtures.createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      sellers,
      endsAt: new Date(Date.now() + 6 * 3_600_000),
      lotCloseGapMinutes: 10,
      lots: Array.from({ length: LOTS }, (_, lot) => ({
        title: `Lot work ${lot + 1}`,
        reserveCents: lotReserveCents,
        decrementKind: "amount",
        decrementValue: 100,
        lines: Array.from({ length: LOT_LINES }, (_, line) => ({
          description: `Rate ${line + 1}: hourly crew, equipment and mileage`,
          unit: "each",
          quantity: 1000,
          ceilingCents: null,
        })),
      })),
    });
    for (let index = 0; index < BIDS; index += 1) {
      const lot = lotted.lots[index % LOTS];
      const seller = sellers[Math.floor(index / LOTS) % SELLERS];
      const total = lotReserveCents - 100 * (Math.floor(index / LOTS) + 1);
      const unitCents = [...Array(LOT_LINES - 1).fill(100_000), total - (LOT_LINES - 1) * 100_000];
      const outcome = await placeManualBid(db, {
        auctionId: lotted.id,
        lotId: lot.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        unitCents,
        amountCents: total,
      });
      if (outcome.kind !== "accepted")
        throw new Error(`lot bid ${index + 1} was not accepted: ${JSON.stringify(outcome)}`);
    }
    const content = Buffer.alloc(20_000, 7);
    for (let index = 0; index < DOCUMENTS; index += 1) {
      await query(
        "insert into auction_documents (auction_id, file_name, content_type, size_bytes, content, uploaded_by_user_id) values ($1, $2, 'application/pdf', $3, $4, $5)",
        [busy.id, `Drawing ${index + 1}.pdf`, content.length, content, buyer.userId],
      );
    }
    await query(
      `insert into notifications (user_id, kind, auction_id, subject, text, emailed_at, created_at)
       select $1, 'outbid', $2, 'Auction update ' || n, 'Something happened on your auction (' || n || ').', now(), now() - n * interval '1 minute'
       from generate_series(1, $3::int) as n`,
      [buyer.userId, busy.id, NOTIFICATIONS],
    );
    // The staff queue: buyer registrations awaiting review, each with its request and spent access token.
    await query(
      `with requests as (
         insert into registration_requests (name, organization_name, organization_type, mobile_number, code_salt, code_hash, code_expires_at, verified_at)
         select 'Pat ' || n, 'Applicant ' || n, 2, '+1403555' || lpad(n::text, 4, '0'), 'x', 'x', now(), now()
         from generate_series(1, $1::int) as n returning id, organization_name
       ), tokens as (
         insert into registration_access_tokens (registration_request_id, token_hash, expires_at, used_at)
         select id, 'bench-' || id, now(), now() from requests returning id, registration_request_id
       )
       insert into registrations (access_token_id, organization_type, status, name, address, city, state, country_code, postal_zip, phone, email, primary_industry_id, billing_preference, submitted_at)
       select tokens.id, 2, 'submitted', requests.organization_name, '1 Main St', 'Calgary', 'AB', 'CA', 'T2P 1J9', '403-555-0100',
         'office-' || requests.id || '@applicant.example', (select min(id) from industries), 'Email Invoice', now() - requests.id * interval '1 minute'
       from tokens join requests on requests.id = tokens.registration_request_id`,
      [REGISTRATIONS],
    );
    return { buyer, seller: sellers[0], auctionId: busy.id, lottedId: lotted.id };
  } finally {
    await handle.close();
  }
}

/** The app process's CPU time so far (user + system), in ms, from /proc (Linux); NaN elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
  } catch {
    return Number.NaN;
  }
}

/**
 * One autocannon run; a browser's headers (gzip) and its session cookie. Besides the rate, the app
 * process's CPU ms per answer: it moves much less than the rate when other work shares the machine.
 */
async function measure(origin, pathname, cookie, connections, seconds) {
  const cpuBefore = cpuMsOf(appPid);
  const result = await autocannon({
    url: `${origin}${pathname}`,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    headers: { "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    timeouts: result.timeouts,
    problems: result.non2xx + result.errors,
    cpuMs: (cpuMsOf(appPid) - cpuBefore) / Math.max(1, result.requests.total),
  };
}

async function main() {
  console.log(
    `bench/pages.mjs: autocannon, ${clientCounts.join(" and ")} clients, ${settings.warmUpSeconds} s warm-up + ` +
      `${settings.seconds} s per measurement, Node ${process.version}, ${os.availableParallelism?.() ?? os.cpus().length} CPU(s).`,
  );
  const database = await createDatabase();
  let app;
  try {
    const started = Date.now();
    const data = await writeData(database.options);
    console.log(`Data: written in ${fixed((Date.now() - started) / 1000, 1)} s.`);
    app = await startApp({ ...database.env, SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
    console.log(`App: \`node server.js\` on ${database.label}.`);
    const origin = app.origin;
    appPid = app.child.pid;
    const measureHealthz = async (connections) => {
      await measure(origin, "/healthz", undefined, connections, settings.warmUpSeconds);
      return measure(origin, "/healthz", undefined, connections, settings.seconds);
    };
    const buyer = await signIn(origin, data.buyer);
    const seller = await signIn(origin, data.seller);
    const staff = await signIn(origin, STAFF);
    const pages = [
      { name: "account", label: "/account (buyer)", path: "/account", cookie: buyer },
      { name: "auctions", label: "/auctions (buyer)", path: "/auctions", cookie: buyer },
      {
        name: "console",
        label: `/auctions/${data.auctionId} (buyer's console)`,
        path: `/auctions/${data.auctionId}`,
        cookie: buyer,
      },
      {
        name: "seller",
        label: `/auctions/${data.auctionId} (a seller)`,
        path: `/auctions/${data.auctionId}`,
        cookie: seller,
      },
      {
        name: "lots-console",
        label: `/auctions/${data.lottedId} (buyer's console, ${LOTS} lots x ${LOT_LINES} lines)`,
        path: `/auctions/${data.lottedId}`,
        cookie: buyer,
        lots: true,
      },
      {
        name: "lots-seller",
        label: `/auctions/${data.lottedId} (a seller, ${LOTS} lots x ${LOT_LINES} lines)`,
        path: `/auctions/${data.lottedId}`,
        cookie: seller,
        lots: true,
      },
      { name: "staff", label: "/staff/registrations (staff)", path: "/staff/registrations", cookie: staff },
      // References, not held to the targets: the cheapest pages React Router renders here, a signed-in one
      // with no data of its own (it ships no JavaScript) and the sign-in page (no session, with scripts).
      // A page with content of its own can only be dearer than these.
      {
        name: "floor",
        label: "/reset-password/complete (buyer; reference)",
        path: "/reset-password/complete",
        cookie: buyer,
        reference: true,
      },
      { name: "login", label: "/login (signed out; reference)", path: "/login", cookie: undefined, reference: true },
    ].filter((page) => !wantedPages || wantedPages.includes(page.name));
    // Each page once: it must answer 200 signed in (not the sign-in page), or the figures mean nothing.
    if (process.env.BENCH_DUMP_DIR) mkdirSync(process.env.BENCH_DUMP_DIR, { recursive: true });
    for (const page of pages) {
      const response = await fetch(`${origin}${page.path}`, { headers: { cookie: page.cookie }, redirect: "manual" });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${page.label} answered ${response.status}`);
      page.bytes = body.length;
      if (process.env.BENCH_DUMP_DIR) writeFileSync(`${process.env.BENCH_DUMP_DIR}/${page.name}.html`, body);
    }

    const rows = [];
    const verdicts = [];
    for (const connections of clientCounts) {
      // Profiling a page alone (BENCH_CPU_PROF=1 BENCH_SKIP_HEALTHZ=1) keeps /healthz out of the profile.
      const unmeasured = { rps: Number.NaN, p50: 0, p99: 0, timeouts: 0, cpuMs: Number.NaN };
      // /healthz is measured before the first page and again after each: each page is compared with
      // the mean of the two measurements around it, as this machine's speed drifts during a run.
      let healthzBefore = skipHealthz ? unmeasured : await measureHealthz(connections);
      const healthzRuns = [healthzBefore];
      const healthzRow = rows.length;
      for (const page of pages) {
        await measure(origin, page.path, page.cookie, connections, settings.warmUpSeconds);
        const result = await measure(origin, page.path, page.cookie, connections, settings.seconds);
        const healthzAfter = skipHealthz ? unmeasured : await measureHealthz(connections);
        healthzRuns.push(healthzAfter);
        const healthz = {
          rps: (healthzBefore.rps + healthzAfter.rps) / 2,
          cpuMs: (healthzBefore.cpuMs + healthzAfter.cpuMs) / 2,
        };
        healthzBefore = healthzAfter;
        const ratio = result.rps / healthz.rps;
        rows.push([
          page.label,
          String(connections),
          fixed(result.rps),
          fixed(result.p50),
          fixed(result.p99),
          String(result.timeouts),
          fixed(ratio, 3),
          String(result.problems),
          fixed(result.cpuMs, 2),
          skipHealthz ? "" : fixed(healthz.cpuMs / result.cpuMs, 3),
        ]);
        const misses = [];
        if (!skipHealthz && ratio < RATIO_TARGET) misses.push(`ratio ${fixed(ratio, 3)} < ${RATIO_TARGET}`);
        if (connections <= 10 && result.p99 >= P99_TARGET_MS)
          misses.push(`p99 ${result.p99} ms >= ${P99_TARGET_MS} ms`);
        if (result.timeouts > 0) misses.push(`${result.timeouts} timeouts`);
        if (result.problems > 0) misses.push(`${result.problems} errors or non-2xx answers`);
        page.cpuMs = { ...page.cpuMs, [connections]: result.cpuMs };
        if (page.reference) continue;
        verdicts.push(
          `${misses.length ? "MISS" : "PASS"} ${page.label}, ${connections} clients${misses.length ? `: ${misses.join(", ")}` : ""}`,
        );
      }
      if (!skipHealthz) {
        const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
        const rates = healthzRuns.map((run) => run.rps);
        rows.splice(healthzRow, 0, [
          `GET /healthz (mean of ${healthzRuns.length}: ${fixed(Math.min(...rates))} to ${fixed(Math.max(...rates))})`,
          String(connections),
          fixed(mean(rates)),
          fixed(mean(healthzRuns.map((run) => run.p50))),
          fixed(Math.max(...healthzRuns.map((run) => run.p99))),
          String(healthzRuns.reduce((sum, run) => sum + run.timeouts, 0)),
          "",
          "",
          fixed(mean(healthzRuns.map((run) => run.cpuMs)), 2),
          "",
        ]);
      }
    }
    console.log("");
    printTable(
      ["page", "clients", "req/s", "p50 ms", "p99 ms", "timeouts", "÷ healthz", "errors", "CPU ms/req", "CPU ÷"],
      rows,
    );
    console.log(
      "CPU ms/req: the app process's CPU time per answer; CPU ÷: /healthz's CPU per answer over the page's (steadier than the rate ratio on a busy machine).",
    );
    console.log("");
    for (const page of pages) console.log(`size: ${page.label} ${fixed(page.bytes / 1024, 1)} KB of HTML`);
    console.log(
      `targets: each page at least ${RATIO_TARGET} of /healthz, p99 under ${P99_TARGET_MS} ms at 10 clients, no timeout (10 s) at any.`,
    );
    for (const verdict of verdicts) console.log(verdict);
    // Issue 31: the lotted auction's pages against the floor's app CPU per answer, at each client count.
    const floor = pages.find((page) => page.name === "floor");
    for (const page of pages.filter((candidate) => candidate.lots)) {
      for (const connections of clientCounts) {
        if (!floor) {
          console.log(`note: ${page.label}: the floor reference was not measured (BENCH_PAGES), no CPU ratio`);
          break;
        }
        const times = page.cpuMs[connections] / floor.cpuMs[connections];
        console.log(
          `${times <= LOTS_CPU_TARGET ? "PASS" : "MISS"} ${page.label}, ${connections} clients: ${fixed(times, 2)} times the floor's CPU per answer (target at most ${LOTS_CPU_TARGET})`,
        );
      }
    }
  } finally {
    if (app) await stopChild(app.child);
    await database.drop();
  }
}

await runBench(main);
