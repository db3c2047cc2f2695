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

// Stripe's HTTP API called directly (form-encoded, as Stripe documents it): the few calls we make
// do not need the SDK. https://docs.stripe.com/api

export type StripeConfig = {
  secretKey: string;
  publishableKey: string;
  prices?: StripePayments["prices"];
  apiBase?: string;
};

type StripeError = { type?: string; code?: string; decline_code?: string; message?: string; param?: string };
type Card = { brand?: string; last4?: string };
type PaymentMethod = { id: string; card?: Card };
type Customer = {
  id: string;
  default_source?: string | { id: string; card?: Card; brand?: string; last4?: string } | null;
  sources?: { data?: { id: string; brand?: string; last4?: string }[] };
};
type SetupIntent = {
  id: string;
  status: string;
  payment_method: string | PaymentMethod | null;
  customer?: string | null;
};
type Subscription = { id: string; status: string; trial_end: number | null };
type CheckoutSession = {
  id: string;
  url: string | null;
  status: "open" | "complete" | "expired";
  customer: string | null;
  setup_intent: string | SetupIntent | null;
};

/** Nested parameters the way Stripe reads them: a[b]=c, a[0]=d. */
export function encodeStripeForm(params: Record<string, unknown>, prefix = "", form = new URLSearchParams()) {
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item === "object" && item !== null)
          encodeStripeForm(item as Record<string, unknown>, `${name}[${index}]`, form);
        else form.append(`${name}[${index}]`, String(item));
      });
    } else if (typeof value === "object") {
      encodeStripeForm(value as Record<string, unknown>, name, form);
    } else {
      form.append(name, String(value));
    }
  }
  return form;
}

export function createStripePayments(config: StripeConfig, fetchImpl?: typeof fetch): StripePayments {
  const apiBase = config.apiBase ?? "https://api.stripe.com";

  async function call<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    params: Record<string, unknown> = {},
    idempotencyKey?: string,
  ): Promise<T> {
    const form = encodeStripeForm(params);
    const url = method === "GET" && form.size > 0 ? `${apiBase}${path}?${form}` : `${apiBase}${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${config.secretKey}` };
    if (method === "POST") headers["content-type"] = "application/x-www-form-urlencoded";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    let response: Response;
    try {
      response = await (fetchImpl ?? fetch)(url, {
        method,
        headers,
        body: method === "POST" ? form : undefined,
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`Stripe unreachable: ${(error as Error).message}`);
    }
    const body = (await response.json().catch(() => ({}))) as { error?: StripeError } & T;
    if (response.ok) return body;
    const error = body.error ?? {};
    if (error.type === "card_error") throw new CardError(error.message ?? CARD_NOT_SAVED, error.code ?? "card_error");
    // A token or payment method Stripe does not know (stale or forged): the applicant can try again.
    if (
      error.type === "invalid_request_error" &&
      ["source", "payment_method"].includes(error.param ?? "") &&
      response.status < 500
    ) {
      throw new CardError(CARD_NOT_SAVED, error.code ?? "invalid_request_error");
    }
    throw new PaymentProviderError(
      `Stripe refused ${method} ${path} (${response.status} ${error.type ?? ""} ${error.code ?? ""}): ${error.message ?? "no detail"}`,
    );
  }

  const holderParams = (holder: CardHolder) => ({
    name: holder.name,
    email: holder.email,
    metadata: { registration: holder.reference },
  });

  /** Card details as Stripe reports them (brand and last four digits only). */
  async function cardOf(paymentMethod: string | PaymentMethod | null): Promise<PaymentMethod> {
    if (!paymentMethod) throw new PaymentProviderError("Stripe returned no payment method");
    if (typeof paymentMethod !== "string") return paymentMethod;
    return call<PaymentMethod>("GET", `/v1/payment_methods/${encodeURIComponent(paymentMethod)}`);
  }

  const savedCard = (customerId: string, paymentMethod: PaymentMethod): SavedCard => ({
    customerId,
    paymentMethodId: paymentMethod.id,
    brand: paymentMethod.card?.brand ?? null,
    last4: paymentMethod.card?.last4 ?? null,
  });

  /** A PaymentMethod checked and kept for later charges: a confirmed off-session SetupIntent for the customer. */
  async function setUpPaymentMethod(
    customerId: string,
    paymentMethodId: string,
    idempotencyKey: string,
  ): Promise<PaymentMethod> {
    const setupIntent = await call<SetupIntent>(
      "POST",
      "/v1/setup_intents",
      {
        customer: customerId,
        payment_method: paymentMethodId,
        payment_method_types: ["card"],
        usage: "off_session",
        confirm: true,
        expand: ["payment_method"],
      },
      `setup-${idempotencyKey}`,
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
    await call(
      "POST",
      `/v1/customers/${encodeURIComponent(customerId)}`,
      {
        default_source: options.source ? paymentMethodId : undefined,
        invoice_settings: { default_payment_method: paymentMethodId },
      },
      `default-${idempotencyKey}`,
    );
    if (options.subscriptionId) {
      await call(
        "POST",
        `/v1/subscriptions/${encodeURIComponent(options.subscriptionId)}`,
        { default_payment_method: paymentMethodId },
        `subscription-default-${idempotencyKey}`,
      );
    }
  }

  async function discardCustomer(customerId: string) {
    await call("DELETE", `/v1/customers/${encodeURIComponent(customerId)}`);
  }

  /** A Checkout Session in setup mode for the customer: the card is typed on Stripe's page. */
  async function setupCheckout(
    customerId: string,
    request: { reference: string; metadata: Record<string, string>; successUrl: string; cancelUrl: string },
    idempotencyKey: string,
  ): Promise<SetupCheckout> {
    const session = await call<CheckoutSession>(
      "POST",
      "/v1/checkout/sessions",
      {
        mode: "setup",
        customer: customerId,
        payment_method_types: ["card"],
        client_reference_id: request.reference,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata: request.metadata,
      },
      `checkout-${idempotencyKey}`,
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
        const customer = await call<Customer>(
          "POST",
          "/v1/customers",
          { ...holderParams(holder), source: token, expand: ["default_source"] },
          `customer-${idempotencyKey}`,
        );
        const source = customer.default_source;
        if (!source) throw new PaymentProviderError("Stripe returned a customer without the card");
        if (typeof source === "string")
          return { customerId: customer.id, paymentMethodId: source, brand: null, last4: null };
        return {
          customerId: customer.id,
          paymentMethodId: source.id,
          brand: source.brand ?? source.card?.brand ?? null,
          last4: source.last4 ?? source.card?.last4 ?? null,
        };
      }
      if (!token.startsWith("pm_")) throw new CardError(CARD_NOT_SAVED, "invalid_token");
      const customer = await call<Customer>(
        "POST",
        "/v1/customers",
        holderParams(holder),
        `customer-${idempotencyKey}`,
      );
      let paymentMethod: PaymentMethod;
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
      let paymentMethod: PaymentMethod;
      let source = false;
      if (token.startsWith("tok_")) {
        // A card token becomes a new card of the customer (the old one stays until it is removed at
        // Stripe); Stripe checks the card as it attaches it.
        const card = await call<Card & { id: string }>(
          "POST",
          `/v1/customers/${encodeURIComponent(customerId)}/sources`,
          { source: token },
          `source-${idempotencyKey}`,
        );
        paymentMethod = { id: card.id, card: { brand: card.brand, last4: card.last4 } };
        source = true;
      } else if (token.startsWith("pm_")) {
        paymentMethod = await setUpPaymentMethod(customerId, token, idempotencyKey);
      } else {
        throw new CardError(CARD_NOT_SAVED, "invalid_token");
      }
      await makeDefault(customerId, paymentMethod.id, { source, subscriptionId }, idempotencyKey);
      return savedCard(customerId, paymentMethod);
    },

    /**
     * The yearly price with the free trial, on the saved card. The processing fee is a pending invoice
     * item on the subscription, so it is charged with the first invoice after the trial; GST is the
     * tax rate on both (spec section 9's amounts, configured as Stripe prices).
     */
    async startSubscription({ customerId, paymentMethodId, trialDays, idempotencyKey }) {
      const { yearlySubscription, processingFee, gstTaxRate } = config.prices ?? {};
      if (!yearlySubscription || !processingFee) {
        throw new PaymentProviderError(
          "Stripe price ids are not configured (STRIPE_SUBSCRIPTION_PRICE_ID, STRIPE_PROCESSING_FEE_PRICE_ID)",
        );
      }
      const taxRates = gstTaxRate ? [gstTaxRate] : undefined;
      const subscription = await call<Subscription>(
        "POST",
        "/v1/subscriptions",
        {
          customer: customerId,
          default_payment_method: paymentMethodId,
          items: [{ price: yearlySubscription }],
          trial_period_days: trialDays,
          default_tax_rates: taxRates,
          payment_behavior: "allow_incomplete",
        },
        `subscription-${idempotencyKey}`,
      );
      await call(
        "POST",
        "/v1/invoiceitems",
        { customer: customerId, subscription: subscription.id, price: processingFee, tax_rates: taxRates },
        `processing-fee-${idempotencyKey}`,
      );
      const trialEndsAt = subscription.trial_end
        ? new Date(subscription.trial_end * 1000)
        : new Date(Date.now() + trialDays * 24 * 60 * 60 * 1000);
      return {
        subscriptionId: subscription.id,
        status: subscription.status === "active" ? "active" : "trialing",
        trialEndsAt,
      };
    },

    async createSetupCheckout({ holder, successUrl, cancelUrl, idempotencyKey }) {
      const customer = await call<Customer>(
        "POST",
        "/v1/customers",
        holderParams(holder),
        `customer-${idempotencyKey}`,
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
      const session = await call<CheckoutSession>("GET", `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`, {
        expand: ["setup_intent.payment_method"],
      });
      if (session.status === "expired") return { status: "expired" };
      const setupIntent = session.setup_intent;
      if (session.status !== "complete" || !setupIntent || typeof setupIntent === "string") return { status: "open" };
      if (setupIntent.status !== "succeeded" || !session.customer) return { status: "open" };
      const paymentMethod = await cardOf(setupIntent.payment_method);
      await makeDefault(session.customer, paymentMethod.id, { subscriptionId: options.subscriptionId }, session.id);
      return { status: "complete", card: savedCard(session.customer, paymentMethod) };
    },
  };
}
