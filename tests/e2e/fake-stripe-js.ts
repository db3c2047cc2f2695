import { setupServer } from "msw/node";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { CapturedRequest } from "../mocks/providers";
import { stripeHandlers } from "../mocks/stripe";
import { startSellerFormApp } from "../support/seller-form-app";
import { launchBrowser } from "./browser";

type SellerFormApp = Awaited<ReturnType<typeof startSellerFormApp>>;

// A stand-in for js.stripe.com, served by the browser's router in the Stripe.js browser tests.

/**
 * The part of Stripe.js the forms use: 4000 0000 0000 0002 is declined in the browser as Stripe's
 * test card is; 5555 5555 5555 4444 gives tok_mastercard, 4000 0000 0000 0341 a token Stripe's API
 * (faked with MSW) declines, any other number tok_visa.
 */
export const FAKE_STRIPE_JS = `
window.__tokenRequests = 0;
window.Stripe = function () {
  return {
    elements: function () {
      return {
        create: function (type) {
          var input = document.createElement("input");
          input.setAttribute("aria-label", type);
          return {
            mount: function (container) { container.appendChild(input); },
            destroy: function () { input.remove(); },
            focus: function () { input.focus(); },
            on: function () {},
            value: function () { return input.value; },
          };
        },
      };
    },
    createToken: function (element) {
      window.__tokenRequests += 1;
      var number = element.value().replace(/\\s/g, "");
      if (number === "4000000000000002") return Promise.resolve({ error: { message: "Your card was declined." } });
      if (number === "5555555555554444") return Promise.resolve({ token: { id: "tok_mastercard" } });
      if (number === "4000000000000341") return Promise.resolve({ token: { id: "tok_chargeDeclined" } });
      return Promise.resolve({ token: { id: "tok_visa" } });
    },
  };
};`;

/**
 * For a Stripe.js browser test file: Stripe's API faked with MSW (its requests kept in `captured`),
 * the seller form app with Stripe configured, and one page whose js.stripe.com is the stand-in
 * above; started before the file's tests, stopped after them.
 */
export function stripeJsAppForFile(environment: NodeJS.ProcessEnv = {}) {
  const captured: CapturedRequest[] = [];
  const stripeApi = setupServer(...stripeHandlers(captured));
  let app: SellerFormApp | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    stripeApi.listen({ onUnhandledRequest: "bypass" });
    app = await startSellerFormApp("pglite", {
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
      ...environment,
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
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the Stripe.js app has not started");
    return value;
  };
  return { captured, app: () => started(app), context: () => started(context), page: () => started(page) };
}
