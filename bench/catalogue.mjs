// Catalogue read benchmark: GET /api/service_checkboxes and GET /api/service_area_checkboxes served by
// the production server with the seeded demo catalogue, against a plain node:http server returning the
// same JSON bytes, measured the same way in the same run. Prints requests per second, p99 and ratios.
// Usage: npm run build && node bench/catalogue.mjs   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
// It reports; it does not fail: exit code 0 unless something crashes.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = positiveNumber("BENCH_SECONDS", 5);
const connections = positiveNumber("BENCH_CONNECTIONS", 10);
const rounds = positiveNumber("BENCH_ROUNDS", 1);
const warmUpSeconds = 1;
const target = 0.3;
const paths = ["/api/service_checkboxes", "/api/service_area_checkboxes"];

function positiveNumber(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`${name} must be a positive number`);
    process.exit(1);
  }
  return value;
}

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("No production build (build/server/index.js is missing): run `npm run build` first.");
  process.exit(1);
}

const children = new Set();
const tempDir = mkdtempSync(path.join(os.tmpdir(), "bench-catalogue-"));

function cleanUp() {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  rmSync(tempDir, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function startChild(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.output = [];
  const keep = (chunk) => {
    child.output.push(...chunk.toString().split("\n").filter(Boolean));
    if (child.output.length > 40) child.output.splice(0, child.output.length - 40);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("exit", () => children.delete(child));
  return child;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The production server on PGlite in memory: start migrates and seeds the demo catalogue. */
async function startApp() {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PGLITE_DIR: "memory://",
    DATABASE_URL: "",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  };
  const child = startChild(["server.js"], env);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${origin}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) return { child, origin };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the production server did not become healthy:\n  ${child.output.join("\n  ")}`);
}

async function startReference(bodies) {
  const manifest = {};
  bodies.forEach((body, index) => {
    const file = path.join(tempDir, `answer-${index}.json`);
    writeFileSync(file, body.bytes);
    manifest[body.path] = { file, contentType: "application/json; charset=utf-8" };
  });
  const manifestFile = path.join(tempDir, "answers.json");
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const child = startChild([path.join(root, "bench/reference-server.mjs"), manifestFile], process.env);
  const port = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", () => reject(new Error(`the reference server exited:\n  ${child.output.join("\n  ")}`)));
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}

function run(url, duration) {
  return autocannon({ url, connections, pipelining: 1, duration });
}

async function measure(url) {
  const result = await run(url, seconds);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    problems: result.non2xx + result.errors + result.timeouts,
  };
}

const average = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const fixed = (value, digits = 0) => value.toFixed(digits);

async function main() {
  const cpus = os.availableParallelism?.() ?? os.cpus().length;
  console.log(
    `bench/catalogue.mjs: autocannon, ${connections} connections, pipelining 1, ${warmUpSeconds} s warm-up + ` +
      `${seconds} s per measurement, ${rounds} round(s), Node ${process.version}, ${cpus} CPU(s).`,
  );
  console.log(
    "App: `node server.js` on PGlite in memory with the seeded demo catalogue. Reference: " +
      "bench/reference-server.mjs, plain node:http returning the app's own JSON bytes. Measured " +
      "alternately, never concurrently, by autocannon in this process (which shares the CPUs).\n",
  );

  const app = await startApp();
  const bodies = [];
  for (const pathname of paths) {
    const response = await fetch(`${app.origin}${pathname}`, { headers: { "accept-encoding": "identity" } });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}`);
    const answer = JSON.parse(bytes.toString());
    const size = pathname.includes("area")
      ? `${answer.serviceAreas.length} service areas in ${answer.serviceAreaProvinces.length} provinces`
      : `${answer.services.length} top groups`;
    bodies.push({ path: pathname, bytes, size });
  }
  const reference = await startReference(bodies);

  const results = [];
  for (const body of bodies) {
    const samples = { app: [], ref: [] };
    await run(`${app.origin}${body.path}`, warmUpSeconds);
    await run(`${reference.origin}${body.path}`, warmUpSeconds);
    for (let round = 0; round < rounds; round++) {
      samples.app.push(await measure(`${app.origin}${body.path}`));
      samples.ref.push(await measure(`${reference.origin}${body.path}`));
    }
    const summary = (list) => ({
      rps: average(list.map((sample) => sample.rps)),
      p99: average(list.map((sample) => sample.p99)),
      problems: list.reduce((sum, sample) => sum + sample.problems, 0),
    });
    const appResult = summary(samples.app);
    const refResult = summary(samples.ref);
    results.push({ ...body, app: appResult, ref: refResult, ratio: appResult.rps / refResult.rps });
  }
  await stopChild(reference.child);
  await stopChild(app.child);

  const header = ["path", "bytes", "app req/s", "app p99 ms", "ref req/s", "ref p99 ms", "ratio", "target", ""];
  const rows = results.map((r) => [
    r.path,
    String(r.bytes.length),
    fixed(r.app.rps),
    fixed(r.app.p99),
    fixed(r.ref.rps),
    fixed(r.ref.p99),
    fixed(r.ratio, 2),
    `>= ${target}`,
    r.ratio >= target ? "PASS" : "MISS",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const r of results) {
    console.log(`  ${r.path}: ${r.size}`);
    if (r.app.problems || r.ref.problems) {
      console.log(`warning: ${r.path}: non-2xx/errors/timeouts app ${r.app.problems}, reference ${r.ref.problems}`);
    }
  }
  console.log("");
  for (const r of results) {
    console.log(`${r.ratio >= target ? "PASS" : "MISS"} ${r.path} ratio ${fixed(r.ratio, 2)} (target >= ${target})`);
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error.stack ?? error}`);
  cleanUp();
  process.exit(1);
}
cleanUp();
