import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError, readEnvironment } from "~/platform/env.server";
import { createApplication, runWorker } from "~/server/server-app";
import type { CapturedRequest } from "../../tests/mocks/providers";
import { STRIPE_PRICES, STRIPE_TAX_RATES, stripeHandlers } from "../../tests/mocks/stripe";
import { checkStripeFees } from "./stripe-fees.server";

const captured: CapturedRequest[] = [];
const server = setupServer(...stripeHandlers(captured));
const requested: string[] = [];
server.events.on("request:start", ({ request }) => {
  requested.push(`${request.method} ${new URL(request.url).pathname}`);
});

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  captured.length = 0;
  requested.length = 0;
  server.resetHandlers();
});
afterAll(() => server.close());

const STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
  STRIPE_SUBSCRIPTION_PRICE_ID: "price_year",
  STRIPE_PROCESSING_FEE_PRICE_ID: "price_fee",
  STRIPE_GST_TAX_RATE_ID: "txr_gst",
};
const noRetries = { maxNetworkRetries: 0 };

/** The one line a start stops with. */
async function refusal(source: NodeJS.ProcessEnv): Promise<string> {
  const error = await checkStripeFees(readEnvironment(source), noRetries).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  const message = (error as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

const overridePrice = (id: string, changes: Record<string, unknown>) =>
  server.use(
    http.get(`https://api.stripe.com/v1/prices/${id}`, () => HttpResponse.json({ ...STRIPE_PRICES[id], ...changes })),
  );

describe("the start's check of Stripe's prices against fees.ts", () => {
  it("reads the two prices and the tax rate, and lets the start go on when they match", async () => {
    await checkStripeFees(readEnvironment(STRIPE), noRetries);
    expect(requested).toEqual(["GET /v1/prices/price_year", "GET /v1/prices/price_fee", "GET /v1/tax_rates/txr_gst"]);
  });

  it("asks nothing without Stripe, or with Stripe but no price configured (development)", async () => {
    await checkStripeFees(readEnvironment({}), noRetries);
    await checkStripeFees(
      readEnvironment({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" }),
      noRetries,
    );
    expect(requested).toEqual([]);
  });

  it("stops the start with one line naming the price and what differs: the amount", async () => {
    overridePrice("price_year", { unit_amount: 25_000 });
    expect(await refusal(STRIPE)).toBe(
      "Invalid configuration: Stripe's prices differ from the fee table (app/payments/fees.ts): " +
        "STRIPE_SUBSCRIPTION_PRICE_ID price_year is unit_amount 25000 (fees.ts: 20000)",
    );
  });

  it("names every difference: currency, interval, one-time or recurring, the tax rate's percentage and inclusiveness", async () => {
    overridePrice("price_year", { currency: "usd", recurring: { interval: "month", interval_count: 1 } });
    overridePrice("price_fee", { type: "recurring", recurring: { interval: "year", interval_count: 1 } });
    server.use(
      http.get("https://api.stripe.com/v1/tax_rates/txr_gst", () =>
        HttpResponse.json({ ...STRIPE_TAX_RATES.txr_gst, percentage: 13, inclusive: true }),
      ),
    );
    const message = await refusal(STRIPE);
    expect(message).toContain(
      "STRIPE_SUBSCRIPTION_PRICE_ID price_year is currency usd (fees.ts: cad), every 1 month (fees.ts: every 1 year)",
    );
    expect(message).toContain("STRIPE_PROCESSING_FEE_PRICE_ID price_fee is recurring (fees.ts: one-time)");
    expect(message).toContain(
      "STRIPE_GST_TAX_RATE_ID txr_gst is percentage 13 (fees.ts: 5), inclusive (fees.ts: added on top, inclusive=false)",
    );
  });

  it("refuses a subscription price that is one-time, and the two price ids swapped", async () => {
    const message = await refusal({
      ...STRIPE,
      STRIPE_SUBSCRIPTION_PRICE_ID: "price_fee",
      STRIPE_PROCESSING_FEE_PRICE_ID: "price_year",
    });
    expect(message).toContain(
      "STRIPE_SUBSCRIPTION_PRICE_ID price_fee is unit_amount 700 (fees.ts: 20000), one-time (fees.ts: recurring yearly)",
    );
    expect(message).toContain(
      "STRIPE_PROCESSING_FEE_PRICE_ID price_year is unit_amount 20000 (fees.ts: 700), recurring (fees.ts: one-time)",
    );
  });

  it("refuses an id Stripe does not know, and a key Stripe refuses", async () => {
    expect(await refusal({ ...STRIPE, STRIPE_GST_TAX_RATE_ID: "txr_other" })).toContain(
      "STRIPE_GST_TAX_RATE_ID txr_other is not found at Stripe",
    );
    server.use(
      http.get("https://api.stripe.com/v1/prices/:id", () =>
        HttpResponse.json(
          { error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_***abc" } },
          { status: 401 },
        ),
      ),
    );
    expect(await refusal(STRIPE)).toMatch(
      /^Invalid configuration: Stripe refused to show the prices .*STRIPE_SECRET_KEY$/,
    );
  });

  it("warns and lets the start go on when Stripe cannot be reached (an outage must not stop the marketplace)", async () => {
    const warnings: string[] = [];
    await checkStripeFees(readEnvironment(STRIPE), {
      ...noRetries,
      warn: (message) => warnings.push(message),
      fetchImpl: async () => {
        throw new TypeError("fetch failed");
      },
    });
    server.use(
      http.get("https://api.stripe.com/v1/prices/:id", () =>
        HttpResponse.json({ error: { type: "api_error", message: "Something went wrong" } }, { status: 500 }),
      ),
    );
    await checkStripeFees(readEnvironment(STRIPE), { ...noRetries, warn: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) {
      expect(warning).toMatch(/^Stripe could not be reached to check its prices against app\/payments\/fees\.ts/);
    }
  });

  it("asks the fake Stripe at STRIPE_API_URL when it is set", async () => {
    const local: string[] = [];
    server.use(
      http.get("http://127.0.0.1:12111/v1/prices/:id", ({ request, params }) => {
        local.push(new URL(request.url).pathname);
        return HttpResponse.json(STRIPE_PRICES[String(params.id)]);
      }),
    );
    const { STRIPE_GST_TAX_RATE_ID: _, ...withoutTax } = STRIPE;
    await checkStripeFees(readEnvironment({ ...withoutTax, STRIPE_API_URL: "http://127.0.0.1:12111" }), noRetries);
    expect(local).toEqual(["/v1/prices/price_year", "/v1/prices/price_fee"]);
  });

  it("runs before the web app and the worker open the database, and stops them on a difference", async () => {
    overridePrice("price_fee", { unit_amount: 900 });
    const environment = { ...STRIPE, PGLITE_DIR: "memory://" };
    const difference =
      /^Invalid configuration: Stripe's prices differ .*STRIPE_PROCESSING_FEE_PRICE_ID price_fee is unit_amount 900 \(fees\.ts: 700\)$/;
    await expect(createApplication({ environment })).rejects.toThrow(difference);
    // Without DATABASE_URL the worker would stop for another reason, after opening the database.
    await expect(runWorker(environment)).rejects.toThrow(difference);
  });
});
