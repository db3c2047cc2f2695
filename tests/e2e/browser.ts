import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Download, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, onTestFinished } from "vitest";

export const baseURL = () => inject("baseURL");

/**
 * Errors the pages raised since the last check: uncaught exceptions (`pageerror`) and console
 * errors, React's included (a hydration mismatch is reported as "Minified React error #418" through
 * console.error or window.reportError). Every page of every context made from `launchBrowser` is
 * watched; `page-errors-setup.ts` fails the test during which one was raised. A failed request
 * ("Failed to load resource: ... 404", or a script blocked on purpose) is not a page error: tests
 * ask for those answers and check them themselves.
 */
const pageErrors: string[] = [];

/** Answers the page errors raised since the last call, and forgets them. */
export function takePageErrors(): string[] {
  return pageErrors.splice(0);
}

/** Pages being put back in their pool: what they raise while leaving their last page is nobody's. */
const pagesBeingReleased = new WeakSet<Page>();

function watchPage(page: Page): void {
  page.on("pageerror", (error) => {
    if (pagesBeingReleased.has(page)) return;
    pageErrors.push(`${page.url()}: uncaught ${error.name}: ${error.message}`);
  });
  page.on("console", (message) => {
    if (pagesBeingReleased.has(page)) return;
    if (message.type() !== "error" || message.text().startsWith("Failed to load resource")) return;
    pageErrors.push(`${page.url()}: console.error: ${message.text()}`);
  });
}

function watchContext(context: BrowserContext): BrowserContext {
  for (const page of context.pages()) watchPage(page);
  context.on("page", watchPage);
  return context;
}

/**
 * The run's one Chromium (Debian's, started by global-setup.ts), connected to: each connection has
 * its own contexts and closes them when it disconnects. Every page it opens is watched for errors.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.connect(inject("browserEndpoint"));
  // Browser.newPage makes its context through newContext too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => watchContext(await newContext(...args));
  return browser;
}

/**
 * A download's bytes. The browser runs in another process (connected to, not launched), where the
 * file is kept: it is read through Playwright's stream, never by its path.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export type JavaScriptMode = "js" | "no-js";
export const javaScriptModes: JavaScriptMode[] = ["js", "no-js"];

/**
 * How a page runs: with JavaScript, without it, or with JavaScript on but none of the app's scripts
 * loaded ("no-app-scripts": the no-JavaScript state as axe can check it, since axe needs JavaScript).
 */
export type PageKind = JavaScriptMode | "no-app-scripts";

export type PageOptions = {
  width?: number;
  baseURL?: string;
  /** Sent with every request of the page (e.g. x-forwarded-for, to be another client address). */
  extraHTTPHeaders?: Record<string, string>;
  /** Playwright's default timeout for the page's actions and waits (its own default otherwise). */
  timeout?: number;
};

const PLAYWRIGHT_DEFAULT_TIMEOUT = 30_000;

/**
 * Contexts kept for reuse, per browser connection (one per test file) and per kind and address.
 * Making a context and its page starts renderer processes: about 1.4 s a page on a slow machine,
 * against 0.15 s for a fresh start in a kept one (decision 026). A kept context is handed out only
 * after everything a test could have left in it is cleared: cookies, storage, permissions, routes,
 * listeners, headers, extra pages, viewport and timeouts. Its HTTP cache stays, as a returning
 * visitor's would.
 */
type KeptContext = { context: BrowserContext; page: Page; inUse: boolean; kind: PageKind; baseURL: string };
const keptContexts = new WeakMap<Browser, KeptContext[]>();
const closeForGood = new WeakMap<KeptContext, () => Promise<void>>();

async function blockAppScripts(context: BrowserContext): Promise<void> {
  await context.route("**/assets/*.js", (route) => route.abort());
}

async function newKeptContext(browser: Browser, kind: PageKind, address: string): Promise<KeptContext> {
  const context = await browser.newContext({
    baseURL: address,
    javaScriptEnabled: kind !== "no-js",
    viewport: { width: 1200, height: 900 },
  });
  if (kind === "no-app-scripts") await blockAppScripts(context);
  const kept: KeptContext = { context, page: await context.newPage(), inUse: true, kind, baseURL: address };
  closeForGood.set(kept, context.close.bind(context));
  // Closing hands it back: the page leaves for the app's health check (same site, so the renderer
  // stays), which ends its event streams and timers before the next test or the app's stop.
  context.close = async () => {
    if (!kept.inUse) return;
    pagesBeingReleased.add(kept.page);
    try {
      if (kept.page.isClosed()) kept.page = await context.newPage();
      await kept.page.goto(new URL("/healthz", address).href, { timeout: 10_000 });
      kept.inUse = false;
    } catch {
      // A page that cannot leave is not reused.
      await dropKeptContext(browser, kept);
    } finally {
      pagesBeingReleased.delete(kept.page);
    }
  };
  const all = keptContexts.get(browser) ?? [];
  keptContexts.set(browser, all);
  all.push(kept);
  return kept;
}

/** Closes a kept context for real and forgets it (its `close` only hands it back). */
async function dropKeptContext(browser: Browser, kept: KeptContext): Promise<void> {
  const all = keptContexts.get(browser) ?? [];
  const index = all.indexOf(kept);
  if (index >= 0) all.splice(index, 1);
  await closeForGood
    .get(kept)?.()
    .catch(() => {});
}

/** Clears what the last test left in a kept context. */
async function clearKeptContext(kept: KeptContext): Promise<void> {
  const { context, page } = kept;
  for (const other of context.pages()) if (other !== page) await other.close();
  await Promise.all([
    context.clearCookies(),
    context.clearPermissions(),
    context.unrouteAll({ behavior: "ignoreErrors" }),
    page.unrouteAll({ behavior: "ignoreErrors" }),
  ]);
  if (kept.kind === "no-app-scripts") await blockAppScripts(context);
  context.removeAllListeners();
  context.on("page", watchPage);
  page.removeAllListeners();
  watchPage(page);
  // localStorage and sessionStorage of the app's origin (the page is on its health check); a page
  // without JavaScript can have written neither.
  if (kept.kind !== "no-js")
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
}

/**
 * A context with its own cookies and storage, and its page; with "no-js" JavaScript is switched off
 * entirely. Closing the context hands it back for a later test of the same file (see keptContexts).
 */
export async function openPage(
  browser: Browser,
  kind: PageKind,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const address = options.baseURL ?? baseURL();
  const all = keptContexts.get(browser) ?? [];
  let kept = all.find((each) => !each.inUse && each.kind === kind && each.baseURL === address);
  if (kept) {
    kept.inUse = true;
    // One that cannot be cleared (its page crashed, say) is closed for real and replaced.
    await clearKeptContext(kept).catch(async () => {
      if (kept) await dropKeptContext(browser, kept);
      kept = undefined;
    });
  }
  kept ??= await newKeptContext(browser, kind, address);
  const { context, page } = kept;
  await Promise.all([
    page.setViewportSize({ width: options.width ?? 1200, height: 900 }),
    context.setExtraHTTPHeaders(options.extraHTTPHeaders ?? {}),
  ]);
  context.setDefaultTimeout(options.timeout ?? PLAYWRIGHT_DEFAULT_TIMEOUT);
  context.setDefaultNavigationTimeout(options.timeout ?? PLAYWRIGHT_DEFAULT_TIMEOUT);
  return { context, page };
}

/**
 * One Chromium connection for the test file (made before its tests, closed after them) and `open`,
 * which gives each test a context of its own, cleared of what an earlier test left (see openPage), and
 * hands it back when the test ends.
 */
export function browserForFile(
  options: { timeout?: number; setUp?: (context: BrowserContext) => Promise<unknown> } = {},
) {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const current = (): Browser => {
    if (!browser) throw new Error("the browser has not started");
    return browser;
  };
  async function open(mode: JavaScriptMode): Promise<Page> {
    const { context, page } = await openPage(current(), mode, { timeout: options.timeout });
    onTestFinished(() => context.close());
    await options.setUp?.(context);
    return page;
  }
  return { browser: current, open };
}

/**
 * After a page has loaded: if it carries the app's scripts, waits until React has hydrated (the
 * progress indicator's status region renders only then). A page that works without JavaScript ships
 * none (issue 20) and is ready once loaded; the FAQ's live-search module has run by then (deferred).
 */
export async function waitForAppIfShipped(page: Page): Promise<void> {
  if (await page.evaluate(() => "__reactRouterContext" in window)) {
    await page.locator(".progress [role=status]").waitFor({ state: "attached" });
  }
}

/**
 * Waits until React has hydrated, so a click is handled by the app, not by the browser's default:
 * the progress indicator's status region renders only then (no half-second of network silence to
 * wait out).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await page.locator(".progress [role=status]").waitFor({ state: "attached" });
}

/**
 * axe with WCAG 2.2 AA rules. For the no-JavaScript state, axe still needs JavaScript, so the app's
 * own scripts are blocked instead (axe hangs with JavaScript disabled).
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // After a form post the error summary may be in the DOM before the stylesheet is applied; sizes
  // (target-size) and colours (contrast) are only right once the page has loaded.
  await page.waitForLoadState("load");
  // The same rules, run in the page itself (legacy mode: no extra page per run to assemble the
  // frames' results) and reporting only violations in full: a third of the time per page.
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary).toEqual([]);
}

/** A page in the no-JavaScript state for axe: JavaScript on, but none of the app's scripts may load. */
export function openPageWithoutAppScripts(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  return openPage(browser, "no-app-scripts", options);
}

type VnuMessage = { type: string; lastLine?: number; message: string; extract?: string };

/**
 * Validates HTML documents with the W3C Nu validator (the run's one validator service, started by
 * global-setup.ts); answers the errors found, each as "<name>:<line> <message>".
 */
export async function validateHtml(documents: Record<string, string>): Promise<string[]> {
  const validator = inject("htmlValidator");
  if ("error" in validator) throw new Error(validator.error);
  const reports = await Promise.all(
    Object.entries(documents).map(async ([name, html]) => {
      const response = await fetch(`${validator.url}?out=json`, {
        method: "POST",
        headers: { "Content-Type": "text/html; charset=utf-8" },
        body: html,
      });
      if (!response.ok) throw new Error(`the HTML validator answered ${response.status} for ${name}`);
      const report = (await response.json()) as { messages: VnuMessage[] };
      const file = `${name.replace(/[^a-z0-9]+/gi, "_") || "index"}.html`;
      return report.messages
        .filter((message) => message.type === "error" || message.type === "non-document-error")
        .map((message) => `${file}:${message.lastLine ?? "?"} ${message.message}`);
    }),
  );
  return reports.flat();
}
