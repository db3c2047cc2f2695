// Lighthouse (mobile profile, simulated throttling: its defaults) on every public page and registration
// step of `node server.js`, in Debian's Chromium: the performance score and total blocking time.
// Usage: npm run build && node bench/lighthouse.mjs   (BENCH_LIGHTHOUSE_RUNS, BENCH_PAGES, BENCH_LIGHTHOUSE_DETAIL, CHROMIUM_PATH)
// It reports; it does not fail: exit code 0 unless something crashes.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { fixed, printTable, runBench, startApp, stopChild } from "./bench-support.mjs";
import { PUBLIC_PAGES, registrationSteps } from "./first-visit-pages.mjs";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1) || 1);
// BENCH_PAGES=/signup,/faq limits the run to those paths (registration steps match by their start).
const only = process.env.BENCH_PAGES?.split(",").filter(Boolean);
const tbtTargetMs = 200;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  console.log(
    `bench/lighthouse.mjs: Lighthouse's default (mobile, simulated throttling) performance category, ` +
      `${runs} run(s) per page (median shown), ${chromiumPath}, Node ${process.version}.\n`,
  );
  const app = await startApp();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const results = [];
  try {
    let pages = [...PUBLIC_PAGES, ...(await registrationSteps(app.origin))];
    if (only)
      pages = pages.filter((page) => only.some((path) => page.path === path || page.path.startsWith(`${path}/`)));
    for (const page of pages) {
      const status = (await fetch(`${app.origin}${page.path}`)).status;
      if (status !== 200) {
        // Lighthouse stops on an error status ("unable to reliably load the page").
        console.log(`  ${page.name}: not audited (answers ${status}; Lighthouse audits only a 200)`);
        continue;
      }
      const samples = [];
      for (let run = 0; run < runs; run++) {
        // Lighthouse's trace recording now and then fails on a busy machine (NO_NAVSTART): try again.
        let lhr;
        for (let attempt = 0; attempt < 3 && !lhr; attempt++) {
          const result = await lighthouse(`${app.origin}${page.path}`, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance"],
          });
          if (!result?.lhr.runtimeError) lhr = result?.lhr;
          else console.log(`  ${page.name}: run failed (${result.lhr.runtimeError.code}), trying again`);
        }
        if (!lhr) throw new Error(`${page.path}: Lighthouse failed three times`);
        // BENCH_LIGHTHOUSE_DETAIL=1: what the main thread did, and its long tasks (what blocking time is made of).
        if (process.env.BENCH_LIGHTHOUSE_DETAIL) {
          const work = lhr.audits["mainthread-work-breakdown"]?.details?.items ?? [];
          const tasks = lhr.audits["long-tasks"]?.details?.items ?? [];
          console.log(
            `  ${page.name}: main thread ${work.map((item) => `${item.group} ${Math.round(item.duration)} ms`).join(", ")}; ` +
              `long tasks ${tasks.map((task) => `${Math.round(task.duration)} ms at ${Math.round(task.startTime)} (${task.url})`).join(", ") || "none"}`,
          );
        }
        samples.push({
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          tbt: lhr.audits["total-blocking-time"].numericValue,
          fcp: lhr.audits["first-contentful-paint"].numericValue,
          lcp: lhr.audits["largest-contentful-paint"].numericValue,
          // Anything but the stylesheet holding back the first paint is a finding (issue 20).
          blocking: (lhr.audits["render-blocking-resources"]?.details?.items ?? []).map((item) =>
            new URL(item.url).pathname.replace(/-[\w-]{8}\./, "."),
          ),
        });
      }
      const result = {
        ...page,
        score: median(samples.map((s) => s.score)),
        scores: samples.map((s) => s.score),
        tbt: median(samples.map((s) => s.tbt)),
        fcp: median(samples.map((s) => s.fcp)),
        lcp: median(samples.map((s) => s.lcp)),
        blocking: [...new Set(samples.flatMap((s) => s.blocking))],
      };
      results.push(result);
      console.log(
        `  ${page.name}: score ${result.scores.join(", ")}, TBT ${fixed(result.tbt)} ms, ` +
          `render-blocking: ${result.blocking.join(", ") || "none"}`,
      );
    }
  } finally {
    chrome.kill();
    await stopChild(app.child);
  }

  console.log("");
  printTable(
    ["page", "score", "TBT ms", "FCP ms", "LCP ms", "target", ""],
    results.map((r) => [
      r.name,
      String(r.score),
      fixed(r.tbt),
      fixed(r.fcp),
      fixed(r.lcp),
      `TBT < ${tbtTargetMs}`,
      r.tbt < tbtTargetMs ? "PASS" : "MISS",
    ]),
  );
  console.log("");
  for (const r of results) {
    console.log(
      `${r.tbt < tbtTargetMs ? "PASS" : "MISS"} ${r.name} total blocking time ${fixed(r.tbt)} ms (target < ${tbtTargetMs})`,
    );
  }
}

await runBench(main);
