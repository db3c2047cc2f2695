import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage } from "./browser";

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
});
