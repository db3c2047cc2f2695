import Stripe from "stripe";
import { logger } from "~/platform/logger.server";
import {
  CARD_NOT_SAVED,
  CardError,
  type CardHolder,
  PaymentProviderError,
  type SavedCard,
  type SetupCheckout,
  type SetupCheckoutResult,
  type StripePayments,
} from "./payments";

// Stripe through its official SDK (https://github.com/stripe/stripe-node), behind the app's Payments
// interface. https://docs.stripe.com/api

/**
 * The one API version every request is made with (the SDK's types describe exactly this version, so
 * TypeScript refuses any other). To upgrade: read Stripe's changelog for the versions in between
 * (https://docs.stripe.com/upgrades), `npm install --save-exact stripe@<release>` whose CHANGELOG names
 * the new version, set it here, then run the typecheck and the payments tests.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" satisfies typeof Stripe.API_VERSION;

/** A request that gets no answer in this time counts as an outage (the SDK's default is 80 s). */
const REQUEST_TIMEOUT_MS = 20_000;
/**
 * Retries of a request that got no answer, a 409 or a 5xx (the SDK backs off between them). Safe:
 * every create and update carries our idempotency key, so a retry can never make a second customer,
 * card or subscription.
 */
const NETWORK_RETRIES = 2;

export type StripeClientConfig = {
  secretKey: string;
  /** STRIPE_API_URL: another address for Stripe's API (a fake Stripe on localhost in tests). */
  apiUrl?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
};

export type StripeConfig = StripeClientConfig & {
  publishableKey: string;
  prices?: StripePayments["prices"];
};

/** STRIPE_API_URL as the SDK's host settings: `http://127.0.0.1:12111` → host, port and protocol. */
export function stripeHostSettings(
  apiUrl: string | undefined,
): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/**
 * The SDK's client, pinned to STRIPE_API_VERSION. It sends through `fetch`, looked up at each request
 * (not the SDK's own Node HTTP client), so that MSW at the network edge and the browser tests' fake
 * Stripe see every request the same way as the other providers' calls.
 */
export function createStripeClient(config: StripeClientConfig, fetchImpl?: typeof fetch): Stripe {
  return new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    httpClient: Stripe.createFetchHttpClient((input, init) => (fetchImpl ?? globalThis.fetch)(input, init)),
    timeout: config.timeoutMs ?? REQUEST_TIMEOUT_MS,
    maxNetworkRetries: config.maxNetworkRetries ?? NETWORK_RETRIES,
    telemetry: false,
    ...stripeHostSettings(config.apiUrl),
  });
}

/** The SDK's errors as ours: a refused card is the applicant's to fix; anything else is the provider's. */
export function toPaymentError(error: unknown, what: string): Error {
  if (error instanceof CardError || error instanceof PaymentProviderError) return error;
  if (error instanceof Stripe.errors.StripeCardError) {
    return new CardError(error.message || CARD_NOT_SAVED, error.code ?? "card_error");
  }
  // A token or payment method Stripe does not know (stale or forged): the applicant can try again.
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    ["source", "payment_method"].includes(error.param ?? "") &&
    (error.statusCode ?? 400) < 500
  ) {
    return new CardError(CARD_NOT_SAVED, error.code ?? "invalid_request_error");
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentProviderError(`Stripe unreachable (${what}): ${error.message}`);
  }
  if (error instanceof Stripe.errors.StripeError) {
    // StripeAPIError, StripeAuthenticationError, StripePermissionError, StripeRateLimitError, StripeIdempotencyError…
    const answer = [error.statusCode ?? "no status", error.rawType ?? error.type, error.code].filter(Boolean).join(" ");
    return new PaymentProviderError(`Stripe refused ${what} (${answer}): ${error.message || "no detail"}`);
  }
  return new PaymentProviderError(`Stripe failed (${what}): ${error instanceof Error ? error.message : String(error)}`);
}

export function createStripePayments(config: StripeConfig, fetchImpl?: typeof fetch): StripePayments {
  const stripe = createStripeClient(config, fetchImpl);

  /** One SDK call, its errors mapped to ours. */
  async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toPaymentError(error, what);
    }
  }

  const holderParams = (holder: CardHolder) => ({
    name: holder.name,
    email: holder.email,
    metadata: { registration: holder.reference },
  });

  /** Card details as Stripe reports them (brand and last four digits only). */
  async function cardOf(paymentMethod: string | Stripe.PaymentMethod | null): Promise<Stripe.PaymentMethod> {
    if (!paymentMethod) throw new PaymentProviderError("Stripe returned no payment method");
    if (typeof paymentMethod !== "string") return paymentMethod;
    return call("retrieve payment method", () => stripe.paymentMethods.retrieve(paymentMethod));
  }

  const savedCard = (customerId: string, paymentMethod: Stripe.PaymentMethod): SavedCard => ({
    customerId,
    paymentMethodId: paymentMethod.id,
    brand: paymentMethod.card?.brand ?? null,
    last4: paymentMethod.card?.last4 ?? null,
  });

  /** A customer's card attached from a token: a Card (or a card-type Source), its brand and last four. */
  const sourceCard = (customerId: string, source: Stripe.CustomerSource): SavedCard => {
    const card =
      source.object === "card" ? source : source.object === "source" ? (source.card ?? undefined) : undefined;
    return { customerId, paymentMethodId: source.id, brand: card?.brand ?? null, last4: card?.last4 ?? null };
  };

  /** A PaymentMethod checked and kept for later charges: a confirmed off-session SetupIntent for the customer. */
  async function setUpPaymentMethod(
    customerId: string,
    paymentMethodId: string,
    idempotencyKey: string,
  ): Promise<Stripe.PaymentMethod> {
    const setupIntent = await call("create SetupIntent", () =>
      stripe.setupIntents.create(
        {
          customer: customerId,
          payment_method: paymentMethodId,
          // `allowed_payment_method_types` since API version 2026-09-30.endive (before: `payment_method_types`).
          allowed_payment_method_types: ["card"],
          usage: "off_session",
          confirm: true,
          expand: ["payment_method"],
        },
        { idempotencyKey: `setup-${idempotencyKey}` },
      ),
    );
    if (setupIntent.status !== "succeeded") {
      throw new CardError(
        "Your card needs extra authentication that this form cannot complete. Please use another card.",
        setupIntent.status,
      );
    }
    return cardOf(setupIntent.payment_method);
  }

  /**
   * The card the customer's invoices are charged to (and its default source, for a card attached as
   * one), and the subscription's when given: a subscription's own default overrides the customer's.
   */
  async function makeDefault(
    customerId: string,
    paymentMethodId: string,
    options: { source?: boolean; subscriptionId?: string },
    idempotencyKey: string,
  ) {
    await call("update customer", () =>
      stripe.customers.update(
        customerId,
        {
          ...(options.source ? { default_source: paymentMethodId } : {}),
          invoice_settings: { default_payment_method: paymentMethodId },
        },
        { idempotencyKey: `default-${idempotencyKey}` },
      ),
    );
    const { subscriptionId } = options;
    if (subscriptionId) {
      const subscription = await call("update subscription", () =>
        stripe.subscriptions.update(
          subscriptionId,
          { default_payment_method: paymentMethodId },
          { idempotencyKey: `subscription-default-${idempotencyKey}` },
        ),
      );
      await payOverdueInvoice(subscription, paymentMethodId, idempotencyKey);
    }
  }

  /**
   * A past-due subscription's open invoice is charged to the new card at once (rather than at Stripe's
   * next retry), so a seller who fixed the card can bid again. The card is saved whatever the charge
   * does: its outcome arrives by webhook (invoice.paid or invoice.payment_failed), so a refusal here
   * is only logged.
   */
  async function payOverdueInvoice(
    subscription: { status?: string; latest_invoice?: string | { id?: string } | null },
    paymentMethodId: string,
    idempotencyKey: string,
  ) {
    if (subscription.status !== "past_due" && subscription.status !== "unpaid") return;
    const invoice = subscription.latest_invoice;
    const invoiceId = typeof invoice === "string" ? invoice : invoice?.id;
    if (!invoiceId) return;
    try {
      await stripe.invoices.pay(
        invoiceId,
        { payment_method: paymentMethodId },
        { idempotencyKey: `pay-overdue-${idempotencyKey}` },
      );
    } catch (error) {
      logger.error({ err: error }, `paying overdue invoice ${invoiceId} with the new card failed`);
    }
  }

  async function discardCustomer(customerId: string) {
    // A delete is idempotent at Stripe itself (a second one finds the customer gone).
    await call("delete customer", () => stripe.customers.del(customerId));
  }

  /** A Checkout Session in setup mode for the customer: the card is typed on Stripe's page. */
  async function setupCheckout(
    customerId: string,
    request: { reference: string; metadata: Record<string, string>; successUrl: string; cancelUrl: string },
    idempotencyKey: string,
  ): Promise<SetupCheckout> {
    const session = await call("create Checkout Session", () =>
      stripe.checkout.sessions.create(
        {
          mode: "setup",
          customer: customerId,
          allowed_payment_method_types: ["card"],
          client_reference_id: request.reference,
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: request.metadata,
        },
        { idempotencyKey: `checkout-${idempotencyKey}` },
      ),
    );
    if (!session.url) throw new PaymentProviderError("Stripe returned a Checkout Session without a URL");
    return { sessionId: session.id, url: session.url, customerId };
  }

  return {
    provider: "stripe",
    publishableKey: config.publishableKey,
    prices: config.prices ?? {},

    async saveCard({ token, holder, idempotencyKey }): Promise<SavedCard> {
      if (token.startsWith("tok_")) {
        // A card token becomes the customer's default source; Stripe checks the card as it attaches it.
        const customer = await call("create customer", () =>
          stripe.customers.create(
            { ...holderParams(holder), source: token, expand: ["default_source"] },
            { idempotencyKey: `customer-${idempotencyKey}` },
          ),
        );
        const source = customer.default_source;
        if (!source) throw new PaymentProviderError("Stripe returned a customer without the card");
        if (typeof source === "string")
          return { customerId: customer.id, paymentMethodId: source, brand: null, last4: null };
        return sourceCard(customer.id, source);
      }
      if (!token.startsWith("pm_")) throw new CardError(CARD_NOT_SAVED, "invalid_token");
      const customer = await call("create customer", () =>
        stripe.customers.create(holderParams(holder), { idempotencyKey: `customer-${idempotencyKey}` }),
      );
      let paymentMethod: Stripe.PaymentMethod;
      try {
        paymentMethod = await setUpPaymentMethod(customer.id, token, idempotencyKey);
      } catch (error) {
        // A refused card leaves the new customer of no use. After an outage it is kept: the retry
        // with the same key gets this customer back and carries on with it.
        if (error instanceof CardError) await discardCustomer(customer.id).catch(() => undefined);
        throw error;
      }
      await makeDefault(customer.id, paymentMethod.id, {}, idempotencyKey);
      return savedCard(customer.id, paymentMethod);
    },

    async replaceCard({ customerId, token, subscriptionId, idempotencyKey }): Promise<SavedCard> {
      let card: SavedCard;
      let source = false;
      if (token.startsWith("tok_")) {
        // A card token becomes a new card of the customer (the old one stays until it is removed at
        // Stripe); Stripe checks the card as it attaches it.
        const attached = await call("attach card", () =>
          stripe.customers.createSource(customerId, { source: token }, { idempotencyKey: `source-${idempotencyKey}` }),
        );
        card = sourceCard(customerId, attached);
        source = true;
      } else if (token.startsWith("pm_")) {
        card = savedCard(customerId, await setUpPaymentMethod(customerId, token, idempotencyKey));
      } else {
        throw new CardError(CARD_NOT_SAVED, "invalid_token");
      }
      await makeDefault(customerId, card.paymentMethodId, { source, subscriptionId }, idempotencyKey);
      return card;
    },

    /**
     * The yearly price with the free trial, on the saved card. The processing fee is a pending invoice
     * item on the subscription, so it is charged with the first invoice after the trial; GST is the
     * tax rate on both (spec section 9's amounts, configured as Stripe prices and checked against
     * fees.ts at start: stripe-prices.server.ts).
     */
    async startSubscription({ customerId, paymentMethodId, trialDays, renewal = false, idempotencyKey }) {
      const { yearlySubscription, processingFee, gstTaxRate } = config.prices ?? {};
      if (!yearlySubscription || !processingFee) {
        throw new PaymentProviderError(
          "Stripe price ids are not configured (STRIPE_SUBSCRIPTION_PRICE_ID, STRIPE_PROCESSING_FEE_PRICE_ID)",
        );
      }
      const taxRates = gstTaxRate ? [gstTaxRate] : undefined;
      const subscription = await call("create subscription", () =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            default_payment_method: paymentMethodId,
            items: [{ price: yearlySubscription }],
            ...(renewal ? {} : { trial_period_days: trialDays }),
            default_tax_rates: taxRates,
            // A renewal is paid now or refused: no incomplete subscription is left behind a declined card.
            payment_behavior: renewal ? "error_if_incomplete" : "allow_incomplete",
          },
          { idempotencyKey: `subscription-${idempotencyKey}` },
        ),
      );
      // The processing fee is charged once, with the first subscription.
      if (!renewal)
        await call("create invoice item", () =>
          stripe.invoiceItems.create(
            // A price is given as `pricing[price]` since API version 2025-03-31.basil (before: `price`).
            {
              customer: customerId,
              subscription: subscription.id,
              pricing: { price: processingFee },
              tax_rates: taxRates,
            },
            { idempotencyKey: `processing-fee-${idempotencyKey}` },
          ),
        );
      const trialEndsAt = subscription.trial_end
        ? new Date(subscription.trial_end * 1000)
        : new Date(Date.now() + (renewal ? 0 : trialDays) * 24 * 60 * 60 * 1000);
      return {
        subscriptionId: subscription.id,
        status: subscription.status === "active" ? "active" : "trialing",
        trialEndsAt,
      };
    },

    async createSetupCheckout({ holder, successUrl, cancelUrl, idempotencyKey }) {
      const customer = await call("create customer", () =>
        stripe.customers.create(holderParams(holder), { idempotencyKey: `customer-${idempotencyKey}` }),
      );
      return setupCheckout(
        customer.id,
        { reference: holder.reference, metadata: { registration: holder.reference }, successUrl, cancelUrl },
        idempotencyKey,
      );
    },

    discardCustomer,

    createCardUpdateCheckout({ customerId, reference, successUrl, cancelUrl, idempotencyKey }) {
      return setupCheckout(
        customerId,
        { reference, metadata: { card_update: reference }, successUrl, cancelUrl },
        idempotencyKey,
      );
    },

    async readSetupCheckout(sessionId, options = {}): Promise<SetupCheckoutResult> {
      const session = await call("retrieve Checkout Session", () =>
        stripe.checkout.sessions.retrieve(sessionId, { expand: ["setup_intent.payment_method"] }),
      );
      if (session.status === "expired") return { status: "expired" };
      const setupIntent = session.setup_intent;
      if (session.status !== "complete" || !setupIntent || typeof setupIntent === "string") return { status: "open" };
      const customerId = typeof session.customer === "string" ? session.customer : session.customer?.id;
      if (setupIntent.status !== "succeeded" || !customerId) return { status: "open" };
      const paymentMethod = await cardOf(setupIntent.payment_method);
      await makeDefault(customerId, paymentMethod.id, { subscriptionId: options.subscriptionId }, session.id);
      return { status: "complete", card: savedCard(customerId, paymentMethod) };
    },
  };
}
