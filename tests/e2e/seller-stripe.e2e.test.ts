import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registrations, sellerRegistrations } from "~db/schema";
import type { CapturedRequest } from "../mocks/providers";
import { stripeHandlers } from "../mocks/stripe";
import { startSellerFormApp } from "../support/seller-form-app";
import { launchBrowser, waitForHydration } from "./browser";
import { FAKE_STRIPE_JS } from "./fake-stripe-js";
import { fillRequiredSellerFields } from "./seller-form-steps";

// The seller form with Stripe configured and JavaScript on: Stripe.js's card fields (a stand-in for
// js.stripe.com served by the browser's router; Stripe's HTTP API faked with MSW at the edge) and the
// submit order of spec section 4: the form is checked first, then the card token is requested, then
// the registration is sent; a refused card shows the provider's message with focus on the card number.

const captured: CapturedRequest[] = [];
const stripeApi = setupServer(...stripeHandlers(captured));

describe("the seller form with Stripe.js", () => {
  let app: Awaited<ReturnType<typeof startSellerFormApp>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stripeApi.listen({ onUnhandledRequest: "bypass" });
    app = await startSellerFormApp("pglite", {
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
    });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: app.app.baseURL, viewport: { width: 1200, height: 900 } });
    await context.route("https://js.stripe.com/v3/", (route) =>
      route.fulfill({ contentType: "text/javascript", body: FAKE_STRIPE_JS }),
    );
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.app.stop();
    stripeApi.close();
  });

  const tokenRequests = () => page.evaluate(() => (window as unknown as { __tokenRequests: number }).__tokenRequests);

  it("checks the form before asking for a token, shows a refusal at the card number, then registers", async () => {
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
