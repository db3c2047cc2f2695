import { ConfigurationError, devDoorsOpen, type Environment } from "~/platform/env.server";
import type { Payments } from "./payments";
import { createStripePayments } from "./stripe.server";
import { createTestCardProvider } from "./test-card-provider.server";

export * from "./payments";

/**
 * Stripe when both keys are set (env validation makes them come together), else the offline test
 * provider, but only where the development doors are open (`devDoorsOpen`).
 */
export function createPayments(env: Environment, fetchImpl?: typeof fetch): Payments {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY) {
    return createStripePayments(
      {
        secretKey: env.STRIPE_SECRET_KEY,
        publishableKey: env.STRIPE_PUBLISHABLE_KEY,
        apiUrl: env.STRIPE_API_URL,
        prices: {
          yearlySubscription: env.STRIPE_SUBSCRIPTION_PRICE_ID,
          processingFee: env.STRIPE_PROCESSING_FEE_PRICE_ID,
          gstTaxRate: env.STRIPE_GST_TAX_RATE_ID,
        },
      },
      fetchImpl,
    );
  }
  // The environment's validation refuses this already; kept here so no other path can take test cards.
  if (!devDoorsOpen(env)) {
    throw new ConfigurationError(
      "Invalid configuration: Stripe must be configured here (the test card provider is for development, or DEV_OUTBOX=on)",
    );
  }
  return createTestCardProvider();
}
