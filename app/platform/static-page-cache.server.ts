import type { IncomingMessage, ServerResponse } from "node:http";
import { constants, crc32, deflateRawSync } from "node:zlib";
import { isHttps } from "./node-http.server";
import type { ProxyTrust } from "./proxy-trust";
import { createNonce, securityHeaders } from "./security-headers";

/** Pages that are the same for every signed-out visitor: rendered once, then served from memory. */
export const STATIC_PAGE_PATHS = ["/", "/about", "/faq", "/privacy-policy", "/terms-and-conditions"] as const;

type RenderPage = (path: string, nonce: string) => Promise<{ status: number; html: string }>;

type CachedPage = {
  /** The page's UTF-8 bytes split at each occurrence of the render-time nonce. */
  parts: Buffer[];
  /** Each part deflated on its own, ready to have the fresh nonce spliced in (see `gzipPieces`). */
  deflatedParts: Buffer[];
  /** The parts' length in bytes, without the nonces. */
  length: number;
  /** The sum of the deflated parts' lengths. */
  deflatedLength: number;
  /** The year the footer shows; the page is rendered again when it changes. */
  year: number;
};

const NONCE_SLOT = "nonce-slot";

/**
 * The response headers with a slot for the nonce, computed once per protocol: the Content-Security-Policy
 * value is the only one that changes per request.
 */
function headerTemplate(https: boolean, stripe: boolean) {
  const headers: Record<string, string> = {
    ...securityHeaders(NONCE_SLOT, https, stripe),
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-cache",
    Vary: "Accept-Encoding, Cookie",
  };
  const [cspBefore = "", cspAfter = ""] = (headers["Content-Security-Policy"] ?? "").split(NONCE_SLOT);
  return { headers, cspBefore, cspAfter };
}

/**
 * gzip without compressing per request: every part of the page is deflated once, each ending on a
 * byte boundary (sync flush) and not referring to the bytes before it; per request the nonce goes
 * between them as a stored (uncompressed) deflate block, inside a gzip header and a trailer with the
 * CRC-32 and length of the whole page.
 */
function deflateParts(parts: Buffer[]): Buffer[] {
  return parts.map((part, index) =>
    deflateRawSync(part, {
      level: 9,
      finishFlush: index < parts.length - 1 ? constants.Z_SYNC_FLUSH : constants.Z_FINISH,
    }),
  );
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/**
 * The pieces of the gzipped page with this nonce, for one `writev` (nothing copied): the parts go
 * deflated, the nonce between them as a stored (uncompressed) deflate block, inside a gzip header and
 * a trailer with the CRC-32 and length of the whole page (the CRC is continued over the parts).
 */
function gzipPieces(page: CachedPage, nonce: Buffer): Buffer[] {
  const storedBlock = Buffer.alloc(5); // BFINAL 0, BTYPE 00, then LEN and its complement
  storedBlock.writeUInt16LE(nonce.length, 1);
  storedBlock.writeUInt16LE(~nonce.length & 0xffff, 3);
  let crc = 0;
  page.parts.forEach((part, index) => {
    if (index > 0) crc = crc32(nonce, crc);
    crc = crc32(part, crc);
  });
  const length = page.length + nonce.length * (page.parts.length - 1);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  const [first, ...rest] = page.deflatedParts;
  const pieces = first ? [GZIP_HEADER, first] : [GZIP_HEADER];
  for (const part of rest) pieces.push(storedBlock, nonce, part);
  pieces.push(trailer);
  return pieces;
}

/** The page's pieces with this nonce between them (not joined: written with one `writev`). */
function plainPieces(parts: Buffer[], nonce: Buffer): Buffer[] {
  const [first, ...rest] = parts;
  const pieces = first ? [first] : [];
  for (const part of rest) pieces.push(nonce, part);
  return pieces;
}

/** Writes the pieces corked, so that the headers and every piece leave in one `writev`. */
function endWithPieces(res: ServerResponse, pieces: Buffer[] | undefined): void {
  if (!pieces) {
    res.end();
    return;
  }
  res.cork();
  const last = pieces.length - 1;
  pieces.forEach((piece, index) => {
    if (index < last) res.write(piece);
  });
  res.end(pieces[last]);
  res.uncork();
}

/**
 * Serves the static pages without the framework in the path. Each response still carries a fresh
 * CSP nonce: the page is rendered once with a placeholder nonce that is replaced per request.
 */
export function createStaticPageCache(
  renderPage: RenderPage,
  sessionCookieName: string,
  options: { stripe?: boolean; trust?: ProxyTrust } = {},
) {
  const trust = options.trust ?? { kind: "none" };
  const headerTemplates = {
    http: headerTemplate(false, Boolean(options.stripe)),
    https: headerTemplate(true, Boolean(options.stripe)),
  };
  const pages = new Map<string, CachedPage>();
  const pending = new Map<string, Promise<CachedPage | undefined>>();
  const paths = new Set<string>(STATIC_PAGE_PATHS);

  function cachedPage(path: string): CachedPage | undefined {
    const cached = pages.get(path);
    return cached && cached.year === new Date().getUTCFullYear() ? cached : undefined;
  }

  async function load(path: string): Promise<CachedPage | undefined> {
    const cached = cachedPage(path);
    if (cached) return cached;
    let loading = pending.get(path);
    if (!loading) {
      loading = (async () => {
        const year = new Date().getUTCFullYear();
        const placeholder = `nonce-placeholder-${createNonce().replace(/[^a-zA-Z0-9]/g, "")}`;
        const { status, html } = await renderPage(path, placeholder);
        if (status !== 200) return undefined;
        const parts = html.split(placeholder).map((part) => Buffer.from(part, "utf8"));
        const deflatedParts = deflateParts(parts);
        const sum = (buffers: Buffer[]) => buffers.reduce((total, buffer) => total + buffer.length, 0);
        const page = { parts, deflatedParts, length: sum(parts), deflatedLength: sum(deflatedParts), year };
        pages.set(path, page);
        return page;
      })().finally(() => pending.delete(path));
      pending.set(path, loading);
    }
    return loading;
  }

  function qualifies(req: IncomingMessage): string | undefined {
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    const url = req.url ?? "";
    if (!paths.has(url)) return undefined; // any query string, trailing slash or other path: not ours
    const cookie = req.headers.cookie;
    if (cookie?.includes(`${sessionCookieName}=`)) return undefined; // signed in: render per user
    return url;
  }

  /**
   * Serves the request at once if it is for a static page already in memory (true); false if it is
   * not for a static page; undefined if the page is not rendered yet (then `tryServe`). No promise on
   * this path: it is most of what a static page costs (issue 20).
   */
  function serveNow(req: IncomingMessage, res: ServerResponse): boolean | undefined {
    const path = qualifies(req);
    if (!path) return false;
    const page = cachedPage(path);
    if (!page) return undefined;
    send(page, req, res);
    return true;
  }

  function send(page: CachedPage, req: IncomingMessage, res: ServerResponse): void {
    const nonce = createNonce();
    const nonceBytes = Buffer.from(nonce, "latin1"); // base64: ASCII
    const template = isHttps(req, trust) ? headerTemplates.https : headerTemplates.http;
    const headers: Record<string, string> = {
      ...template.headers,
      "Content-Security-Policy": template.cspBefore + nonce + template.cspAfter,
    };
    const joins = page.parts.length - 1; // places where the nonce goes
    let pieces: Buffer[];
    if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      pieces = gzipPieces(page, nonceBytes);
      headers["Content-Encoding"] = "gzip";
      // gzip header, the deflated parts, per nonce a stored block's header and the nonce, the trailer
      headers["Content-Length"] = String(10 + page.deflatedLength + joins * (5 + nonceBytes.length) + 8);
    } else {
      pieces = plainPieces(page.parts, nonceBytes);
      headers["Content-Length"] = String(page.length + joins * nonceBytes.length);
    }
    res.writeHead(200, headers);
    endWithPieces(res, req.method === "HEAD" ? undefined : pieces);
  }

  /** Serves the request if it is for a cached static page; answers false to let it pass on. */
  async function tryServe(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const now = serveNow(req, res);
    if (now !== undefined) return now;
    const path = qualifies(req);
    const page = path ? await load(path) : undefined;
    if (!page) return false;
    send(page, req, res);
    return true;
  }

  return { serveNow, tryServe, warm: () => Promise.all(STATIC_PAGE_PATHS.map((p) => load(p))) };
}
