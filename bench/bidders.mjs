// What the bidding benches share (bids.mjs, cluster.mjs): sellers bidding on one auction as fast as
// they can, and the small helpers around it.
import http from "node:http";
import { performance } from "node:perf_hooks";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const dollars = (cents) => (cents / 100).toFixed(2);

export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** The lowest price a view shows (a seller's view or the buyer's). */
export const lowestOf = (view) => (view.kind === "seller" ? view.lowestCents : (view.lowest?.amountCents ?? null));

/**
 * `count` sellers bidding until `stop()` says so. Amounts keep decreasing: each attempt takes
 * `price.next` and moves it one `decrement` down (the caller may lower it too, from what a stream
 * shows). A bid overtaken by a lower one that reached the lock first is refused (400, or 409 once
 * bidding closed), as it would be for a person; a seller leading already waits. `placeBid(index,
 * amount)` answers `{ status, accepted, latencyMs }`.
 */
export async function bidAsFastAsTheyCan({ count, placeBid, price, decrement, stop }) {
  let leader = -1;
  const results = { accepted: 0, refused: 0, errors: 0, latencies: [], acceptedBids: [] };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      while (!stop()) {
        if (leader === index) {
          await sleep(5); // leading already: a seller never bids against themselves
          continue;
        }
        const amount = price.next;
        price.next -= decrement;
        try {
          const outcome = await placeBid(index, amount);
          results.latencies.push(outcome.latencyMs);
          if (outcome.accepted) {
            results.accepted += 1;
            results.acceptedBids.push({ index, amount });
            leader = index;
          } else if (outcome.status === 400 || outcome.status === 409) {
            results.refused += 1;
          } else {
            results.errors += 1;
            await sleep(10);
          }
        } catch {
          results.errors += 1;
          await sleep(10);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { ...results, elapsed, perSecond: results.accepted / elapsed };
}

/**
 * One request through `agent`, as a browser sends it (gzip accepted: the server compresses its pages
 * for it). Answers the status, the headers, the body and when the whole answer had arrived;
 * `onAnswer(status, headers)` sees every answer and `onConnectionError(error)` every request that got
 * none, for benches that count them.
 */
export function request(agent, origin, path, { method = "GET", headers = {}, body } = {}, counters = {}) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        hostname,
        port,
        path,
        method,
        agent,
        headers: {
          "accept-encoding": "gzip",
          ...headers,
          ...(body ? { "content-length": Buffer.byteLength(body) } : {}),
        },
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          counters.onAnswer?.(response.statusCode, response.headers);
          resolve({
            status: response.statusCode,
            headers: response.headers,
            location: response.headers.location ?? "",
            body: Buffer.concat(chunks),
            at: performance.now(),
          });
        });
        response.on("error", reject);
      },
    );
    outgoing.on("error", (error) => {
      counters.onConnectionError?.(error);
      reject(error);
    });
    outgoing.end(body);
  });
}
