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
});
