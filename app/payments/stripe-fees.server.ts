import Stripe from "stripe";
import { ConfigurationError, type Environment } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { GST_PERCENT, SELLER_FEES, SELLER_FEES_AT_STRIPE } from "./fees";
import { createStripeClient } from "./stripe.server";

// One source of truth for the seller's fees: the amounts the fee table shows (fees.ts) are the ones
// Stripe charges. At start the configured prices and tax rate are read from Stripe and compared.

export type FeeCheckOptions = {
  fetchImpl?: typeof fetch;
  /** The SDK's retries before Stripe counts as unreachable (default 2). */
  maxNetworkRetries?: number;
  warn?: (message: string) => void;
};

/** What one configured id must be at Stripe, and what it is instead. */
type Difference = { setting: string; id: string; problems: string[] };

function priceProblems(price: Stripe.Price, expected: { cents: number; recurring: "year" | null }): string[] {
  const problems: string[] = [];
  if (price.unit_amount !== expected.cents) {
    problems.push(`unit_amount ${price.unit_amount ?? "none"} (fees.ts: ${expected.cents})`);
  }
  if (price.currency !== SELLER_FEES_AT_STRIPE.currency) {
    problems.push(`currency ${price.currency} (fees.ts: ${SELLER_FEES_AT_STRIPE.currency})`);
  }
  if (expected.recurring) {
    const recurring = price.recurring;
    if (price.type !== "recurring" || !recurring) problems.push("one-time (fees.ts: recurring yearly)");
    else if (recurring.interval !== expected.recurring || recurring.interval_count !== 1) {
      problems.push(`every ${recurring.interval_count} ${recurring.interval} (fees.ts: every 1 ${expected.recurring})`);
    }
  } else if (price.type !== "one_time") {
    problems.push(`recurring (fees.ts: one-time)`);
  }
  if (!price.active) problems.push("archived (inactive)");
  return problems;
}

function taxRateProblems(taxRate: Stripe.TaxRate): string[] {
  const problems: string[] = [];
  if (taxRate.percentage !== GST_PERCENT) problems.push(`percentage ${taxRate.percentage} (fees.ts: ${GST_PERCENT})`);
  if (taxRate.inclusive) problems.push("inclusive (fees.ts: added on top, inclusive=false)");
  if (!taxRate.active) problems.push("archived (inactive)");
  return problems;
}

/** A definite answer about the configuration (wrong key, unknown id), as opposed to an outage. */
function isConfigurationAnswer(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    (error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode ?? 400) < 500)
  );
}

/**
 * When Stripe is configured: the subscription price, the processing fee's price and the GST tax rate
 * configured must be what fees.ts says (amount in cents, CAD, yearly / one-time, 5% added on top).
 * A difference, an unknown id or a refused key stops the start with one line (ConfigurationError).
 *
 * Stripe unreachable (after the SDK's retries): a warning, and the start goes on. An outage at Stripe
 * must not keep the marketplace down (a machine restarting during it would stop bidding too), while
 * the prices are only used when staff approve a seller, and that call then fails as an outage and is
 * retried; the next start checks again.
 */
export async function checkStripeFees(env: Environment, options: FeeCheckOptions = {}): Promise<void> {
  if (!env.STRIPE_SECRET_KEY) return;
  const checks = [
    { setting: "STRIPE_SUBSCRIPTION_PRICE_ID", id: env.STRIPE_SUBSCRIPTION_PRICE_ID, kind: "subscription" },
    { setting: "STRIPE_PROCESSING_FEE_PRICE_ID", id: env.STRIPE_PROCESSING_FEE_PRICE_ID, kind: "fee" },
    { setting: "STRIPE_GST_TAX_RATE_ID", id: env.STRIPE_GST_TAX_RATE_ID, kind: "tax" },
  ] as const;
  const configured = checks.filter((check) => check.id !== undefined);
  if (configured.length === 0) return;

  const stripe = createStripeClient(
    {
      secretKey: env.STRIPE_SECRET_KEY,
      apiUrl: env.STRIPE_API_URL,
      timeoutMs: 10_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
    },
    options.fetchImpl,
  );
  const differences: Difference[] = [];
  try {
    for (const { setting, id, kind } of configured) {
      if (!id) continue;
      let problems: string[];
      try {
        if (kind === "tax") problems = taxRateProblems(await stripe.taxRates.retrieve(id));
        else
          problems = priceProblems(
            await stripe.prices.retrieve(id),
            kind === "subscription"
              ? { cents: SELLER_FEES.yearlySubscription, recurring: SELLER_FEES_AT_STRIPE.interval }
              : { cents: SELLER_FEES.processingFee, recurring: null },
          );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
          problems = ["not found at Stripe (for this STRIPE_SECRET_KEY's account and mode)"];
        } else throw error;
      }
      if (problems.length > 0) differences.push({ setting, id, problems });
    }
  } catch (error) {
    if (isConfigurationAnswer(error)) {
      throw new ConfigurationError(
        `Invalid configuration: Stripe refused to show the prices (${(error as Error).message}); check STRIPE_SECRET_KEY`,
      );
    }
    (options.warn ?? ((message: string) => logger.warn(message)))(
      `Stripe could not be reached to check its prices against app/payments/fees.ts ` +
        `(${error instanceof Error ? error.message : String(error)}); starting anyway, the next start checks again`,
    );
    return;
  }
  if (differences.length > 0) {
    throw new ConfigurationError(
      `Invalid configuration: Stripe's prices differ from the fee table (app/payments/fees.ts): ${differences
        .map(({ setting, id, problems }) => `${setting} ${id} is ${problems.join(", ")}`)
        .join("; ")}`,
    );
  }
}
