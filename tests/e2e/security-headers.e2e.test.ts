import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { baseURL, launchBrowser, openPage, waitForAppIfShipped } from "./browser";

// Security headers of issue 3 on the production server, by plain HTTP, plus one browser check that
// the pages run without a Content-Security-Policy violation.

const pages = ["/", "/about", "/faq", "/privacy-policy", "/terms-and-conditions", "/faq?q=wcb", "/no-such-page"];
/** Pages that work without JavaScript ship none on a first visit (issue 20). */
const withoutScripts = new Set(["/about", "/privacy-policy", "/terms-and-conditions", "/no-such-page"]);

function get(path: string, init?: RequestInit): Promise<Response> {
  return fetch(`${baseURL()}${path}`, { redirect: "manual", ...init });
}

/** The nonce of a response's CSP; fails the test if there is none. */
function nonceOf(response: Response): string {
  const csp = response.headers.get("content-security-policy") ?? "";
  const match = /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(csp);
  expect(match, `a nonce in the CSP: ${csp}`).not.toBeNull();
  return match?.[1] ?? "";
}

/** The opening tags of every <script> in the HTML. */
function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((match) => match[0]);
}

/** One hashed build asset the page loads (from its module preloads or module script). */
function assetPath(html: string): string {
  const match =
    /(?:href|src)="(\/assets\/[^"]+\.js)"/.exec(html) ?? /import\s*\(?\s*"(\/assets\/[^"]+\.js)"/.exec(html);
  expect(match, "an /assets/ script in the HTML").not.toBeNull();
  return match?.[1] ?? "";
}

function expectCommonHeaders(response: Response, what: string): void {
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp, `${what}: CSP`).toMatch(/script-src [^;]*'nonce-[^']+'/);
  expect(csp, `${what}: CSP frame-ancestors`).toMatch(/frame-ancestors 'none'/);
  const scriptSource = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  expect(scriptSource, `${what}: script-src`).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
  expect(response.headers.get("x-content-type-options"), `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(response.headers.get("referrer-policy"), `${what}: Referrer-Policy`).toBeTruthy();
}

describe("security headers", () => {
  it.each(pages)("%s: CSP with a fresh nonce per response that every inline script carries", async (path) => {
    const [first, second] = await Promise.all([get(path), get(path)]);
    for (const response of [first, second]) {
      expectCommonHeaders(response, path);
      expect(response.headers.get("strict-transport-security"), "no HSTS over plain http").toBeNull();
      const nonce = nonceOf(response);
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      const html = await response.text();
      const tags = scriptTags(html);
      if (withoutScripts.has(path)) expect(tags, "a page that needs no JavaScript has no scripts").toEqual([]);
      else expect(tags.length, "the page has scripts").toBeGreaterThan(0);
      for (const tag of tags.filter((tag) => !/\bsrc=/.test(tag))) {
        expect(tag, "inline script carries this response's nonce").toContain(`nonce="${nonce}"`);
      }
      // No other nonce anywhere in the document (for example a cached page's stale one).
      const nonces = new Set([...html.matchAll(/nonce="([^"]*)"/g)].map((match) => match[1]));
      expect([...nonces]).toEqual([nonce]);
    }
    expect(nonceOf(first)).not.toBe(nonceOf(second));
  });

  it.each(["/", "/about", "/faq?q=wcb", "/no-such-page", "/favicon.svg"])(
    "%s: HSTS only when the request came over HTTPS",
    async (path) => {
      const plain = await get(path);
      expect(plain.headers.get("strict-transport-security")).toBeNull();
      const https = await get(path, { headers: { "X-Forwarded-Proto": "https" } });
      expect(https.headers.get("strict-transport-security")).toMatch(/max-age=\d{7,}/);
    },
  );

  it("hashed assets are immutable for a year and carry the security headers", async () => {
    const html = await (await get("/")).text();
    const asset = assetPath(html);
    const response = await get(asset);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    const cacheControl = response.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/max-age=31536000\b/);
    expect(cacheControl).toMatch(/\bimmutable\b/);
    expectCommonHeaders(response, asset);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    const https = await get(asset, { headers: { "X-Forwarded-Proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toMatch(/max-age=\d{7,}/);

    // Unhashed public files must not be cached as immutable.
    const favicon = await get("/favicon.svg");
    expect(favicon.status).toBe(200);
    expectCommonHeaders(favicon, "/favicon.svg");
    expect(favicon.headers.get("cache-control") ?? "").not.toMatch(/immutable/);
  });

  it("pages are not cached as immutable and vary with the session cookie", async () => {
    for (const path of ["/", "/faq"]) {
      const response = await get(path);
      expect(response.headers.get("cache-control") ?? "", path).not.toMatch(/immutable|max-age=[1-9]/);
    }
  });
});

describe("unexpected requests never fail with 5xx", () => {
  const noStackTrace = (body: string) => {
    expect(body).not.toMatch(/\bat \S+ \(?(file:|node:|\/)[^)]*:\d+:\d+\)?/);
    expect(body).not.toMatch(/node_modules|TypeError|ReferenceError|URIError/);
  };

  it.each([
    ["GET", "/%E0%A4%A"],
    ["GET", "/%"],
    ["GET", "/faq?q=%ZZ"],
    ["GET", "/faq?q=%E0%A4%A"],
    ["GET", "/faq?q=a&q=b"],
    ["GET", "/about/extra?q=%ZZ"],
    ["GET", "/..%2F..%2Fetc%2Fpasswd"],
    ["GET", "/assets/no-such-file.js"],
    ["GET", "/assets/"],
    ["POST", "/"],
    ["POST", "/about"],
    ["POST", "/faq"],
    ["POST", "/no-such-page"],
    ["PUT", "/about"],
    ["DELETE", "/faq"],
    ["OPTIONS", "/"],
  ])("%s %s answers below 500, without internals", async (method, path) => {
    const response = await get(path, {
      method,
      ...(method === "POST" || method === "PUT" ? { body: new URLSearchParams({ q: "x" }) } : {}),
    });
    expect(response.status).toBeLessThan(500);
    noStackTrace(await response.text());
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers 4xx to a malformed path and to a POST on a page without a form", async () => {
    for (const [method, path] of [
      ["GET", "/%E0%A4%A"],
      ["POST", "/about"],
      ["POST", "/no-such-page"],
    ] as const) {
      const response = await get(path, { method, body: method === "POST" ? "" : undefined });
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
  });
});

describe("Content-Security-Policy in the browser", () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it("pages run with JavaScript on without CSP violations or errors", async () => {
    browser = await launchBrowser();
    const { context, page } = await openPage(browser, "js");
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy/i.test(message.text())) {
        problems.push(`${page.url()}: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    try {
      // Home last: the pages that need no JavaScript ship none (issue 20), and the app runs from Home.
      for (const path of ["/about", "/faq", "/privacy-policy", "/terms-and-conditions", "/"]) {
        await page.goto(path);
        await waitForAppIfShipped(page); // hydrated where the page has the app's scripts
      }
      // Client-side navigation and the live FAQ filter run under the same policy.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
      await page.getByLabel("Search FAQs").fill("wcb");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
      await page.getByRole("heading", { level: 1, name: "Welcome to Upstream Marketplace" }).waitFor();
      await page.waitForLoadState("networkidle");
      // A 404 logs "Failed to load resource" for its own document, which is expected; nothing else may.
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
