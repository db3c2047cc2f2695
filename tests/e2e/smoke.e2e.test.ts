import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, validateHtml } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("smoke", () => {
  it("serves the home page", async () => {
    const { context, page } = await openPage(browser, "js");
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.locator("h1").textContent()).resolves.toContain("Welcome");
    await context.close();
  });

  // The browser tests' server is a staging copy (NODE_ENV=production, DEV_OUTBOX=on): it says so on
  // every page, in words inside a labelled region, with JavaScript on and off.
  it.each(["js", "no-js"] as const)("shows the staging banner on every page (%s)", async (mode) => {
    const { context, page } = await openPage(browser, mode);
    for (const path of ["/", "/login", "/dev/outbox"]) {
      expect((await page.goto(path))?.status()).toBe(200);
      const banner = page.getByRole("region", { name: "Staging" });
      await expect(banner.textContent()).resolves.toContain("Staging copy: not the real marketplace.");
    }
    await context.close();
  });

  // The validator is a service started once for the run: a document it finds wrong must be reported
  // (an empty answer would pass every page).
  it("the HTML validator reports a broken document, and none in a valid one", async () => {
    const broken = '<!doctype html><html lang="en"><head><title>x</title></head><body><p><div>bad</p></body></html>';
    const valid = '<!doctype html><html lang="en"><head><title>x</title></head><body><p>good</p></body></html>';
    expect(await validateHtml({ broken, valid })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^broken\.html:1 Unclosed element “div”/)]),
    );
    expect(await validateHtml({ valid })).toEqual([]);
  });
});
