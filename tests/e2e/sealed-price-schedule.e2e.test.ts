import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { auctionBidRequirements } from "~db/schema";
import { auctionRow, createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { PDF } from "../support/document-samples";
import { HAULING } from "../support/lot-fixtures";
import { errorAlertText, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, closeAuction, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml, waitForAppIfShipped } from "./browser";

// A sealed auction's price schedule in Chromium, with JavaScript on and off (issue 31): the buyer
// gives the sealed auction's one lot its line items (pasted as CSV, no decrement asked); two sellers
// send a unit price per line with their documents (with JavaScript the total shows as they type;
// without it, in "Your sealed bid" once sent), one first over a line's ceiling; after the deadline
// the buyer reads the schedules side by side, line by line. axe on every screen with JavaScript,
// the validator on the new pages without.

const { started, open } = auctionAppForFile();

const pdf = (name: string) => ({ name, mimeType: "application/pdf", buffer: PDF });

describe.each(javaScriptModes)("a sealed auction's price schedule with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("is set up by the buyer, priced line by line by the sellers and compared after the deadline", {
    timeout: 120_000,
  }, async () => {
    const { app, catalogue } = started();
    const db = app.services.db;
    const buyer = await createBuyer(db, `Sealed Schedule ${mode} Ltd.`);
    const [alphaName, bravoName] = [`Alpha Sched ${mode} Ltd.`, `Bravo Sched ${mode} Inc.`];
    const [alpha, bravo] = await twoSellers(app, catalogue, [alphaName, bravoName]);

    // The buyer: a sealed draft's one lot takes line items; no decrement, no second lot.
    const draft = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      status: "draft",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 90_000_000),
    });
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto(`/auctions/${draft.id}/lots`);
    await waitForAppIfShipped(buyerPage);
    expect(await mainText(buyerPage)).toContain("A sealed-bid auction has one lot");
    await axe(buyerPage);
    const lotsHtml = mode === "no-js" ? await buyerPage.content() : "";
    await submit(buyerPage, mode, buyerPage.getByRole("link", { name: "Edit Lot 1" }), { clientSide: true });
    await buyerPage.getByLabel("Name of the lot").waitFor();
    await waitForAppIfShipped(buyerPage);
    expect(await buyerPage.getByLabel("Minimum decrement (CAD)").count()).toBe(0);
    await axe(buyerPage);
    const lotHtml = mode === "no-js" ? await buyerPage.content() : "";
    await buyerPage.getByLabel("Name of the lot").fill("Hauling");
    await buyerPage.getByLabel("Reserve for the lot's total (CAD)").fill("2000.00");
    await buyerPage
      .getByLabel("Or paste the line items from a spreadsheet (CSV)")
      .fill(
        "description,unit,quantity,ceiling_unit_price\nVacuum truck,hour,10,\nMileage,km,2.5,\nDisposal,m³,100,4.00",
      );
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save the lot" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The lot was saved.");
    await axe(buyerPage);
    expect((await auctionRow(db, draft.id)).lots[0]?.lineCount).toBe(3);

    // An open sealed auction of that schedule, with one required document.
    const auction = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      kind: "sealed",
      reserveCents: 200_000,
      softClose: { window: 0, extension: 0, cap: 0 },
      sellers: [alpha, bravo],
      lots: [{ title: "", reserveCents: 200_000, decrementKind: "percent", decrementValue: 100, lines: HAULING }],
    });
    await db.insert(auctionBidRequirements).values({ auctionId: auction.id, name: "Technical proposal", sortOrder: 0 });

    const sellerPages: Page[] = [];
    let formHtml = "";
    let refusedHtml = "";
    for (const [seller, prices, total] of [
      [alpha, ["100.00", "50.00", "3.00"], "$1,425.00"],
      [bravo, ["90.00", "50.00", "3.50"], "$1,375.00"],
    ] as const) {
      const page = await open(mode);
      sellerPages.push(page);
      await signInAs(page, mode, seller);
      await page.goto(`/auctions/${auction.id}`);
      await waitForAppIfShipped(page);
      await submit(page, mode, page.getByRole("link", { name: /Enter your price schedule/ }), { clientSide: true });
      await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").waitFor();
      await waitForAppIfShipped(page);
      await axe(page);
      if (mode === "no-js" && !formHtml) formHtml = await page.content();
      await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").fill(prices[0]);
      await page.getByLabel("Unit price, line 2: Mileage, per km").fill(prices[1]);
      if (seller === bravo) {
        // Over the ceiling of $4.00: the line's own message, the prices kept, nothing sent.
        await page.getByLabel("Unit price, line 3: Disposal, per m³").fill("4.50");
        await page.getByLabel("Technical proposal").setInputFiles(pdf("bravo-proposal.pdf"));
        await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
        await expect
          .poll(() => errorAlertText(page))
          .toContain("Line 3: the unit price cannot be more than the ceiling of $4.00");
        expect(await page.getByLabel("Unit price, line 1: Vacuum truck, per hour").inputValue()).toBe(prices[0]);
        await axe(page);
        if (mode === "no-js") refusedHtml = await page.content();
      }
      await page.getByLabel("Unit price, line 3: Disposal, per m³").fill(prices[2]);
      if (mode === "js") await expect.poll(() => mainText(page)).toContain(`Total: ${total}`);
      await page.getByLabel("Technical proposal").setInputFiles(pdf("proposal.pdf"));
      await submit(page, mode, page.getByRole("button", { name: "Send my sealed bid" }));
      await expect.poll(() => mainText(page)).toContain("Your sealed bid has been received");
      expect(await mainText(page)).toContain(total);
      await axe(page);
    }

    // Before the deadline the buyer reads no price; after it, the schedules side by side.
    await buyerPage.goto(`/auctions/${auction.id}`);
    expect(await mainText(buyerPage)).not.toContain("$1,375.00");
    await closeAuction(app, auction.id);
    await buyerPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(buyerPage);
    const text = await mainText(buyerPage);
    expect(text).toContain("The price schedules side by side, line by line, lowest total first");
    expect(text).toContain("$900.00");
    expect(text.indexOf(bravoName)).toBeLessThan(text.indexOf(alphaName));
    await axe(buyerPage);
    const schedulesHtml = mode === "no-js" ? await buyerPage.content() : "";
    // The award page shows them above the choice.
    await buyerPage.goto(`/auctions/${auction.id}/award`);
    await waitForAppIfShipped(buyerPage);
    expect(await mainText(buyerPage)).toContain("The price schedules side by side, line by line, lowest total first");
    await axe(buyerPage);
    if (mode === "no-js") {
      expect(
        await validateHtml({
          sealedLots: lotsHtml,
          sealedLot: lotHtml,
          sealedBid: formHtml,
          sealedRefused: refusedHtml,
          schedules: schedulesHtml,
          award: await buyerPage.content(),
        }),
      ).toEqual([]);
    }
    for (const page of [buyerPage, ...sellerPages]) await page.context().close();
  });
});
