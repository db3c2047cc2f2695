import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { outboxMessages, users } from "~db/schema";
import { catalogueForAuctions, createAuctionRow, createBuyer } from "../support/auction-fixtures";
import { startSellerFormApp } from "../support/seller-form-app";
import { createClient } from "../support/test-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, expectNoAxeViolations, javaScriptModes, openPageWithoutAppScripts } from "./browser";
import { approvedSeller, fillTestCard } from "./seller-form-steps";

// Issue 19 in Chromium, with JavaScript on and off, on the test card provider: staff move an approved
// seller's subscription from its trial to a failed renewal (past due: the seller still bids, and is
// told to update the card), then past the grace period (the bid is refused with the plain message),
// and the seller recovers by replacing the card, which pays the open invoice.

const STAFF = { email: "standing-staff@example.com", password: "standing-staff-password" };
const SELLER_PASSWORD = "standing-seller-password";

let app: Awaited<ReturnType<typeof startSellerFormApp>>;
let staffClient: ReturnType<typeof createClient>;
beforeAll(async () => {
  app = await startSellerFormApp("pglite", { SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
  staffClient = createClient(app.app.baseURL);
  await staffClient.request("/login", { form: STAFF });
});
afterAll(async () => {
  await app?.app.stop();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.app.baseURL);

/** A seller registered with the Visa test card and approved (its trial running), invited to an open auction. */
async function approvedSellerInAnAuction(label: string) {
  const { email, registrationId } = await approvedSeller(app, staffClient, {
    office: `standing-office-${label}@seller.example`,
    email: `standing-admin-${label}@seller.example`,
    password: SELLER_PASSWORD,
    form: { name: `Standing Seller ${label} Ltd.` },
  });
  const { db } = app.app.services;
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const seller = { organizationId: user?.organizationId ?? 0, userId: user?.id ?? 0, email, password: SELLER_PASSWORD };
  const buyer = await createBuyer(db);
  const auction = await createAuctionRow(db, {
    owner: buyer,
    ...(await catalogueForAuctions(db)),
    reserveCents: 5_000_000,
    decrement: { kind: "amount", value: 10_000 },
    sellers: [seller],
  });
  return { email, registrationId, auctionId: auction.id };
}

describe.each(javaScriptModes)("a seller's standing with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());
  const mainText = async (page: Page) => (await page.locator("main").textContent()) ?? "";

  it("goes from trial to past due to blocked, and back to active when the card is replaced", async () => {
    const { email, registrationId, auctionId } = await approvedSellerInAnAuction(mode);
    const staff = await open(mode);
    await signInAs(staff, mode, STAFF);
    await staff.goto(`/staff/registrations/${registrationId}`);
    expect(await mainText(staff)).toContain("Free trial");
    await axe(staff);

    // The trial ends soon: the reminder e-mail.
    await submit(staff, mode, staff.getByRole("button", { name: "Trial ends soon" }));
    await expect.poll(() => mainText(staff)).toContain("The trial-ending reminder was sent.");
    const mail = await app.app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, email));
    expect(mail.map((message) => message.subject)).toContainEqual(expect.stringMatching(/^Your free trial ends on /));

    // The renewal fails: past due, the grace period runs; the history says so.
    await submit(staff, mode, staff.getByRole("button", { name: "Renewal fails" }));
    await expect.poll(() => mainText(staff)).toContain("The renewal failed: the seller is past due");
    expect(await mainText(staff)).toContain("Renewal payment failed");
    await axe(staff);

    const seller = await open(mode);
    await signInAs(seller, mode, { email, password: SELLER_PASSWORD });
    // Within the grace period: the payment failed, bidding goes on until a date, the card page is a link.
    await expect.poll(() => mainText(seller)).toContain("You can still bid and accept invitations until");
    expect(await mainText(seller)).not.toContain("Payment overdue");
    const graceLink = seller.locator("main .alert").getByRole("link", { name: "/account/card", exact: true });
    expect(await graceLink.getAttribute("href")).toBe("/account/card");
    await axe(seller);
    // Within the grace period the seller still bids.
    await seller.goto(`/auctions/${auctionId}`);
    await seller.getByLabel("Your bid (CAD)").fill("40000");
    await submit(seller, mode, seller.getByRole("button", { name: "Place binding bid" }));
    await expect.poll(() => new URL(seller.url()).search).toContain("done=placed");

    // Stripe's retries are over: the grace period ends, bidding is blocked.
    await submit(staff, mode, staff.getByRole("button", { name: "Retries exhausted (grace period ends)" }));
    await expect.poll(() => mainText(staff)).toContain("Past due: bidding blocked");
    await axe(staff);

    await seller.getByLabel("Auto-bid: your secret minimum (CAD)").fill("30000");
    await submit(seller, mode, seller.getByRole("button", { name: "Save my minimum" }));
    await expect.poll(() => mainText(seller)).toContain(blockedMessage("overdue", "bid"));
    // The refusal names the card page as a link, not as text to type.
    const cardLinks = seller.locator("main").getByRole("link", { name: "/account/card", exact: true });
    expect(await cardLinks.first().getAttribute("href")).toBe("/account/card");
    await axe(seller);
    await seller.goto("/account");
    expect(await mainText(seller)).toContain(blockedMessage("overdue", "bid"));
    await axe(seller);

    // The seller replaces the card: the open invoice is paid with it, and the seller is active again.
    await submit(seller, mode, seller.getByRole("link", { name: "Replace the card" }), { clientSide: true });
    await seller.getByRole("heading", { level: 1, name: "Replace the card" }).waitFor();
    await fillTestCard(seller, "5555 5555 5555 4444");
    await submit(seller, mode, seller.getByRole("button", { name: "Replace the card" }));
    await expect.poll(() => mainText(seller)).toContain("Your card has been replaced.");
    const account = await mainText(seller);
    expect(account).toContain("Active");
    expect(account).not.toContain("Payment overdue");
    await seller.goto(`/auctions/${auctionId}`);
    await seller.getByLabel("Auto-bid: your secret minimum (CAD)").fill("30000");
    await submit(seller, mode, seller.getByRole("button", { name: "Save my minimum" }));
    await expect.poll(() => new URL(seller.url()).search).toContain("done=minimum");

    await staff.reload();
    const staffView = await mainText(staff);
    expect(staffView).toContain("Invoice paid");
    await axe(staff);
    await staff.context().close();
    await seller.context().close();
  });
});

describe("the standing pages without the app's scripts", () => {
  it("have no accessibility violations: staff registration page, account and auction page of a blocked seller", async () => {
    const { email, registrationId, auctionId } = await approvedSellerInAnAuction("axe");
    for (const step of ["renewal-fails", "retries-exhausted"]) {
      const moved = await staffClient.request(`/staff/registrations/${registrationId}`, {
        form: { intent: "subscription-test", step },
      });
      expect(moved.status).toBe(302);
    }
    // JavaScript stays on for axe; none of the app's scripts load (axe hangs with JavaScript off).
    const { context, page: staff } = await openPageWithoutAppScripts(browser(), { baseURL: app.app.baseURL });
    context.setDefaultTimeout(15_000);
    try {
      await signInAs(staff, "no-js", STAFF);
      await staff.goto(`/staff/registrations/${registrationId}`);
      expect(await staff.locator("main").textContent()).toContain("Past due: bidding blocked");
      await expectNoAxeViolations(staff);
      await staff.goto("/staff/registrations");
      await expectNoAxeViolations(staff);
      await staff.goto("/logout");
      await context.clearCookies();

      const seller = await context.newPage();
      await signInAs(seller, "no-js", { email, password: SELLER_PASSWORD });
      await seller.goto("/account");
      expect(await seller.locator("main").textContent()).toContain(blockedMessage("overdue", "bid"));
      await expectNoAxeViolations(seller);
      await seller.goto(`/auctions/${auctionId}`);
      expect(await seller.locator("main").textContent()).toContain("Bidding blocked");
      await expectNoAxeViolations(seller);
    } finally {
      await context.close();
    }
  });
});
