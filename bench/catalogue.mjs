// Catalogue read benchmark: GET /api/service_checkboxes and GET /api/service_area_checkboxes served by
// the production server with the seeded demo catalogue, against a plain node:http server returning the
// same JSON bytes, measured the same way in the same run. Prints requests per second, p99 and ratios.
// Usage: npm run build && node bench/catalogue.mjs   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
// It reports; it does not fail: exit code 0 unless something crashes.
import {
  compare,
  describeRun,
  fixed,
  printTable,
  runBench,
  startApp,
  startReference,
  stopChild,
} from "./bench-support.mjs";

const target = 0.3;
const paths = ["/api/service_checkboxes", "/api/service_area_checkboxes"];

async function main() {
  console.log(describeRun("bench/catalogue.mjs"));
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
  const reference = await startReference(bodies, "application/json; charset=utf-8");

  const measured = await compare(
    app,
    reference,
    bodies.map((body) => body.path),
  );
  const results = bodies.map((body, index) => ({ ...body, ...measured[index] }));
  await stopChild(reference.child);
  await stopChild(app.child);

  printTable(
    ["path", "bytes", "app req/s", "app p99 ms", "ref req/s", "ref p99 ms", "ratio", "target", ""],
    results.map((r) => [
      r.path,
      String(r.bytes.length),
      fixed(r.app.rps),
      fixed(r.app.p99),
      fixed(r.ref.rps),
      fixed(r.ref.p99),
      fixed(r.ratio, 2),
      `>= ${target}`,
      r.ratio >= target ? "PASS" : "MISS",
    ]),
  );
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

await runBench(main);
