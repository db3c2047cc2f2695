import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { errorAlertText, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, waitForAppIfShipped } from "./browser";

// A bid by phone in Chromium, with JavaScript on and off (issue 21): a seller's connection failed and
// they phone the consultant running the auction, who opens the on-behalf page from the console, is
// told what is missing, then places the bid with the note of who phoned and when. The console marks
// the bid; the seller's own list says it was entered on their behalf. axe on every screen with JS.

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
});
