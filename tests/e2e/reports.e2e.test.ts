import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createBuyer, createSeller, offering, type Party, TEST_STAFF } from "../support/auction-fixtures";
import { closedAuctionWithBid, createInvoicedBuyer, INVOICING_ENV } from "../support/invoice-fixtures";
import { closedLotsWithBids } from "../support/lot-fixtures";
import { createClient } from "../support/test-app";
import { expectAlertFocused, expectFieldMessage, submit, visit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText } from "./auction-steps";
import { downloadedBytes, expectNoAxeViolations, javaScriptModes, validateHtml } from "./browser";

// Savings reports in Chromium, with JavaScript on and off (issue 21): a buyer goes from /account to
// its report, sees an awarded auction's savings in the table, the totals and the chart, narrows the
// period with the GET form, downloads the CSV and gets a message for a malformed date; staff reach
// the marketplace report from the staff navigation. A buyer whose auction of three lots went lot by
// lot to two sellers follows its link to the auction's savings by lot and line. axe on every page.

const { started, open } = auctionAppForFile(INVOICING_ENV);
let seller: Party;
let secondSeller: Party;
beforeAll(async () => {
  const { app, catalogue } = started();
  seller = await createSeller(app.services.db, offering(catalogue));
  secondSeller = await createSeller(app.services.db, offering(catalogue));
});

describe.each(javaScriptModes)("savings reports with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("shows a buyer its savings, by period, as table, chart and CSV; staff the totals", {
    timeout: 180_000,
  }, async () => {
    const { app, catalogue } = started();
    const { db } = app.services;
    const buyer = await createInvoicedBuyer(db, "Email Invoice", `Report Reader ${mode} Ltd.`);
    // Reserve $10,000.00, one bid of $5,000.00: $5,000.00 saved, 50.00%.
    const { auction, award } = await closedAuctionWithBid(db, buyer, seller, catalogue);
    const client = createClient(app.baseURL);
    await client.request("/login", { form: { email: buyer.email, password: buyer.password } });
    expect((await client.request(`/auctions/${auction.id}/award`, { form: award })).status).toBe(302);

    const page = await open(mode);
    await signInAs(page, mode, buyer);
    await submit(page, mode, page.getByRole("link", { name: "Savings reports" }), { clientSide: true });
    await page.getByRole("heading", { level: 1, name: "Savings reports" }).waitFor();
    await axe(page);
    const row = page
      .getByRole("table", { name: /Awarded auctions/ })
      .getByRole("row")
      .filter({ hasText: auction.title });
    const cells = (await row.textContent()) ?? "";
    for (const figure of ["$10,000.00", "$5,000.00", "50.00%"]) expect(cells).toContain(figure);
    expect(await mainText(page)).toContain("$5,000.00 (50.00%)");
    const chart = page.getByRole("img", { name: "Bar chart of savings per month" });
    await chart.waitFor();
    expect(await chart.locator("desc").textContent()).toMatch(/^\w+ \d{4}: \$5,000\.00 saved$/);
    const documents: Record<string, string> = { "account-reports": await page.content() };

    // A past period: nothing awarded then; the dates stay in the form and in the address.
    await page.getByLabel("From (awarded on or after)").fill("2001-01-01");
    await page.getByLabel("To (awarded on or before)").fill("2001-12-31");
    await submit(page, mode, page.getByRole("button", { name: "Filter" }), { clientSide: true });
    await expect.poll(() => page.url()).toContain("from=2001-01-01&to=2001-12-31");
    await expect.poll(() => mainText(page)).toContain("No awarded auctions in this period.");
    expect(await page.getByLabel("From (awarded on or after)").inputValue()).toBe("2001-01-01");
    await axe(page);

    // The CSV keeps the period asked for: here, all of it.
    await page.getByLabel("From (awarded on or after)").fill("2001-01-01");
    await page.getByLabel("To (awarded on or before)").fill("2099-12-31");
    await submit(page, mode, page.getByRole("button", { name: "Filter" }), { clientSide: true });
    await expect.poll(() => mainText(page)).toContain(auction.title);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download this report (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^savings-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await downloadedBytes(download)).toString("utf8");
    expect(csv).toContain(`${auction.id},${auction.title},reverse,`);
    expect(csv).toContain(",10000.00,5000.00,5000.00,5000.00,50.00,1,1\r\n");

    // A date that is no date (typed into the address): a message at the field and in the summary.
    await visit(page, mode, "/account/reports?from=2001-02-30");
    await expectFieldMessage(
      page,
      page.getByLabel("From (awarded on or after)"),
      "Enter the start of the period as a date like 2026-03-31",
    );
    await expectAlertFocused(page);
    await axe(page);
    documents["account-reports-refused"] = await page.content();
    await page.context().close();

    // Staff: the staff navigation's Reports.
    const staffPage = await open(mode);
    await signInAs(staffPage, mode, TEST_STAFF);
    await visit(staffPage, mode, "/staff");
    await submit(
      staffPage,
      mode,
      staffPage.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "Reports" }),
      { clientSide: true },
    );
    await staffPage.getByRole("heading", { level: 1, name: "Marketplace reports" }).waitFor();
    await staffPage.getByRole("table", { name: "Totals by category" }).waitFor();
    await staffPage.getByRole("table", { name: "Totals by area" }).waitFor();
    expect(await mainText(staffPage)).not.toContain(auction.title);
    await axe(staffPage);
    documents["staff-reports"] = await staffPage.content();
    expect(await validateHtml(documents)).toEqual([]);
  });

  it("shows an auction of several lots lot by lot and line by line", { timeout: 120_000 }, async () => {
    const { app, catalogue } = started();
    const { db } = app.services;
    const buyer = await createBuyer(db, `Lotted Reader ${mode} Ltd.`);
    // Hauling: reserve $2,000.00, awarded $1,375.00 (31.25%); its disposal line $400.00 at the ceiling,
    // $350.00 at the award: $50.00 (12.50%). Cementing: $5,000.00, awarded $4,500.00. Crane: nobody bid.
    const { auction, award } = await closedLotsWithBids(db, buyer, [seller, secondSeller], catalogue);
    const client = createClient(app.baseURL);
    await client.request("/login", { form: { email: buyer.email, password: buyer.password } });
    expect((await client.request(`/auctions/${auction.id}/award`, { form: award })).status).toBe(302);

    const page = await open(mode);
    await signInAs(page, mode, buyer);
    await visit(page, mode, "/account/reports");
    const row = page
      .getByRole("table", { name: /Awarded auctions/ })
      .getByRole("row")
      .filter({ hasText: auction.title });
    const cells = (await row.textContent()) ?? "";
    for (const figure of ["(2 of 3 lots awarded)", "$7,000.00", "$5,875.00", "$1,125.00", "16.07%"]) {
      expect(cells).toContain(figure);
    }
    expect(await mainText(page)).toContain("An auction of several lots is measured over its awarded lots only");
    await axe(page);
    const documents: Record<string, string> = { "account-reports-lots": await page.content() };

    await submit(page, mode, row.getByRole("link", { name: "Savings by lot and line" }), { clientSide: true });
    await page.getByRole("heading", { level: 1, name: `Savings of No. ${auction.id}: ${auction.title}` }).waitFor();
    const hauling = await page
      .getByRole("table", { name: "Awarded lots" })
      .getByRole("row", { name: /Lot 1: Hauling/ })
      .textContent();
    for (const figure of ["$2,000.00", "$1,375.00", "$625.00", "31.25%"]) expect(hauling).toContain(figure);
    const disposal = await page
      .getByRole("table", { name: "Lines with a ceiling" })
      .getByRole("row", { name: /line 3: Disposal/ })
      .textContent();
    for (const figure of ["100 m³", "$400.00", "$350.00", "$50.00", "12.50%"]) expect(disposal).toContain(figure);
    expect(await mainText(page)).not.toContain("Crane");
    await axe(page);
    documents["account-report-auction"] = await page.content();
    await page.context().close();
    expect(await validateHtml(documents)).toEqual([]);
  });
});
