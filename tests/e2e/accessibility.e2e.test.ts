import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  baseURL,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  openPageWithoutAppScripts,
  validateHtml,
  waitForAppIfShipped,
} from "./browser";

// axe (WCAG 2.2 AA) on every public page with JavaScript on and in the no-JavaScript state, and the
// server's HTML checked by the W3C Nu validator.

const pages = ["/", "/about", "/faq", "/privacy-policy", "/terms-and-conditions", "/no-such-page"];
const NONSENSE = "xylophone zebra";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openWithJavaScript(): Promise<Page> {
  const { context, page } = await openPage(browser, "js");
  onTestFinished(() => context.close());
  return page;
}

async function openWithoutAppScripts(): Promise<Page> {
  const { context, page } = await openPageWithoutAppScripts(browser);
  onTestFinished(() => context.close());
  return page;
}

/** Hydrated where the page has the app's scripts (pages that need none ship none: issue 20). */
async function hydrated(page: Page): Promise<void> {
  await waitForAppIfShipped(page);
}

describe("axe, JavaScript on", () => {
  it.each(pages)("%s has no violations", async (path) => {
    const page = await openWithJavaScript();
    await page.goto(path);
    await hydrated(page);
    await expectNoAxeViolations(page);
  });

  it("the FAQ showing 'No results found.' has no violations", async () => {
    const page = await openWithJavaScript();
    await page.goto("/faq");
    await hydrated(page);
    await page.getByLabel("Search FAQs").fill(NONSENSE);
    await page.getByText("No results found.", { exact: true }).waitFor();
    await expectNoAxeViolations(page);
  });
});

describe("axe, no-JavaScript state", () => {
  it.each(pages)("%s has no violations", async (path) => {
    const page = await openWithoutAppScripts();
    await page.goto(path);
    expect(await page.locator(".progress").count()).toBe(0); // the app's scripts really did not run
    await expectNoAxeViolations(page);
  });

  it("the server-filtered FAQ showing 'No results found.' has no violations", async () => {
    const page = await openWithoutAppScripts();
    await page.goto(`/faq?q=${encodeURIComponent(NONSENSE)}`);
    await page.getByText("No results found.", { exact: true }).waitFor();
    await expectNoAxeViolations(page);
  });
});

describe("W3C Nu validator", () => {
  it("finds no errors in the server HTML of the public, not-found and error pages", async () => {
    const documents: Record<string, string> = {};
    const fetchPage = async (name: string, path: string, init?: RequestInit) => {
      const response = await fetch(`${baseURL()}${path}`, init);
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/);
      documents[name] = await response.text();
      return response.status;
    };
    await Promise.all([
      ...pages.map((path) => fetchPage(path, path)),
      fetchPage("faq-filtered", "/faq?q=wcb"),
      fetchPage("faq-no-results", `/faq?q=${encodeURIComponent(NONSENSE)}`),
      // The error boundary's page, here for a method the page does not accept.
      fetchPage("error-page", "/about", { method: "POST" }).then((status) =>
        expect(status).toBeGreaterThanOrEqual(400),
      ),
    ]);
    expect(Object.keys(documents)).toHaveLength(pages.length + 3);
    expect(await validateHtml(documents)).toEqual([]);
  });
});
