import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrations, sellerRegistrations } from "~db/schema";
import { startSellerFormApp } from "../support/seller-form-app";
import { hasBuild } from "../support/test-app";
import { submit } from "./account-helpers";
import {
  browserForFile,
  expectNoAxeViolations,
  type JavaScriptMode,
  javaScriptModes,
  openPage,
  validateHtml,
} from "./browser";
import { fillRequiredSellerFields, fillTestCard } from "./seller-form-steps";

// Issue 7 in Chromium with the offline test card provider, with JavaScript on and off: the ten
// sections, the error summary, the repeatable blocks (WCB removal confirmed with JavaScript), the
// service rule, a declined card with focus on the card number, and the completion page.

const INCOMPLETE = "Please ensure all required fields are filled in.";
const NO_SERVICE = "Please select at least one service category.";
const COMPLETE =
  "Your registration has been submitted. Once your application has been reviewed you will be notified by email.";

let app: Awaited<ReturnType<typeof startSellerFormApp>>;
beforeAll(async () => {
  app = await startSellerFormApp("pglite");
});
afterAll(async () => {
  await app?.app.stop();
});
const { browser } = browserForFile();

/** A fresh page, in a context of its own, on the in-process app. */
async function open(mode: JavaScriptMode): Promise<Page> {
  const { context, page } = await openPage(browser(), mode, { baseURL: app.app.baseURL });
  context.setDefaultTimeout(15_000);
  return page;
}

const submitButton = (page: Page) => page.getByRole("button", { name: "Submit Registration" });
const summary = (page: Page) => page.locator(".alert--error").first();

async function expectSummary(page: Page, messages: string[]) {
  await summary(page).waitFor();
  for (const message of messages) await expect.poll(() => summary(page).textContent()).toContain(message);
  await expect.poll(() => summary(page).evaluate((element) => element === document.activeElement)).toBe(true);
}

/** Opens the form; with JavaScript, once React has hydrated it (the Stripe-free page has no other sign). */
async function openForm(page: Page, mode: JavaScriptMode, token: string) {
  await page.goto(`/signup/seller-registration/${token}`);
  if (mode === "js") {
    await page.waitForFunction(
      () => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
    );
    await page.locator(".progress [role=status]").waitFor({ state: "attached" });
  }
}

describe.runIf(hasBuild).each(javaScriptModes)("the seller registration form with %s", (mode) => {
  const hydrated = mode === "js";
  const clientSide = { clientSide: hydrated };
  // axe needs JavaScript; the no-JavaScript pages carry the same markup, checked here with it on.
  const axe = (page: Page) => (hydrated ? expectNoAxeViolations(page) : Promise.resolve());

  it("takes a seller through every rule to the completion page", async () => {
    const page = await open(mode);
    const token = await app.sellerToken();
    const email = `seller-${mode}@roughneck.example`;
    await openForm(page, mode, token);

    // The ten sections, in order.
    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings.filter((text) => /^\d+\.0 /.test(text))).toEqual([
      "1.0 General",
      "2.0 Safety Program Information",
      "3.0 Safety / Certifications",
      "4.0 Insurance & WCB",
      "5.0 Primary Industry",
      "6.0 Service Areas",
      "7.0 Service Categories",
      "8.0 Key Personnel",
      "9.0 Feedback",
      "10.0 Payment",
    ]);
    await axe(page);

    // An empty form: the summary takes focus and its links lead to the fields.
    await submit(page, mode, submitButton(page), clientSide);
    await expectSummary(page, [INCOMPLETE, "Please enter the organization name", "Please enter the card number"]);
    await axe(page);
    const link = summary(page).getByRole("link", { name: "Please enter the organization name" });
    expect(await link.getAttribute("href")).toBe("#seller-registration-name");
    if (hydrated) {
      await link.click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    }

    // Blocks come and go, and what was typed stays.
    await page.getByLabel("Organization Name").fill("Roughneck Services Ltd.");
    await submit(page, mode, page.getByRole("button", { name: "+ Add work experience" }).first(), clientSide);
    await expect.poll(() => page.getByRole("group", { name: "Work Experience 2" }).count()).toBe(1);
    expect(await page.getByLabel("Organization Name").inputValue()).toBe("Roughneck Services Ltd.");
    await submit(page, mode, page.getByRole("button", { name: "+ Add Operations Contact" }), clientSide);
    await expect.poll(() => page.getByRole("group", { name: "Operations Contact (optional)" }).count()).toBe(1);

    // WCB: '+ Add WCB'; removing asks first with JavaScript, and removes at once without it.
    await submit(page, mode, page.getByRole("button", { name: "+ Add WCB" }), clientSide);
    await expect.poll(() => page.getByRole("group", { name: "WCB 2" }).count()).toBe(1);
    if (hydrated) {
      const asked: string[] = [];
      page.once("dialog", (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole("button", { name: "Remove WCB 2" }).click();
      expect(asked).toEqual(["Are you sure you want to remove this WCB?"]);
      expect(await page.getByRole("group", { name: "WCB 2" }).count()).toBe(1);
      page.once("dialog", (dialog) => void dialog.accept());
    }
    await submit(page, mode, page.getByRole("button", { name: "Remove WCB 2" }), clientSide);
    await expect.poll(() => page.getByRole("group", { name: "WCB 2" }).count()).toBe(0);

    // Everything but a service: that rule alone.
    await fillRequiredSellerFields(page, { email, hydrated });
    await fillTestCard(page, "4242 4242 4242 4242");
    await submit(page, mode, submitButton(page), clientSide);
    await expectSummary(page, [NO_SERVICE]);
    expect(await summary(page).textContent()).not.toContain(INCOMPLETE);

    // A declined card: the provider's message in the payment area, focus on the card number, nothing written.
    await page.locator('input[name="services"]').first().check();
    await fillTestCard(page, "4000 0000 0000 0002");
    await submit(page, mode, submitButton(page));
    const payment = page.getByRole("region", { name: "10.0 Payment" });
    await expect.poll(() => payment.getByRole("alert").textContent()).toContain("Your card was declined.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("card_number");
    await axe(page);
    const written = await app.app.services.db.select().from(registrations).where(eq(registrations.email, email));
    expect(written).toHaveLength(0);

    // The test card that works: the completion page, the card saved, no number kept.
    await fillTestCard(page, "4242 4242 4242 4242");
    await submit(page, mode, submitButton(page));
    await page.waitForURL("**/signup/seller-registration-complete");
    await expect.poll(() => page.locator("main").textContent()).toContain(COMPLETE);
    expect(await page.locator("main").textContent()).toContain("Thank you");
    await axe(page);
    const [saved] = await app.app.services.db
      .select({ status: sellerRegistrations.paymentStatus, last4: sellerRegistrations.cardLast4 })
      .from(sellerRegistrations)
      .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
      .where(eq(registrations.email, email));
    expect(saved).toEqual({ status: "card_saved", last4: "4242" });
    await page.context().close();
  });
});

describe.runIf(hasBuild)("the seller registration form's HTML", () => {
  it("has no errors in the W3C validator: empty, with every message, after a declined card, and complete", async () => {
    const token = await app.sellerToken();
    const formUrl = `${app.app.baseURL}/signup/seller-registration/${token}`;
    const post = (form: URLSearchParams) =>
      fetch(formUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        redirect: "manual",
      });
    const empty = await (await fetch(formUrl)).text();
    const invalid = await post(new URLSearchParams({ card_number: "" }));
    expect(invalid.status).toBe(400);
    const declined = await post(app.completeForm({ card_number: "4000 0000 0000 0002" }));
    expect(declined.status).toBe(400);
    const complete = await (await fetch(`${app.app.baseURL}/signup/seller-registration-complete`)).text();
    expect(
      await validateHtml({
        "seller-form": empty,
        "seller-form-errors": await invalid.text(),
        "seller-form-declined": await declined.text(),
        "seller-complete": complete,
      }),
    ).toEqual([]);
  });
});
