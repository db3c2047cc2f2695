// HTTP benchmark: the production server against a plain node:http server returning the same bytes,
// measured the same way in the same run, plus the JavaScript a first visit to Home downloads.
// Usage: npm run build && node bench/http.mjs   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
// It reports; it does not fail: exit code 0 unless something crashes.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = positiveNumber("BENCH_SECONDS", 5);
const connections = positiveNumber("BENCH_CONNECTIONS", 10);
const rounds = positiveNumber("BENCH_ROUNDS", 1);
const warmUpSeconds = 1;
const pages = [
  { path: "/", name: "Home", target: 0.25 },
  { path: "/faq", name: "FAQ", target: 0.6 },
  { path: "/about", name: "About", target: 0.6 },
];
const jsBudgetKb = 115;
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
const tempDir = mkdtempSync(path.join(os.tmpdir(), "bench-http-"));

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

/** Starts a child node process; keeps its last output lines for the error message if it dies. */
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
    const file = path.join(tempDir, `page-${index}.html`);
    writeFileSync(file, body.bytes);
    manifest[body.path] = file;
  });
  const manifestFile = path.join(tempDir, "pages.json");
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
  const problems = result.non2xx + result.errors + result.timeouts;
  return { rps: result.requests.average, p99: result.latency.p99, problems };
}

const average = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const fixed = (value, digits = 0) => value.toFixed(digits);

/** Same-origin JavaScript a first visit loads: script src, modulepreload, inline module imports, and their static imports. */
async function firstVisitJavaScript(origin, html) {
  const urls = new Set();
  const add = (specifier, base) => {
    const url = new URL(specifier.replaceAll("&amp;", "&"), base);
    if (url.origin === origin && url.pathname.endsWith(".js")) urls.add(url.href);
  };
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi)) add(match[1], `${origin}/`);
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    const href = /\bhref="([^"]+)"/i.exec(tag)?.[1];
    if (href && /\brel="modulepreload"/i.test(tag)) add(href, `${origin}/`);
  }
  const staticImports = (code, base) => {
    for (const match of code.matchAll(/(?:^|[\s;}])import\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+)["']/g)) {
      add(match[1], base);
    }
    for (const match of code.matchAll(/(?:^|[\s;}])export\s*[^"'();]*?\bfrom\s*["']([^"']+)["']/g)) add(match[1], base);
  };
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\btype="module"/i.test(match[1]) && !/\bsrc=/i.test(match[1])) staticImports(match[2], `${origin}/`);
  }
  const listed = urls.size;
  const files = [];
  const done = new Set();
  while (done.size < urls.size) {
    for (const url of [...urls]) {
      if (done.has(url)) continue;
      done.add(url);
      const response = await fetch(url);
      const code = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      files.push({ path: new URL(url).pathname, raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
      staticImports(code.toString(), url);
    }
  }
  return { files, listed };
}

/** Light no-JavaScript check in Chromium, plus the scripts Chromium actually loads with JavaScript on. */
async function browserChecks(origin) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto(`${origin}/`);
    const signIn = page.locator('form[method="post" i]:has(input[type="password"])');
    const signInForm = (await signIn.count()) === 1 && new URL(await signIn.evaluate((form) => form.action)).pathname;
    await page.goto(`${origin}/faq`);
    const faqSearch = (await page.locator('form[method="get" i]:has(input[name="q"])').count()) === 1;
    await noScript.close();

    const withScript = await browser.newContext();
    const scripts = new Map();
    const live = await withScript.newPage();
    live.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      try {
        const body = await response.body();
        scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
      } catch {
        // body unavailable (e.g. redirect): ignore
      }
    });
    await live.goto(`${origin}/`, { waitUntil: "networkidle" });
    await withScript.close();
    return { signInForm, faqSearch, scripts };
  } finally {
    await browser.close();
  }
}

async function main() {
  const cpus = os.availableParallelism?.() ?? os.cpus().length;
  console.log(
    `bench/http.mjs: autocannon, ${connections} connections, pipelining 1, ${warmUpSeconds} s warm-up + ` +
      `${seconds} s per measurement, ${rounds} round(s), Node ${process.version}, ${cpus} CPU(s).`,
  );
  console.log(
    "Both servers run as child processes (app: `node server.js` on PGlite in memory; reference: " +
      "bench/reference-server.mjs, plain node:http returning the app's own bytes) and are measured " +
      "alternately, never concurrently, by autocannon in this process (which shares the CPUs).\n",
  );

  const app = await startApp();
  const bodies = [];
  for (const page of pages) {
    const response = await fetch(`${app.origin}${page.path}`, { headers: { "accept-encoding": "identity" } });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`);
    bodies.push({ path: page.path, bytes });
  }
  const reference = await startReference(bodies);

  const results = [];
  for (const [index, page] of pages.entries()) {
    const samples = { app: [], ref: [] };
    await run(`${app.origin}${page.path}`, warmUpSeconds);
    await run(`${reference.origin}${page.path}`, warmUpSeconds);
    for (let round = 0; round < rounds; round++) {
      samples.app.push(await measure(`${app.origin}${page.path}`));
      samples.ref.push(await measure(`${reference.origin}${page.path}`));
    }
    const summary = (list) => ({
      rps: average(list.map((s) => s.rps)),
      p99: average(list.map((s) => s.p99)),
      problems: list.reduce((sum, s) => sum + s.problems, 0),
    });
    const appResult = summary(samples.app);
    const refResult = summary(samples.ref);
    results.push({ ...page, bytes: bodies[index].bytes.length, app: appResult, ref: refResult });
  }

  const header = ["page", "bytes", "app req/s", "app p99 ms", "ref req/s", "ref p99 ms", "ratio", "target", ""];
  const rows = results.map((r) => {
    const ratio = r.app.rps / r.ref.rps;
    r.ratio = ratio;
    return [
      r.path,
      String(r.bytes),
      fixed(r.app.rps),
      fixed(r.app.p99),
      fixed(r.ref.rps),
      fixed(r.ref.p99),
      fixed(ratio, 2),
      `>= ${r.target}`,
      ratio >= r.target ? "PASS" : "MISS",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const r of results) {
    if (r.app.problems || r.ref.problems) {
      console.log(`warning: ${r.path}: non-2xx/errors/timeouts app ${r.app.problems}, reference ${r.ref.problems}`);
    }
  }

  await stopChild(reference.child);

  const home = await (await fetch(`${app.origin}/`)).text();
  const js = await firstVisitJavaScript(app.origin, home);
  const totalGzip = js.files.reduce((sum, file) => sum + file.gzip, 0);
  const totalRaw = js.files.reduce((sum, file) => sum + file.raw, 0);
  console.log(`\nJavaScript on a first visit to Home (each file gzipped with zlib level 9):`);
  for (const file of js.files.sort((a, b) => b.gzip - a.gzip)) {
    console.log(
      `  ${file.path.padEnd(48)} ${fixed(file.raw / 1024, 1).padStart(7)} KB raw ${fixed(file.gzip / 1024, 1).padStart(6)} KB gzip`,
    );
  }
  const followed = js.files.length - js.listed;
  console.log(
    `  total: ${js.files.length} files (${js.listed} referenced by the HTML${followed ? `, ${followed} more by static imports` : ""}), ` +
      `${fixed(totalRaw / 1024, 1)} KB raw, ${fixed(totalGzip / 1024, 1)} KB gzipped`,
  );

  let browser;
  try {
    browser = await browserChecks(app.origin);
  } catch (error) {
    console.log(`warning: the Chromium checks could not run: ${error.message.split("\n")[0]}`);
  }
  if (browser) {
    const seen = [...browser.scripts.values()].reduce((sum, size) => sum + size, 0);
    const missed = [...browser.scripts.keys()].filter((p) => !js.files.some((file) => file.path === p));
    console.log(
      `  cross-check: Chromium loaded ${browser.scripts.size} scripts on Home, ${fixed(seen / 1024, 1)} KB gzipped` +
        (missed.length ? ` (not in the list above: ${missed.join(", ")})` : ""),
    );
  }

  const noJs = Boolean(browser?.signInForm === "/login" && browser?.faqSearch);
  if (noJs) {
    console.log(
      "JavaScript needed for any task: 0 bytes (with JavaScript off: Home has the sign-in form posting to /login, FAQ has a GET search form)",
    );
  } else if (browser) {
    console.log(
      `JavaScript needed for any task: NOT verified (JavaScript off: sign-in form ${browser.signInForm || "missing"}, ` +
        `FAQ search form ${browser.faqSearch ? "present" : "missing"})`,
    );
  }

  await stopChild(app.child);

  console.log("");
  for (const r of results) {
    console.log(
      `${r.ratio >= r.target ? "PASS" : "MISS"} ${r.path} ratio ${fixed(r.ratio, 2)} (target >= ${r.target})`,
    );
  }
  const jsBudgetOk = totalGzip / 1024 <= jsBudgetKb;
  console.log(
    `${jsBudgetOk ? "PASS" : "MISS"} Home first-visit JavaScript ${fixed(totalGzip / 1024, 1)} KB gzipped (target <= ${jsBudgetKb} KB)`,
  );
  console.log(`${noJs ? "PASS" : "MISS"} JavaScript needed for any task: 0 bytes`);
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error.stack ?? error}`);
  cleanUp();
  process.exit(1);
}
cleanUp();
