import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registrations, sellerRegistrations } from "~db/schema";
import { createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, closeAuction, mainText, twoSellers } from "./auction-steps";
import { expectNoAxeViolations, javaScriptModes, validateHtml, waitForAppIfShipped } from "./browser";

// Issue 21 in Chromium, with JavaScript on and off: the buyer copies a closed auction to a new draft
// (a seller no longer eligible is named with why) and checks its dates in the edit form; a seller
// opens a practice auction from /auctions and bids against the simulated competitor, on one price or
// on a rate sheet in lots (a unit price per line on the lot's own page). axe on each screen.

const { started, open } = auctionAppForFile();

describe.each(javaScriptModes)("reusing auctions with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("copies an auction to a new draft, with its eligible sellers", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const { db } = app.services;
    const buyer = await createBuyer(db, `Copy Energy ${mode} Ltd.`);
    const names = [`Still Eligible ${mode} Ltd.`, `Lapsed Cover ${mode} Inc.`];
    const [kept, lapsed] = await twoSellers(app, catalogue, names);
    const source = await createAuctionRow(db, {
      owner: buyer,
      ...catalogue,
      status: "closed",
      startsAt: new Date(Date.now() - 2 * 3_600_000),
      endsAt: new Date(Date.now() - 3_600_000),
      sellers: [kept, lapsed],
    });
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.organizationId, lapsed.organizationId));
    await db
      .update(sellerRegistrations)
      .set({ inCommercialGeneralExpiry: "2020-01-01" })
      .where(eq(sellerRegistrations.registrationId, registration?.id ?? 0));

    const page = await open(mode);
    await signInAs(page, mode, buyer);
    await page.goto(`/auctions/${source.id}`);
    await axe(page);
    await submit(page, mode, page.getByRole("button", { name: "Copy to a new auction" }));
    await expect.poll(() => page.url()).toMatch(/\/auctions\/\d+\?done=copied$/);
    const copyId = Number(/\/auctions\/(\d+)/.exec(page.url())?.[1]);
    expect(copyId).not.toBe(source.id);
    const text = await mainText(page);
    expect(text).toContain(`A copy of auction ${source.id}`);
    expect(text).toContain(`${names[1]}: no longer eligible`);
    expect(text).not.toContain(`${names[0]}:`);
    await axe(page);
    const draftHtml = await page.content();

    // The dates are checked in the edit form: they are filled in, in the future.
    await submit(page, mode, page.getByRole("link", { name: "check the dates and terms" }), { clientSide: true });
    await page.getByLabel("Bidding starts").waitFor();
    expect(await page.getByLabel("Bidding starts").inputValue()).not.toBe("");
    await axe(page);
    await submit(page, mode, page.getByRole("button", { name: "Save the terms" }));
    await expect.poll(() => mainText(page)).toContain("The terms have been saved");
    if (mode === "no-js") expect(await validateHtml({ draft: draftHtml })).toEqual([]);
    await page.context().close();
  });

  it("lets a seller practise against a simulated competitor", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const [seller] = await twoSellers(app, catalogue, [`Practising ${mode} Ltd.`, `Idle ${mode} Ltd.`]);
    const page = await open(mode);
    await signInAs(page, mode, seller);
    await page.goto("/auctions");
    await submit(page, mode, page.getByRole("link", { name: "Try a practice auction" }), { clientSide: true });
    await page.getByRole("button", { name: "Start a practice auction" }).waitFor();
    await axe(page);
    await submit(page, mode, page.getByRole("button", { name: "Start a practice auction" }));
    await expect.poll(() => mainText(page)).toContain("Practice auction — nothing here is real");
    await submit(page, mode, page.getByRole("button", { name: "I accept these terms" }));
    await expect.poll(() => mainText(page)).toContain("$9,900.00");
    await axe(page);
    await page.getByLabel("Your bid (CAD)").fill("9800");
    await submit(page, mode, page.getByRole("button", { name: "Place practice bid" }));
    await expect.poll(() => mainText(page)).toContain("You do not have the lowest bid");
    expect(await mainText(page)).toContain("$9,700.00");
    expect(await mainText(page)).toContain("Practice auction — nothing here is real");
    await axe(page);
    if (mode === "no-js") expect(await validateHtml({ practice: await page.content() })).toEqual([]);
    await page.context().close();
  });

  it("lets a seller practise a rate sheet in lots, lot by lot", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const [seller] = await twoSellers(app, catalogue, [`Rate Sheet ${mode} Ltd.`, `Resting ${mode} Ltd.`]);
    const page = await open(mode);
    await signInAs(page, mode, seller);
    await page.goto("/auctions/practice");
    await waitForAppIfShipped(page);
    await page.getByRole("group", { name: "What to bid on" }).waitFor();
    expect(await page.getByLabel("One price").isChecked()).toBe(true);
    await page.getByLabel("A rate sheet in lots").check();
    await axe(page);
    if (mode === "no-js") expect(await validateHtml({ choice: await page.content() })).toEqual([]);
    await submit(page, mode, page.getByRole("button", { name: "Start a practice auction" }));
    await expect.poll(() => mainText(page)).toContain("Practice auction — nothing here is real");
    const auctionId = Number(/\/auctions\/(\d+)/.exec(page.url())?.[1]);
    await submit(page, mode, page.getByRole("button", { name: "I accept these terms" }));
    await expect.poll(() => mainText(page)).toContain("Lot 2: Rig move");
    await axe(page);

    // Lot 1's page: above competitor C's secret minimum the bid is undercut at once.
    await submit(page, mode, page.getByRole("link", { name: "Bid on Lot 1: Hauling" }), { clientSide: true });
    const line = (n: number, name: string) => page.getByLabel(`Unit price, line ${n}: ${name}`);
    await line(1, "Tandem gravel truck with driver, per hour").waitFor();
    await waitForAppIfShipped(page);
    expect(await mainText(page)).toContain("Practice auction — nothing here is real");
    expect(await mainText(page)).toContain("$39,400.00");
    await axe(page);
    const bid = async (prices: string[], total: string) => {
      await line(1, "Tandem gravel truck with driver, per hour").fill(prices[0] ?? "");
      await line(2, "Loaded haul distance, per km").fill(prices[1] ?? "");
      await line(3, "Disposal of drilling fluids, per m³").fill(prices[2] ?? "");
      if (mode === "js") {
        await submit(page, mode, page.getByRole("button", { name: `Place practice bid of ${total}` }));
      } else {
        await submit(page, mode, page.getByRole("button", { name: "Review the total" }));
        expect(await mainText(page)).toContain(`Place a bid of ${total} in total?`);
        await submit(page, mode, page.getByRole("button", { name: "Yes, place this bid" }));
      }
    };
    await bid(["140.00", "3.10", "40.00"], "$38,240.00");
    await expect.poll(() => mainText(page)).toContain("You do not have the lowest bid.");
    expect(await mainText(page)).toContain("$37,739.70");
    await axe(page);
    // Under it the seller leads.
    await bid(["100.00", "2.50", "30.00"], "$28,500.00");
    await expect.poll(() => mainText(page)).toContain("You have the lowest bid.");
    await axe(page);
    if (mode === "no-js") expect(await validateHtml({ lot: await page.content() })).toEqual([]);

    // Both lots closed: the practice's end offers another.
    await closeAuction(app, auctionId, 3);
    await page.goto(`/auctions/${auctionId}`);
    await expect.poll(() => mainText(page)).toContain("This practice auction has ended");
    await axe(page);
    await submit(page, mode, page.getByRole("button", { name: "Start another practice auction" }));
    await expect.poll(() => page.url()).not.toMatch(new RegExp(`/auctions/${auctionId}(\\D|$)`));
    await expect.poll(() => mainText(page)).toContain("Practice auction — nothing here is real");
    await page.context().close();
  });
});
