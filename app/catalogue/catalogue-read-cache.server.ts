import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { isHttps } from "~/platform/node-http.server";
import type { ProxyTrust } from "~/platform/proxy-trust";
import { securityHeaders } from "~/platform/security-headers";
import type { Database } from "~db/database.server";
import { localCatalogueWrites, readCatalogueRevision } from "./catalogue-revision.server";
import { serviceAreaCheckboxes, serviceCheckboxes } from "./checkboxes.server";

/** Public catalogue reads the server answers from memory, before the request pipeline and React Router. */
const builders: Record<string, (db: Database) => Promise<unknown>> = {
  "/api/service_checkboxes": serviceCheckboxes,
  "/api/service_area_checkboxes": serviceAreaCheckboxes,
};

/** How stale a machine's copy may be after another machine changed the catalogue. */
export const REVISION_CHECK_INTERVAL_MS = 1_000;

export type CachedJson = { body: Buffer; gzipped: Buffer; etag: string };

/**
 * Keeps the serialized JSON of each public catalogue read. Every catalogue write bumps a revision
 * in the database; each machine compares it at most once a second and rebuilds when it moved,
 * so several app machines stay consistent without talking to each other.
 */
export function createCatalogueReadCache(db: Database) {
  let revision = -1;
  let checkedAt = 0;
  let checking: Promise<void> | undefined;
  let seenLocalWrites = localCatalogueWrites();
  const bodies = new Map<string, Promise<CachedJson>>();

  async function refreshRevision() {
    const current = await readCatalogueRevision(db);
    checkedAt = Date.now();
    if (current !== revision) {
      revision = current;
      bodies.clear();
    }
  }

  async function get(path: string): Promise<CachedJson | undefined> {
    const build = builders[path];
    if (!build) return undefined;
    if (seenLocalWrites !== localCatalogueWrites()) {
      seenLocalWrites = localCatalogueWrites();
      checkedAt = 0;
    }
    if (Date.now() - checkedAt > REVISION_CHECK_INTERVAL_MS) {
      checking ??= refreshRevision().finally(() => {
        checking = undefined;
      });
      await checking;
    }
    let body = bodies.get(path);
    if (!body) {
      const builtFor = revision;
      body = build(db).then((value) => {
        const json = Buffer.from(JSON.stringify(value));
        return { body: json, gzipped: gzipSync(json), etag: `"catalogue-${builtFor}"` };
      });
      body.catch(() => bodies.delete(path));
      bodies.set(path, body);
    }
    return body;
  }

  return { paths: new Set(Object.keys(builders)), get };
}

/**
 * Headers of every cached JSON answer, built once: JSON runs no script, so it needs no per-request
 * nonce, only the strictest policy.
 */
const jsonHeaders = (https: boolean): Record<string, string> => ({
  ...securityHeaders("unused", https),
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-cache",
  Vary: "Accept-Encoding",
});
const JSON_HEADERS = { http: jsonHeaders(false), https: jsonHeaders(true) };

/** Answers a public catalogue read from the cache: 200 with the JSON, or 304 when unchanged. */
export async function serveCachedJson(
  cache: ReturnType<typeof createCatalogueReadCache>,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  trust: ProxyTrust,
): Promise<boolean> {
  const cached = await cache.get(path);
  if (!cached) return false;
  const headers: Record<string, string> = {
    ...JSON_HEADERS[isHttps(req, trust) ? "https" : "http"],
    ETag: cached.etag,
  };
  if (req.headers["if-none-match"] === cached.etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? cached.gzipped : cached.body;
  if (gzip) headers["Content-Encoding"] = "gzip";
  headers["Content-Length"] = String(body.byteLength);
  res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : body);
  return true;
}
