import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { auctionAppForFile, liveAuctionWithThreeSellers, mainText } from "./auction-steps";
import { expectNoAxeViolations, type JavaScriptMode, javaScriptModes, waitForAppIfShipped } from "./browser";

// A keyboard-only run (issue 32), no mouse and no clicks: sign in, find the auction, pass the price
// chart with its skip link, place a bid and set a secret minimum, with JavaScript on and off. Every
// action on the page is on the Tab order, in the page's order, and with JavaScript a live update
// neither takes focus nor clears what is being typed.

const { started, open } = auctionAppForFile();

/** What has focus, as a user would name it: its tag and its label, id or text (read at once, no waiting). */
async function focusedName(page: Page): Promise<string> {
  const [name] = await page.locator(":focus").evaluateAll((elements) =>
    elements.map((element) => {
      const label =
        element.getAttribute("aria-label") ??
        element.getAttribute("id") ??
        (element.textContent ?? "").trim().slice(0, 60);
      return `${element.tagName.toLowerCase()}: ${label}`;
    }),
  );
  return name ?? "(nothing)";
}

/** Presses Tab until `target` has focus (at most `most` times); answers the names focused on the way. */
async function tabTo(page: Page, target: Locator, most = 80): Promise<string[]> {
  const passed: string[] = [];
  for (let count = 0; count < most; count += 1) {
    await page.keyboard.press("Tab");
    if ((await target.and(page.locator(":focus")).count()) === 1) return passed;
    passed.push(await focusedName(page));
  }
  throw new Error(`Tab never reached the target; passed:\n${passed.join("\n")}`);
}

describe.each(javaScriptModes)("the auction by keyboard alone with %s", (mode: JavaScriptMode) => {
  it("signs in, bids and sets a minimum without a mouse", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const { alpha, bravo, charlie, auction, bid } = await liveAuctionWithThreeSellers(app, catalogue, `Keys ${mode}`);
    // Alpha has bid, and been outbid: the page has a chart, the bid form and the minimum form.
    await bid(alpha, 4_900_000);
    await bid(bravo, 4_800_000);

    const page = await open(mode);
    await page.goto("/login");
    await tabTo(page, page.getByLabel("Email"));
    await page.keyboard.type(alpha.email);
    await tabTo(page, page.getByLabel("Password"));
    await page.keyboard.type(alpha.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/account$/);
    if (mode === "js") await waitForAppIfShipped(page);
    await tabTo(page, page.getByRole("link", { name: "Auctions", exact: true }));
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/auctions$/);
    await tabTo(page, page.getByRole("link", { name: auction.title }));
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/auctions/${auction.id}$`));
    if (mode === "js") await expect.poll(() => mainText(page)).toContain("Updating live.");

    // The chart is passed in one step: its skip link, then the next stop is the bid.
    const before = await tabTo(page, page.getByRole("link", { name: "Skip the price chart" }));
    expect(before.join("\n")).not.toContain("auction-amount");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await focusedName(page)).toBe("input: auction-amount");

    if (mode === "js") {
      // A live update while typing: focus and the typed digits stay.
      await page.keyboard.type("47");
      await bid(charlie, 4_790_000);
      await expect.poll(() => mainText(page)).toContain("$47,900.00");
      expect(await focusedName(page)).toBe("input: auction-amount");
      expect(await page.getByLabel("Your bid (CAD)").inputValue()).toBe("47");
      await page.keyboard.press("End");
      await page.keyboard.type("500");
    } else {
      await page.keyboard.type("47500");
    }
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".alert--success:focus").count()).toBe(1);
    expect(await mainText(page)).toContain("Your bid has been placed.");

    // Alpha leads now: the minimum is the next form, reached by Tab from the result.
    await tabTo(page, page.getByLabel("Auto-bid: your secret minimum (CAD)"));
    await page.keyboard.type("45000");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".alert--success:focus").count()).toBe(1);
    expect(await mainText(page)).toContain("Your minimum has been saved.");

    // Every action of the page is on the Tab order, in the page's order: bid or minimum, the
    // questions, the chart's table.
    const stops = await tabTo(page, page.getByRole("button", { name: "Send the question" }), 120);
    const order = [
      "Turn announcements",
      "Skip the price chart",
      "The chart's data as a table",
      "auction-minimum",
      "ask-question",
    ];
    const positions = order.map((name) => stops.findIndex((stop) => stop.includes(name)));
    expect(
      positions.every((position) => position >= 0),
      `${order.join(", ")}\n${stops.join("\n")}`,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    if (mode === "js") await expectNoAxeViolations(page);
  });
});
