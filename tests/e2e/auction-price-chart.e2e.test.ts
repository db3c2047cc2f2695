import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { placeManualBid } from "~/auctions/bidding/bid-queue.server";
import { createAuctionRow, createBuyer, type Party } from "../support/auction-fixtures";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml } from "./browser";

// The price chart (issue 21) in Chromium, with JavaScript on and off: the buyer's console draws the
// lowest price and every bid by seller (legend, summary, the data as a table), a seller's page the
// lowest price and their own bids only; with JavaScript a new bid redraws the chart live. axe on each.

const { started, open } = auctionAppForFile();

/** The bids drawn: each series' markers are one path, which says how many it holds. */
async function markerCount(chart: Locator): Promise<number> {
  const counts = await chart
    .locator("path.price-chart-markers")
    .evaluateAll((paths) => paths.map((path) => Number(path.getAttribute("data-markers"))));
  return counts.reduce((sum, count) => sum + count, 0);
}

describe.each(javaScriptModes)("the price chart with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("shows the buyer every bid and a seller their own, as SVG with a table", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const db = app.services.db;
    const buyer = await createBuyer(db, `Chart Oil ${mode} Ltd.`);
    const sellerNames = [`Chart Alpha ${mode} Ltd.`, `Chart Bravo ${mode} Inc.`];
    const [alpha, bravo] = await twoSellers(app, catalogue, sellerNames);
    const auction = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      reserveCents: 5_000_000,
      decrement: { kind: "amount", value: 10_000 },
    });
    const bid = async (seller: Party, amountCents: number) => {
      const outcome = await placeManualBid(db, {
        auctionId: auction.id,
        organizationId: seller.organizationId,
        userId: seller.userId,
        amountCents,
      });
      expect(outcome.kind).toBe("accepted");
    };
    await bid(alpha, 4_900_000);
    await bid(bravo, 4_800_000);

    // The buyer's console.
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto(`/auctions/${auction.id}`);
    const chart = buyerPage.locator("svg[role=img]");
    await chart.waitFor();
    const summaryId = await chart.getAttribute("aria-describedby");
    const titleId = await chart.getAttribute("aria-labelledby");
    expect(await buyerPage.locator(`[id="${titleId}"]`).textContent()).toBe("Lowest price and every bid over time");
    const summary = buyerPage.locator(`[id="${summaryId}"]`);
    expect(await summary.textContent()).toMatch(
      /^Lowest price fell from \$49,000\.00 to \$48,000\.00 over 2 bids (at .+|between .+ and .+); end never extended\.$/,
    );
    // One marker per bid (each seller's in one path), a step line, a legend naming each seller's alias and shape.
    expect(await markerCount(chart)).toBe(2);
    const legend = await buyerPage.getByRole("list", { name: "Legend" }).textContent();
    expect(legend).toContain(`Seller A (${sellerNames[0]}): circle`);
    expect(legend).toContain(`Seller B (${sellerNames[1]}): square`);
    // The same data as a table, in a disclosure that works without JavaScript.
    await buyerPage.getByText("The chart's data as a table").click();
    const table = buyerPage.getByRole("table", { name: /Lowest price over time/ });
    await table.waitFor();
    expect(await table.textContent()).toContain("$48,000.00");
    await axe(buyerPage);

    if (mode === "js") {
      // Live: a new bid redraws the chart from the event stream, without reloading.
      await expect.poll(() => mainText(buyerPage)).toContain("Updating live.");
      await bid(alpha, 4_700_000);
      await expect.poll(() => summary.textContent()).toContain("to $47,000.00 over 3 bids");
      await expect.poll(() => markerCount(chart)).toBe(3);
      await axe(buyerPage);
    } else {
      await bid(alpha, 4_700_000);
    }

    // A seller: the lowest price and their own bids only.
    const bravoPage = await open(mode);
    await signInAs(bravoPage, mode, bravo);
    await bravoPage.goto(`/auctions/${auction.id}`);
    const sellerChart = bravoPage.locator("svg[role=img]");
    await sellerChart.waitFor();
    expect(await markerCount(sellerChart)).toBe(1);
    const sellerSummary = bravoPage.locator(`[id="${await sellerChart.getAttribute("aria-describedby")}"]`);
    expect(await sellerSummary.textContent()).toMatch(
      /^Lowest price fell from \$49,000\.00 to \$47,000\.00 (at .+|between .+ and .+); you placed 1 bid; end never extended\.$/,
    );
    const sellerHtml = await bravoPage.content();
    for (const hidden of ["Seller A", sellerNames[0] as string]) {
      expect(sellerHtml).not.toContain(hidden);
    }
    expect(await bravoPage.getByRole("list", { name: "Legend" }).textContent()).toContain("Your bids: circle");
    await axe(bravoPage);
    if (mode === "no-js") {
      // The SVG inside the page is valid HTML too.
      expect(await validateHtml({ console: await buyerPage.content(), seller: sellerHtml })).toEqual([]);
    }
  });
});
