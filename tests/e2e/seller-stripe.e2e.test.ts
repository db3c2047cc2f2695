import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations, sellerRegistrations } from "~db/schema";
import { waitForHydration } from "./browser";
import { stripeJsAppForFile } from "./fake-stripe-js";
import { fillRequiredSellerFields } from "./seller-form-steps";

// The seller form with Stripe configured and JavaScript on: Stripe.js's card fields (a stand-in for
// js.stripe.com served by the browser's router; Stripe's HTTP API faked with MSW at the edge) and the
// submit order of spec section 4: the form is checked first, then the card token is requested, then
// the registration is sent; a refused card shows the provider's message with focus on the card number.

describe("the seller form with Stripe.js", () => {
  const stripeJs = stripeJsAppForFile();
  const { captured } = stripeJs;

  const tokenRequests = () =>
    stripeJs.page().evaluate(() => (window as unknown as { __tokenRequests: number }).__tokenRequests);

  it("checks the form before asking for a token, shows a refusal at the card number, then registers", async () => {
    const app = stripeJs.app();
    const page = stripeJs.page();
    const token = await app.sellerToken();
    await page.goto(`/signup/seller-registration/${token}`);
    await waitForHydration(page);
    const cardNumber = page.getByRole("textbox", { name: "cardNumber" });
    await cardNumber.waitFor();

    // 1. An incomplete form: the summary, and no token requested.
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expect.poll(() => page.locator(".alert--error").first().textContent()).toContain("Error!");
    expect(await tokenRequests()).toBe(0);

    // 2. A refused card: the provider's message in the payment area, focus on the card number, nothing sent.
    await fillRequiredSellerFields(page, { email: "stripe-path@roughneck.example", hydrated: true });
    await page.locator('input[name="services"]').first().check();
    await cardNumber.fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Submit Registration" }).click();
    const payment = page.getByRole("region", { name: "10.0 Payment" });
    await expect.poll(() => payment.getByRole("alert").textContent()).toContain("Your card was declined.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("cardNumber");
    expect(await tokenRequests()).toBe(1);
    const written = await app.app.services.db
      .select()
      .from(registrations)
      .where(eq(registrations.email, "stripe-path@roughneck.example"));
    expect(written).toHaveLength(0);

    // 3. A good card: the token goes with the registration; the card is saved at Stripe.
    await cardNumber.fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await page.waitForURL("**/signup/seller-registration-complete");
    await expect.poll(() => page.locator("main").textContent()).toContain("Registration Complete");
    const customer = captured.find((request) => request.url.endsWith("/v1/customers"));
    expect(new URLSearchParams(customer?.body).get("source")).toBe("tok_visa");
    const [saved] = await app.app.services.db
      .select({ paymentStatus: sellerRegistrations.paymentStatus, provider: sellerRegistrations.paymentProvider })
      .from(sellerRegistrations)
      .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
      .where(eq(registrations.email, "stripe-path@roughneck.example"));
    expect(saved).toEqual({ paymentStatus: "card_saved", provider: "stripe" });
  });
});
