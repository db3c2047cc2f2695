import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createSeller, offering, type Party, TEST_STAFF } from "../support/auction-fixtures";
import { closedAuctionWithBid, createInvoicedBuyer, INVOICING_ENV } from "../support/invoice-fixtures";
import { pdfText } from "../support/pdf-text";
import { createClient } from "../support/test-app";
import { errorAlertText, expectAlertFocused, expectFieldMessage, submit } from "./account-helpers";
import { signInAs } from "./app-pages";
import { auctionAppForFile, mainText } from "./auction-steps";
import { downloadedBytes, expectNoAxeViolations, javaScriptModes, validateHtml } from "./browser";

// Buyer invoices in Chromium, with JavaScript on and off (issue 19): a buyer finds the invoice of an
// awarded auction from /account and downloads its PDF; staff find it in the list by its state, mark it
// mailed, and issue a credit note after a refusal at the field. axe on every new page.

const { started, open } = auctionAppForFile(INVOICING_ENV);
let seller: Party;
beforeAll(async () => {
  const { app, catalogue } = started();
  seller = await createSeller(app.services.db, offering(catalogue));
});

describe.each(javaScriptModes)("buyer invoices with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("lets a buyer download its invoice, and staff mark it mailed and credit it", { timeout: 180_000 }, async () => {
    const { app, catalogue } = started();
    const { db } = app.services;
    const buyer = await createInvoicedBuyer(db, "Mail Invoice", `Paper Trail ${mode} Ltd.`);
    const { auction, award } = await closedAuctionWithBid(db, buyer, seller, catalogue);
    const client = createClient(app.baseURL);
    await client.request("/login", { form: { email: buyer.email, password: buyer.password } });
    expect((await client.request(`/auctions/${auction.id}/award`, { form: award })).status).toBe(302);

    // The buyer: /account → Invoices → the PDF.
    const buyerPage = await open(mode);
    await signInAs(buyerPage, mode, buyer);
    await submit(buyerPage, mode, buyerPage.getByRole("link", { name: "Invoices", exact: true }), { clientSide: true });
    await buyerPage.getByRole("heading", { level: 1, name: "Invoices" }).waitFor();
    await axe(buyerPage);
    const table = buyerPage.getByRole("table", { name: /Invoices and credit notes, newest first/ });
    const row = table.getByRole("row").filter({ hasText: auction.title });
    const number = /INV-\d{6}/.exec((await row.textContent()) ?? "")?.[0] ?? "";
    expect(number).not.toBe("");
    expect(await row.textContent()).toContain("$262.50");
    expect(await row.textContent()).toContain("To mail (Mail Invoice)");
    const [download] = await Promise.all([
      buyerPage.waitForEvent("download"),
      row.getByRole("link", { name: `Download ${number} (PDF)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const text = await pdfText(await downloadedBytes(download));
    for (const expected of [`Invoice ${number}`, "$250.00", "$12.50", "$262.50", `Paper Trail ${mode} Ltd.`]) {
      expect(text).toContain(expected);
    }
    const documents: Record<string, string> = { "account-invoices": await buyerPage.content() };
    await buyerPage.context().close();

    // Staff: the list filtered to what is to be posted, the invoice, "Mark as mailed".
    const staffPage = await open(mode);
    await signInAs(staffPage, mode, TEST_STAFF);
    await staffPage.goto("/staff");
    await submit(
      staffPage,
      mode,
      staffPage.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "Invoices" }),
      {
        clientSide: true,
      },
    );
    await staffPage.getByRole("heading", { level: 1, name: "Invoices" }).waitFor();
    await staffPage.getByLabel("State").selectOption({ label: "To mail" });
    await staffPage.getByLabel("Billing preference").selectOption("Mail Invoice");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Filter" }), { clientSide: true });
    await expect.poll(() => staffPage.url()).toContain("state=to_mail");
    await staffPage.getByRole("link", { name: number }).waitFor();
    await axe(staffPage);
    documents["staff-invoices"] = await staffPage.content();
    await submit(staffPage, mode, staffPage.getByRole("link", { name: number }), { clientSide: true });
    await staffPage.getByRole("heading", { level: 1, name: `Invoice ${number}` }).waitFor();
    await axe(staffPage);
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Mark as mailed" }));
    await expect.poll(() => mainText(staffPage)).toContain(`${number} is marked mailed.`);
    expect(await mainText(staffPage)).toContain("Mailed, ");
    expect(await staffPage.getByRole("button", { name: "Mark as mailed" }).count()).toBe(0);

    // A credit note: refused when empty, then over what remains (typed values kept), then issued.
    const amount = staffPage.getByLabel("Amount to credit, before GST");
    const reason = staffPage.getByLabel("Reason");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Issue the credit note" }), {
      clientSide: true,
    });
    await errorAlertText(staffPage);
    await expectAlertFocused(staffPage);
    await expectFieldMessage(staffPage, amount, "Please enter the amount to credit, before GST");
    await expectFieldMessage(staffPage, reason, "Please enter the reason for the credit note");
    await axe(staffPage);
    await amount.fill("300.00");
    await reason.fill("Charged for the wrong auction");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Issue the credit note" }));
    const over = `The amount is more than remains to credit on ${number}: at most $250.00 before GST`;
    await expectFieldMessage(staffPage, staffPage.getByLabel("Amount to credit, before GST"), over);
    await expectAlertFocused(staffPage);
    expect(await staffPage.getByLabel("Amount to credit, before GST").inputValue()).toBe("300.00");
    expect(await staffPage.getByLabel("Reason").inputValue()).toBe("Charged for the wrong auction");
    await axe(staffPage);
    documents["staff-invoice-refused"] = await staffPage.content();
    await staffPage.getByLabel("Amount to credit, before GST").fill("250.00");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Issue the credit note" }));
    await expect.poll(() => mainText(staffPage)).toContain("Credit note issued");
    const notes = staffPage.getByRole("table", { name: `Credit notes of ${number}` });
    expect(await notes.textContent()).toContain("$262.50");
    expect(await notes.textContent()).toContain("Charged for the wrong auction");
    expect(await mainText(staffPage)).toContain("Remaining to credit: $0.00 before GST");
    expect(await staffPage.getByRole("button", { name: "Issue the credit note" }).count()).toBe(0);
    await axe(staffPage);
    documents["staff-invoice"] = await staffPage.content();
    // The W3C Nu validator, once per mode, on the three new pages as the browser has them.
    expect(await validateHtml(documents)).toEqual([]);
  });
});
