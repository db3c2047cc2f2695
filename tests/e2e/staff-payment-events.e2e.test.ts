import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import { stripeEvent } from "~/payments/subscriptions/fixtures/stripe-events";
import { providerEvents, sellerSubscriptions } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import { catalogueForAuctions, createSeller } from "../support/auction-fixtures";
import { startTestApp, type TestApp } from "../support/test-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, expectNoAxeViolations, javaScriptModes, openPageWithoutAppScripts } from "./browser";

// /staff/payment-events in Chromium, JavaScript on and off (issue 19): staff filter the events, read
// a failed one's tries and error, and retry it now; it is applied and the page says so.

const STAFF = { email: "payment-events-staff@example.com", password: "payment-events-staff-password" };

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp("pglite", { SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
  await seedDemoCatalogue(app.services.db);
});
afterAll(async () => {
  await app?.stop();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.baseURL);

/** A seller's subscription and an invoice.paid event for it that failed its 10 tries. */
async function failedEvent(mode: string) {
  const db = app.services.db;
  const catalogue = await catalogueForAuctions(db);
  const name = `Retry Drilling ${mode}`;
  const seller = await createSeller(db, {
    name,
    serviceIds: [catalogue.serviceId],
    serviceAreaIds: [catalogue.serviceAreaId],
  });
  const ids = { subscription: `sub_e2e_${mode}`, customer: `cus_e2e_${mode}`, paymentMethod: `pm_e2e_${mode}` };
  await db.insert(sellerSubscriptions).values({
    organizationId: seller.organizationId,
    provider: "stripe",
    subscriptionId: ids.subscription,
    status: "past_due",
    amountCents: SELLER_FEES_TOTAL,
  });
  const event = stripeEvent("invoice.paid", ids, { created: 1_990_000_000, id: `evt_e2e_${mode.replace("-", "_")}` });
  await db.insert(providerEvents).values({
    id: event.id,
    type: event.type,
    createdAt: new Date(event.created * 1000),
    payload: event,
    state: "failed",
    attempts: 10,
    lastError: "Simulated outage while applying",
    processedAt: new Date(),
  });
  return { id: event.id, name, organizationId: seller.organizationId };
}

/**
 * axe on what a page without JavaScript shows: the same address, signed in with the same cookies, in
 * a context where the app's scripts cannot load (axe itself needs JavaScript).
 */
async function axeWithoutAppScripts(page: Page) {
  const { context, page: copy } = await openPageWithoutAppScripts(browser(), { baseURL: app.baseURL });
  try {
    await context.addCookies(await page.context().cookies());
    await copy.goto(page.url());
    await expectNoAxeViolations(copy);
  } finally {
    await context.close();
  }
}

describe.each(javaScriptModes)("staff payment events with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : axeWithoutAppScripts(page));

  it("lists a failed event with its tries and error, and retries it now", async () => {
    const event = await failedEvent(mode);
    const page = await open(mode);
    await signInAs(page, mode, STAFF);
    await page.goto("/staff");
    await submit(
      page,
      mode,
      page.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "Payment events" }),
      { clientSide: true },
    );
    await page.getByRole("heading", { level: 1, name: "Payment events" }).waitFor();
    await page.getByLabel("State").selectOption("failed");
    await submit(page, mode, page.getByRole("button", { name: "Filter" }), { clientSide: true });
    await page.waitForURL("**/staff/payment-events?state=failed");
    const row = page.getByRole("row").filter({ hasText: event.id });
    await expect.poll(() => row.textContent()).toContain("Failed after 10 tries");
    expect(await row.textContent()).toContain("Simulated outage while applying");
    expect(await row.getByRole("link", { name: event.name }).getAttribute("href")).toMatch(
      /^\/staff\/registrations\/\d+$/,
    );
    await axe(page);

    await submit(page, mode, row.getByRole("button", { name: `Retry now event ${event.id}` }));
    await expect.poll(() => page.locator("main").textContent()).toContain("Event tried again.");
    expect(await page.locator("main").textContent()).toContain(`Event ${event.id}: applied after 11 tries.`);
    await axe(page);
    const [subscription] = await app.services.db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.organizationId, event.organizationId));
    expect(subscription?.status).toBe("active");
    await page.context().close();
  });
});
