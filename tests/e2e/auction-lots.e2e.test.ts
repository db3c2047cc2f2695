import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { placeManualBid } from "~/auctions/bidding/bid-queue.server";
import { moveAuctionTimes } from "~/auctions/lots/lots.server";
import { auctionRow, createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { HAULING_AND_CEMENTING } from "../support/lot-fixtures";
import { errorAlertText, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, closeAuction, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml, waitForAppIfShipped } from "./browser";

// Lots of line items in Chromium, with JavaScript on and off (issue 31): the buyer gives a draft a
// second lot by pasting its line items as CSV and spaces the closings; two sellers bid on the lot of
// lines, one from the table of unit prices (with JavaScript the total shows as they type and the bid
// places at once; without it the total is asked about first), the other with a secret minimum. axe
// on every screen with JavaScript, the validator on the new pages without.

const { started, open } = auctionAppForFile();

describe.each(javaScriptModes)("lots and line items with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("are set up by the buyer and bid on line by line by the sellers", { timeout: 120_000 }, async () => {
    const { app, catalogue } = started();
    const db = app.services.db;
    const buyer = await createBuyer(db, `Lotted Program ${mode} Ltd.`);
    const [alphaName, bravoName] = [`Alpha Vac ${mode} Ltd.`, `Bravo Haul ${mode} Inc.`];
    const [alpha, bravo] = await twoSellers(app, catalogue, [alphaName, bravoName]);

    // The buyer: a draft's second lot from pasted CSV, the closings 30 minutes apart.
    const draft = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      status: "draft",
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 90_000_000),
    });
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await buyerPage.goto(`/auctions/${draft.id}/lots/new`);
    await waitForAppIfShipped(buyerPage);
    await axe(buyerPage);
    await buyerPage.getByLabel("Name of the lot").fill("Rig move");
    await buyerPage.getByLabel("Reserve for the lot's total (CAD)").fill("20000.00");
    await buyerPage.getByLabel("A fixed amount").check();
    await buyerPage.getByLabel("Minimum decrement (CAD)").fill("100.00");
    await buyerPage
      .getByLabel("Or paste the line items from a spreadsheet (CSV)")
      .fill("description,unit,quantity\nRig move,lot,1\nCrane,hour,abc");
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save the lot" }));
    await expect.poll(() => errorAlertText(buyerPage)).toContain("Row 3: Please enter a quantity above zero");
    await axe(buyerPage);
    const refusedHtml = mode === "no-js" ? await buyerPage.content() : "";
    await buyerPage
      .getByLabel("Or paste the line items from a spreadsheet (CSV)")
      .fill("description,unit,quantity\nRig move,lot,1\nCrane,hour,16");
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save the lot" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The lot was saved.");
    expect(await mainText(buyerPage)).toContain("Lot 2: Rig move");
    await buyerPage.getByLabel("Minutes between lots' closings").fill("30");
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Save" }));
    await expect.poll(() => mainText(buyerPage)).toContain("The gap between the lots' closings was saved.");
    await axe(buyerPage);
    const lots = (await auctionRow(db, draft.id)).lots;
    expect(lots.map((lot) => lot.title)).toEqual(["", "Rig move"]);
    expect((lots[1]?.scheduledEndsAt.getTime() ?? 0) - (lots[0]?.scheduledEndsAt.getTime() ?? 0)).toBe(1_800_000);

    // The sellers, on an open auction of three lots closing 30 minutes apart: lot 1 of lines.
    const auction = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      lotCloseGapMinutes: 30,
      lots: [
        ...HAULING_AND_CEMENTING,
        { title: "Crane", reserveCents: 100_000, decrementKind: "amount", decrementValue: 1_000 },
      ],
    });
    const alphaPage = await open(mode);
    await signInAs(alphaPage, mode, alpha);
    await alphaPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(alphaPage);
    await axe(alphaPage);
    await submit(alphaPage, mode, alphaPage.getByRole("link", { name: "Bid on Lot 1: Hauling" }), { clientSide: true });
    await alphaPage.getByLabel("Unit price, line 1: Vacuum truck, per hour").waitFor();
    await waitForAppIfShipped(alphaPage);
    await axe(alphaPage);
    const bidHtml = mode === "no-js" ? await alphaPage.content() : "";
    await alphaPage.getByLabel("Unit price, line 1: Vacuum truck, per hour").fill("100.00");
    await alphaPage.getByLabel("Unit price, line 2: Mileage, per km").fill("50.00");
    await alphaPage.getByLabel("Unit price, line 3: Disposal, per m³").fill("3.00");
    if (mode === "js") {
      // The total as they type; the bid binds in one step.
      await expect.poll(() => mainText(alphaPage)).toContain("Total: $1,425.00");
      await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Place binding bid of $1,425.00" }));
    } else {
      await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Review the total" }));
      expect(await mainText(alphaPage)).toContain("Place a bid of $1,425.00 in total?");
      await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Yes, place this bid" }));
    }
    await expect.poll(() => mainText(alphaPage)).toContain("Your bid is placed. It is binding.");
    expect(await mainText(alphaPage)).toContain("You have the lowest bid.");
    await alphaPage.getByLabel("Your secret minimum for the lot's total (CAD)").fill("1000.00");
    await submit(alphaPage, mode, alphaPage.getByRole("button", { name: "Save my minimum" }));
    await expect.poll(() => mainText(alphaPage)).toContain("Your secret minimum for this lot is saved.");
    await axe(alphaPage);

    // Bravo undercuts; Alpha's minimum answers a decrement under with scaled lines.
    const bravoPage = await open(mode);
    await signInAs(bravoPage, mode, bravo);
    await bravoPage.goto(`/auctions/${auction.id}/lots/${auction.lots[0]?.id}/bid`);
    await waitForAppIfShipped(bravoPage);
    await bravoPage.getByLabel("Unit price, line 1: Vacuum truck, per hour").fill("95.00");
    await bravoPage.getByLabel("Unit price, line 2: Mileage, per km").fill("40.00");
    await bravoPage.getByLabel("Unit price, line 3: Disposal, per m³").fill("4.50");
    if (mode === "js") {
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: /^Place binding bid of/ }));
    } else {
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: "Review the total" }));
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: "Yes, place this bid" }));
    }
    // Over the ceiling of $4.00 on line 3: the line's own message, nothing placed.
    await expect
      .poll(() => errorAlertText(bravoPage))
      .toContain("Line 3: the unit price cannot be more than the ceiling of $4.00");
    await axe(bravoPage);
    await bravoPage.getByLabel("Unit price, line 3: Disposal, per m³").fill("2.50");
    if (mode === "js") {
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: "Place binding bid of $1,300.00" }));
    } else {
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: "Review the total" }));
      await submit(bravoPage, mode, bravoPage.getByRole("button", { name: "Yes, place this bid" }));
    }
    await expect.poll(() => mainText(bravoPage)).toContain("Your bid is placed. It is binding.");
    expect(await mainText(bravoPage)).toContain("You do not have the lowest bid.");
    expect(await mainText(bravoPage)).toContain("$1,299.00");
    await axe(bravoPage);

    // The buyer's console lists the lots with their lowest totals.
    await buyerPage.goto(`/auctions/${auction.id}`);
    await expect.poll(() => mainText(buyerPage)).toContain("Lot 2: Cementing");
    expect(await mainText(buyerPage)).toContain("$1,299.00");
    await axe(buyerPage);
    // A lot's own bids: its chart and each seller's best bid line by line.
    await submit(buyerPage, mode, buyerPage.getByRole("link", { name: "Bids on Lot 1: Hauling" }), {
      clientSide: true,
    });
    await expect.poll(() => mainText(buyerPage)).toContain("Each seller's best bid, line by line");
    await axe(buyerPage);
    const lotBidsHtml = mode === "no-js" ? await buyerPage.content() : "";
    // Staggered closings: lot 1 has closed, lots 2 and 3 still take bids.
    await moveAuctionTimes(db, auction.id, { endsAt: new Date(Date.now() - 1_000) });
    await alphaPage.goto(`/auctions/${auction.id}`);
    await waitForAppIfShipped(alphaPage);
    await expect.poll(() => mainText(alphaPage)).toContain("Bid on Lot 2: Cementing");
    expect(await mainText(alphaPage)).not.toContain("Bid on Lot 1: Hauling");
    await axe(alphaPage);
    await alphaPage.goto(`/auctions/${auction.id}/lots/${auction.lots[0]?.id}/bid`);
    expect(await mainText(alphaPage)).toContain("Bidding on this lot has closed.");
    // Bravo takes lots 2 and 3; after the last lot closes the buyer awards each lot to its lowest bid: a split award.
    for (const [lot, amountCents] of [
      [auction.lots[1], 450_000],
      [auction.lots[2], 90_000],
    ] as const) {
      expect(
        await placeManualBid(db, {
          auctionId: auction.id,
          lotId: lot?.id,
          organizationId: bravo.organizationId,
          userId: bravo.userId,
          amountCents,
        }),
      ).toMatchObject({ kind: "accepted" });
    }
    await closeAuction(app, auction.id, 60);
    await buyerPage.goto(`/auctions/${auction.id}/award`);
    await waitForAppIfShipped(buyerPage);
    expect(await mainText(buyerPage)).toContain("Each lot to its lowest bid");
    await axe(buyerPage);
    const awardHtml = mode === "no-js" ? await buyerPage.content() : "";
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Review the award" }));
    await expect.poll(() => mainText(buyerPage)).toContain(`Lot 2: Cementing: ${bravoName} at $4,500.00`);
    expect(await mainText(buyerPage)).toContain(`Lot 1: Hauling: ${alphaName} at $1,299.00`);
    expect(await mainText(buyerPage)).toContain(`Lot 3: Crane: ${bravoName} at $900.00`);
    await submit(buyerPage, mode, buyerPage.getByRole("button", { name: "Yes, award" }));
    await expect.poll(() => mainText(buyerPage)).toContain(`${bravoName} at $4,500.00`);
    await axe(buyerPage);
    await alphaPage.goto(`/auctions/${auction.id}`);
    expect(await mainText(alphaPage)).toContain("You won lots of this auction");
    if (mode === "no-js") {
      expect(
        await validateHtml({
          lotForm: refusedHtml,
          lotBid: bidHtml,
          award: awardHtml,
          lotBids: lotBidsHtml,
          console: await buyerPage.content(),
        }),
      ).toEqual([]);
    }
    // Ranks only: the seller's place on each lot, no lowest total, no minimum form (and no page error).
    const ranked = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      sellers: [alpha, bravo],
      sellerView: "rank",
      lots: HAULING_AND_CEMENTING,
    });
    expect(
      await placeManualBid(db, {
        auctionId: ranked.id,
        lotId: ranked.lots[1]?.id,
        organizationId: bravo.organizationId,
        userId: bravo.userId,
        amountCents: 450_000,
      }),
    ).toMatchObject({ kind: "accepted" });
    await alphaPage.goto(`/auctions/${ranked.id}`);
    await waitForAppIfShipped(alphaPage);
    await expect.poll(() => mainText(alphaPage)).toContain("You have not bid");
    expect(await mainText(alphaPage)).not.toContain("$4,500.00");
    await axe(alphaPage);
    await alphaPage.goto(`/auctions/${ranked.id}/lots/${ranked.lots[1]?.id}/bid`);
    await waitForAppIfShipped(alphaPage);
    await expect.poll(() => mainText(alphaPage)).toContain("takes no secret minimum");
    await axe(alphaPage);
    for (const page of [buyerPage, alphaPage, bravoPage]) await page.context().close();
  });
});
