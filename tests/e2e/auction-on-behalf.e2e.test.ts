import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { HAULING_AND_CEMENTING } from "../support/lot-fixtures";
import { errorAlertText, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml, waitForAppIfShipped } from "./browser";

// A bid by phone in Chromium, with JavaScript on and off (issue 21): a seller's connection failed and
// they phone the consultant running the auction, who opens the on-behalf page from the console, is
// told what is missing, then places the bid with the note of who phoned and when. The console marks
// the bid; the seller's own list says it was entered on their behalf. On an auction of lots (issue
// 31) the lot is chosen and a lot of line items takes a unit price per line, its total shown before
// it binds. axe on every screen with JS, the HTML validator on the lot's screens without.

const { started, open } = auctionAppForFile();

/** Now on the consultant's clock (no time zone set: America/Edmonton). */
const nowText = () =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Edmonton",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date());

describe.each(javaScriptModes)("a bid on a seller's behalf with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("is entered by the consultant, marked in the console and in the seller's bids", { timeout: 120_000 }, async () => {
    const { app, catalogue } = started();
    const consultantName = `Phone Auctioneers ${mode} Ltd.`;
    const consultant = await createBuyer(app.services.db, consultantName, 4);
    const sellerNames = [`Offline Hauling ${mode} Ltd.`, `Online Trucking ${mode} Inc.`];
    const [offline, online] = await twoSellers(app, catalogue, sellerNames);
    const auction = await createAuctionRow(app.services.db, {
      owner: consultant,
      ...catalogue,
      sellers: [offline, online],
      reserveCents: 5_000_000,
      decrement: { kind: "amount", value: 50_000 },
    });

    const page = await open(mode);
    await signInAs(page, mode, consultant);
    await page.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(page);
    await submit(page, mode, page.getByRole("link", { name: "Bid on a seller's behalf" }), { clientSide: true });
    await page.getByRole("button", { name: "Enter on the seller's behalf" }).waitFor();
    await waitForAppIfShipped(page);
    await axe(page);

    // Nothing filled in: every problem at its field and in the summary, nothing placed.
    await submit(page, mode, page.getByRole("button", { name: "Enter on the seller's behalf" }), {
      clientSide: true,
    });
    await expect.poll(() => errorAlertText(page)).toContain("Enter the name of the person who phoned");
    expect(await errorAlertText(page)).toContain("Choose the seller who phoned");
    await axe(page);

    await page.getByLabel("Seller who phoned").selectOption({ label: sellerNames[0] as string });
    await page.getByLabel("Place a bid").check();
    await page.getByLabel("Amount in dollars").fill("45,000.00");
    await page.getByLabel("Name of the person who phoned").fill("Pat Dispatcher");
    await page.getByLabel("Time of the call").fill(nowText());
    await page.getByLabel("Other details (optional)").fill("Their office internet is down");
    await submit(page, mode, page.getByRole("button", { name: "Enter on the seller's behalf" }));
    await expect.poll(() => mainText(page)).toContain("The bid was placed on the seller's behalf");
    await axe(page);

    // The console marks the bid with who entered it and the note.
    await page.goto(`/auctions/${auction.id}`);
    await expect.poll(() => mainText(page)).toContain(`Entered on the seller's behalf by`);
    expect(await mainText(page)).toContain("Phoned by Pat Dispatcher");

    // The seller sees it in their own bids; the other seller sees nothing of it but the price.
    const sellerPage = await open(mode);
    await signInAs(sellerPage, mode, offline);
    await sellerPage.goto(`/auctions/${auction.id}/own-bids`);
    await expect.poll(() => mainText(sellerPage)).toContain(`Entered on your behalf by`);
    expect(await mainText(sellerPage)).toContain(consultantName);
    await axe(sellerPage);
    const otherPage = await open(mode);
    await signInAs(otherPage, mode, online);
    await otherPage.goto(`/auctions/${auction.id}`);
    await expect.poll(() => mainText(otherPage)).toContain("$45,000.00");
    expect(await mainText(otherPage)).not.toContain("Pat Dispatcher");
    expect((await otherPage.goto(`/auctions/${auction.id}/on-behalf`))?.status()).toBe(404);
  });
  it("is entered on lot 2 by its unit prices, the total shown before it binds", { timeout: 120_000 }, async () => {
    const { app, catalogue } = started();
    const consultantName = `Lot Phone Auctioneers ${mode} Ltd.`;
    const consultant = await createBuyer(app.services.db, consultantName, 4);
    const sellerNames = [`Lot Offline Hauling ${mode} Ltd.`, `Lot Online Trucking ${mode} Inc.`];
    const [offline, online] = await twoSellers(app, catalogue, sellerNames);
    const [hauling, cementing] = HAULING_AND_CEMENTING;
    if (!hauling || !cementing) throw new Error("no lots");
    const auction = await createAuctionRow(app.services.db, {
      owner: consultant,
      ...catalogue,
      sellers: [offline, online],
      lots: [cementing, hauling],
    });

    const page = await open(mode);
    await signInAs(page, mode, consultant);
    await page.goto(`/auctions/${auction.id}/on-behalf`);
    await waitForAppIfShipped(page);
    await axe(page);
    // The lot, chosen with the page's own small form (a plain GET without JavaScript).
    await page.getByLabel(/^Lot 2: Hauling \(open for bidding/).check();
    await submit(page, mode, page.getByRole("button", { name: "Show this lot" }), { clientSide: true });
    await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").waitFor();
    await waitForAppIfShipped(page);
    await axe(page);
    const lotHtml = mode === "no-js" ? await page.content() : "";

    await page.getByLabel("Seller who phoned").selectOption({ label: sellerNames[0] as string });
    await page.getByLabel("Place a bid").check();
    await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").fill("100.00");
    await page.getByLabel("Unit price, line 2: Mileage, per km").fill("50.00");
    await page.getByLabel("Unit price, line 3: Disposal, per m³").fill("4.50");
    await page.getByLabel("Name of the person who phoned").fill("Pat Dispatcher");
    await page.getByLabel("Time of the call").fill(nowText());
    // Over line 3's ceiling of $4.00: its own message, at the line and in the summary; nothing placed.
    const enterButton = () =>
      page.getByRole("button", { name: mode === "js" ? /^Enter a binding bid of/ : "Enter on the seller's behalf" });
    if (mode === "js") await expect.poll(() => mainText(page)).toContain("Total: $1,575.00");
    await submit(page, mode, enterButton());
    await expect
      .poll(() => errorAlertText(page))
      .toContain("Line 3: the unit price cannot be more than the ceiling of $4.00");
    await axe(page);
    const refusedHtml = mode === "no-js" ? await page.content() : "";
    expect(await page.getByLabel("Name of the person who phoned").inputValue()).toBe("Pat Dispatcher");

    await page.getByLabel("Unit price, line 3: Disposal, per m³").fill("3.00");
    let reviewHtml = "";
    if (mode === "js") {
      // The total as they type; the bid binds in one step.
      await expect.poll(() => mainText(page)).toContain("Total: $1,425.00");
      await submit(page, mode, page.getByRole("button", { name: "Enter a binding bid of $1,425.00" }));
    } else {
      await submit(page, mode, enterButton());
      expect(await mainText(page)).toContain("Place a bid of $1,425.00 in total on Lot 2: Hauling?");
      reviewHtml = await page.content();
      await submit(page, mode, page.getByRole("button", { name: "Yes, place this bid" }));
    }
    await expect.poll(() => mainText(page)).toContain("The bid was placed on the seller's behalf on Lot 2: Hauling");
    await axe(page);

    // The console lists the bid on its lot, marked with who entered it.
    await page.goto(`/auctions/${auction.id}`);
    await expect.poll(() => mainText(page)).toContain("Entered on the seller's behalf by");
    expect(await mainText(page)).toContain("Lot 2: Hauling");
    expect(await mainText(page)).toContain("$1,425.00");
    const sellerPage = await open(mode);
    await signInAs(sellerPage, mode, offline);
    await sellerPage.goto(`/auctions/${auction.id}/own-bids`);
    await expect.poll(() => mainText(sellerPage)).toContain("Entered on your behalf by");
    await axe(sellerPage);
    if (mode === "no-js") {
      expect(await validateHtml({ lot: lotHtml, refused: refusedHtml, review: reviewHtml })).toEqual([]);
    }
    for (const opened of [page, sellerPage]) await opened.context().close();
  });
});
