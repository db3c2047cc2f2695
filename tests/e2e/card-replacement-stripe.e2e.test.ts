import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { registrations, sellerRegistrations } from "~db/schema";
import { createClient } from "../support/test-app";
import { expectNoAxeViolations, waitForHydration } from "./browser";
import { stripeJsAppForFile } from "./fake-stripe-js";
import { approvedSeller } from "./seller-form-steps";

// Replacing a seller's card with Stripe configured and JavaScript on: Stripe.js's card fields (the
// stand-in served by the browser's router; Stripe's API faked with MSW at the edge). A card Stripe.js
// refuses and one Stripe's API declines are both shown at the card fields with focus on the card
// number; a good card replaces the one the subscription is charged to.

const STAFF = { email: "card-stripe-staff@example.com", password: "card-stripe-staff-password" };
const SELLER = { email: "card-stripe-admin@seller.example", password: "card-stripe-seller-password" };

describe("replacing the card with Stripe.js", () => {
  const stripeJs = stripeJsAppForFile({
    SEED_STAFF_EMAIL: STAFF.email,
    SEED_STAFF_PASSWORD: STAFF.password,
    STRIPE_SUBSCRIPTION_PRICE_ID: "price_year",
    STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
  });
  const { captured } = stripeJs;

  beforeAll(async () => {
    const app = stripeJs.app();
    // A seller registered with a Stripe.js token, approved, its administrator's password set.
    const staff = createClient(app.app.baseURL);
    await staff.request("/login", { form: STAFF });
    await approvedSeller(app, staff, {
      ...SELLER,
      office: "card-stripe-office@seller.example",
      form: {
        card_number: null,
        card_exp_month: null,
        card_exp_year: null,
        card_cvc: null,
        stripe_payment_token: "tok_visa",
      },
    });
    stripeJs.context().setDefaultTimeout(15_000);
  });

  it("shows refusals at the card number, then replaces the card on the customer and the subscription", async () => {
    const app = stripeJs.app();
    const page = stripeJs.page();
    await page.goto("/login");
    await page.getByLabel("Email", { exact: true }).fill(SELLER.email);
    await page.getByLabel("Password", { exact: true }).fill(SELLER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/account");
    await page.goto("/account/card");
    await waitForHydration(page);
    const cardNumber = page.getByRole("textbox", { name: "cardNumber" });
    await cardNumber.waitFor();
    await expectNoAxeViolations(page);
    const focusedField = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));

    // Refused by Stripe.js: nothing is sent.
    captured.length = 0;
    await cardNumber.fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Replace the card" }).click();
    await expect.poll(() => page.locator("#card-error").textContent()).toContain("Your card was declined.");
    await expect.poll(focusedField).toBe("cardNumber");
    expect(captured).toHaveLength(0);

    // Declined by Stripe's API when attached: the same place, the same focus.
    await cardNumber.fill("4000 0000 0000 0341");
    await page.getByRole("button", { name: "Replace the card" }).click();
    await expect
      .poll(() => captured.some((request) => new URLSearchParams(request.body).get("source") === "tok_chargeDeclined"))
      .toBe(true);
    await expect.poll(() => page.locator("#card-error").textContent()).toContain("Your card was declined.");
    await expect.poll(focusedField).toBe("cardNumber");
    await expectNoAxeViolations(page);

    // A good card: the token goes with the form, the card is attached and made the default.
    captured.length = 0;
    await cardNumber.fill("5555 5555 5555 4444");
    await page.getByRole("button", { name: "Replace the card" }).click();
    await page.waitForURL("**/account?done=card-replaced");
    await expect.poll(() => page.locator("main").textContent()).toContain("Your card has been replaced.");
    expect(await page.locator("main").textContent()).toContain("MasterCard ending 4444");
    expect(captured.map((request) => request.url)).toEqual([
      "https://api.stripe.com/v1/customers/cus_123/sources",
      "https://api.stripe.com/v1/customers/cus_123",
      "https://api.stripe.com/v1/subscriptions/sub_123",
    ]);
    expect(new URLSearchParams(captured[0]?.body).get("source")).toBe("tok_mastercard");
    const [saved] = await app.app.services.db
      .select({ paymentMethodId: sellerRegistrations.paymentMethodId, cardLast4: sellerRegistrations.cardLast4 })
      .from(sellerRegistrations)
      .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
      .where(eq(registrations.email, "card-stripe-office@seller.example"));
    expect(saved).toEqual({ paymentMethodId: "card_mastercard", cardLast4: "4444" });
    await expectNoAxeViolations(page);
  });
});
