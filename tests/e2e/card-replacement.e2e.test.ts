import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSellerFormApp } from "../support/seller-form-app";
import { NEXT_YEAR } from "../support/seller-registration-body";
import { createClient } from "../support/test-app";
import { submit } from "./account-helpers";
import {
  browserForFile,
  expectNoAxeViolations,
  javaScriptModes,
  openPage,
  openPageWithoutAppScripts,
  validateHtml,
} from "./browser";
import { approvedSeller, fillTestCard } from "./seller-form-steps";

// Issue 8 in Chromium, with JavaScript on and off: an approved seller's administrator opens
// "Replace the card" from the account page, has a declined card refused at the card fields (focus on
// the card number), then replaces the card and sees its new last four on the account page.

const STAFF = { email: "card-staff@example.com", password: "card-staff-password" };
const SELLER_PASSWORD = "card-seller-password";

let app: Awaited<ReturnType<typeof startSellerFormApp>>;
let staff: ReturnType<typeof createClient>;
beforeAll(async () => {
  app = await startSellerFormApp("pglite", { SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
  staff = createClient(app.app.baseURL);
  await staff.request("/login", { form: STAFF });
});
afterAll(async () => {
  await app?.app.stop();
});
const { browser } = browserForFile();

/** A seller registered with the Visa test card, approved, its administrator's password set. */
async function cardSeller(label: string) {
  const seller = await approvedSeller(app, staff, {
    office: `card-office-${label}@seller.example`,
    email: `card-admin-${label}@seller.example`,
    password: SELLER_PASSWORD,
    form: { name: `Card Seller ${label} Ltd.` },
  });
  return seller.email;
}

describe.each(javaScriptModes)("replacing the card with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("refuses a declined card at the card number, then replaces the card and shows the new last four", async () => {
    const email = await cardSeller(mode);
    const { context, page } = await openPage(browser(), mode, { baseURL: app.app.baseURL });
    context.setDefaultTimeout(15_000);
    try {
      await page.goto("/login");
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(SELLER_PASSWORD);
      await submit(page, mode, page.getByRole("button", { name: "Sign in" }));
      await expect.poll(() => page.locator("main").textContent()).toContain("Visa ending 4242");

      await submit(page, mode, page.getByRole("link", { name: "Replace the card" }), { clientSide: true });
      await page.getByRole("heading", { level: 1, name: "Replace the card" }).waitFor();
      expect(await page.locator("main").textContent()).toContain("Visa ending 4242");
      await axe(page);

      // A declined card: the provider's message at the card fields, focus on the card number.
      await fillTestCard(page, "4000 0000 0000 0002");
      await submit(page, mode, page.getByRole("button", { name: "Replace the card" }));
      const alert = page.locator("#card-error");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Your card was declined.");
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("card_number");
      expect(await page.getByLabel("Card Number").getAttribute("aria-describedby")).toContain("card-error");
      if (mode === "no-js") expect(await page.getByLabel("Card Number").inputValue()).toBe("");
      await axe(page);

      // The Mastercard test card replaces it.
      await fillTestCard(page, "5555 5555 5555 4444");
      await submit(page, mode, page.getByRole("button", { name: "Replace the card" }));
      await expect.poll(() => page.locator("main").textContent()).toContain("Your card has been replaced.");
      expect(new URL(page.url()).pathname).toBe("/account");
      const account = (await page.locator("main").textContent()) ?? "";
      expect(account).toContain("Mastercard ending 4444");
      expect(account).not.toContain("Visa ending 4242");
      await axe(page);
    } finally {
      await context.close();
    }
  });
});

describe("the card page without the app's scripts", () => {
  it("has no accessibility violations, before and after a refusal", async () => {
    const email = await cardSeller("axe");
    // JavaScript stays on for axe; none of the app's scripts load (axe hangs with JavaScript off).
    const { context, page } = await openPageWithoutAppScripts(browser(), { baseURL: app.app.baseURL });
    context.setDefaultTimeout(15_000);
    try {
      await page.goto("/login");
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(SELLER_PASSWORD);
      await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Sign in" }).click()]);
      await page.goto("/account/card");
      await expectNoAxeViolations(page);
      await fillTestCard(page, "4000 0000 0000 0002");
      await Promise.all([
        page.waitForLoadState("load"),
        page.getByRole("button", { name: "Replace the card" }).click(),
      ]);
      await page.locator("#card-error").waitFor();
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });
});

describe("W3C Nu validator", () => {
  it("finds no errors in the server HTML of the card pages and the account page after a replacement", async () => {
    const email = await cardSeller("vnu");
    const client = createClient(app.app.baseURL);
    expect((await client.request("/login", { form: { email, password: SELLER_PASSWORD } })).status).toBe(302);
    const documents: Record<string, string> = {};
    const fetchPage = async (name: string, path: string, form?: Record<string, string>) => {
      const response = await client.request(path, { form });
      expect(response.headers.get("content-type"), name).toMatch(/^text\/html/);
      documents[name] = await response.text();
    };
    const yy = String(NEXT_YEAR).slice(-2);
    await fetchPage("card", "/account/card");
    await fetchPage("card-empty", "/account/card", {
      card_number: "",
      card_exp_month: "",
      card_exp_year: "",
      card_cvc: "",
    });
    await fetchPage("card-declined", "/account/card", {
      card_number: "4000 0000 0000 0002",
      card_exp_month: "12",
      card_exp_year: yy,
      card_cvc: "123",
    });
    await fetchPage("checkout-cancelled", "/account/card/checkout?cancelled=1");
    await fetchPage("checkout-unknown", "/account/card/checkout?session_id=cs_unknown");
    const replaced = await client.request("/account/card", {
      form: { card_number: "5555 5555 5555 4444", card_exp_month: "12", card_exp_year: yy, card_cvc: "123" },
    });
    expect(replaced.status).toBe(302);
    await fetchPage("account-replaced", "/account?done=card-replaced");
    expect(documents["account-replaced"]).toContain("Mastercard ending 4444");
    expect(await validateHtml(documents)).toEqual([]);
  });
});
