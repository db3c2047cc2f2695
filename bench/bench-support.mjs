// What the benches share: settings from the environment, the production server and the plain
// node:http reference as child processes, measuring both alternately with autocannon in this process,
// a fresh PostgreSQL database per run, signing in, and the exit code.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import postgres from "postgres";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function positiveNumber(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`${name} must be a positive number`);
    process.exit(1);
  }
  return value;
}

/** BENCH_SECONDS, BENCH_CONNECTIONS and BENCH_ROUNDS, with a one-second warm-up per server and path. */
export const settings = {
  seconds: positiveNumber("BENCH_SECONDS", 5),
  connections: positiveNumber("BENCH_CONNECTIONS", 10),
  rounds: positiveNumber("BENCH_ROUNDS", 1),
  warmUpSeconds: 1,
};

export const average = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
export const fixed = (value, digits = 0) => value.toFixed(digits);

/** The first line every bench prints: how it measures, on what. */
export function describeRun(script) {
  const cpus = os.availableParallelism?.() ?? os.cpus().length;
  const { connections, warmUpSeconds, seconds, rounds } = settings;
  return (
    `${script}: autocannon, ${connections} connections, pipelining 1, ${warmUpSeconds} s warm-up + ` +
    `${seconds} s per measurement, ${rounds} round(s), Node ${process.version}, ${cpus} CPU(s).`
  );
}

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("No production build (build/server/index.js is missing): run `npm run build` first.");
  process.exit(1);
}

const children = new Set();
const tempDir = mkdtempSync(path.join(os.tmpdir(), "bench-"));

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

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a child node process; keeps its last output lines for the error message if it dies. */
export function startChild(args, env) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []), ...args],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
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

export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The production server on PGlite in memory (start migrates and seeds the demo catalogue), or on
 * the PostgreSQL database of `overrides.DATABASE_URL`.
 */
export async function startApp(overrides = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: "production",
    // No real providers here: messages go to the dev outbox, as a staging copy (its banner is on every page).
    DEV_OUTBOX: "on",
    PGLITE_DIR: "memory://",
    DATABASE_URL: "",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    ...overrides,
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

/** bench/reference-server.mjs answering each body's path with its bytes and content type. */
export async function startReference(bodies, contentType = "text/html; charset=utf-8") {
  const manifest = {};
  bodies.forEach((body, index) => {
    const file = path.join(tempDir, `answer-${index}`);
    writeFileSync(file, body.bytes);
    manifest[body.path] = { file, contentType };
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
  return autocannon({ url, connections: settings.connections, pipelining: 1, duration });
}

async function measure(url) {
  const result = await run(url, settings.seconds);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    problems: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Each path on the app and on the reference, alternately, never concurrently: a warm-up each, then
 * the rounds. Answers per path the averages of both and the app's share of the reference's rate.
 */
export async function compare(app, reference, paths) {
  const summary = (list) => ({
    rps: average(list.map((sample) => sample.rps)),
    p99: average(list.map((sample) => sample.p99)),
    problems: list.reduce((sum, sample) => sum + sample.problems, 0),
  });
  const results = [];
  for (const pathname of paths) {
    const samples = { app: [], ref: [] };
    await run(`${app.origin}${pathname}`, settings.warmUpSeconds);
    await run(`${reference.origin}${pathname}`, settings.warmUpSeconds);
    for (let round = 0; round < settings.rounds; round++) {
      samples.app.push(await measure(`${app.origin}${pathname}`));
      samples.ref.push(await measure(`${reference.origin}${pathname}`));
    }
    const appResult = summary(samples.app);
    const refResult = summary(samples.ref);
    results.push({ app: appResult, ref: refResult, ratio: appResult.rps / refResult.rps });
  }
  return results;
}

/** A table with the first column left-aligned and the others right-aligned. */
export function printTable(header, rows) {
  const widths = header.map((heading, index) => Math.max(heading.length, ...rows.map((row) => row[index].length)));
  const line = (cells) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** An existing PostgreSQL database to create a run's database next to. */
export const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh PostgreSQL database next to the admin URL's, named `<prefix>_<pid>_<random>`; `drop` removes it. */
export async function createPostgresDatabase(prefix) {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}

/** Signs in over HTTP (the sign-in form); answers the session cookie. */
export async function signIn(origin, party) {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: party.email, password: party.password }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  if (![302, 303].includes(response.status) || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie;
}

/** Runs a bench's main: exit code 0 unless something crashes (a bench reports, it does not fail). */
export async function runBench(main) {
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${error.stack ?? error}`);
    process.exit(1);
  }
  process.exit(0);
}
