import {
  CARD_NOT_SAVED,
  CardError,
  type CardHolder,
  PaymentProviderError,
  type SavedCard,
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
      // A PaymentMethod: a confirmed off-session SetupIntent checks the card and keeps it for later charges.
      const customer = await call<Customer>(
        "POST",
        "/v1/customers",
        holderParams(holder),
        `customer-${idempotencyKey}`,
      );
      let setupIntent: SetupIntent;
      try {
        setupIntent = await call<SetupIntent>(
          "POST",
          "/v1/setup_intents",
          {
            customer: customer.id,
            payment_method: token,
            payment_method_types: ["card"],
            usage: "off_session",
            confirm: true,
            expand: ["payment_method"],
          },
          `setup-${idempotencyKey}`,
        );
      } catch (error) {
        await call("DELETE", `/v1/customers/${encodeURIComponent(customer.id)}`).catch(() => undefined);
        throw error;
      }
      if (setupIntent.status !== "succeeded") {
        await call("DELETE", `/v1/customers/${encodeURIComponent(customer.id)}`).catch(() => undefined);
        throw new CardError(
          "Your card needs extra authentication that this form cannot complete. Please use another card.",
          setupIntent.status,
        );
      }
      const paymentMethod = await cardOf(setupIntent.payment_method);
      await call(
        "POST",
        `/v1/customers/${encodeURIComponent(customer.id)}`,
        { invoice_settings: { default_payment_method: paymentMethod.id } },
        `default-${idempotencyKey}`,
      );
      return {
        customerId: customer.id,
        paymentMethodId: paymentMethod.id,
        brand: paymentMethod.card?.brand ?? null,
        last4: paymentMethod.card?.last4 ?? null,
      };
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
      const session = await call<CheckoutSession>(
        "POST",
        "/v1/checkout/sessions",
        {
          mode: "setup",
          customer: customer.id,
          payment_method_types: ["card"],
          client_reference_id: holder.reference,
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { registration: holder.reference },
        },
        `checkout-${idempotencyKey}`,
      );
      if (!session.url) throw new PaymentProviderError("Stripe returned a Checkout Session without a URL");
      return { sessionId: session.id, url: session.url, customerId: customer.id };
    },

    async readSetupCheckout(sessionId): Promise<SetupCheckoutResult> {
      const session = await call<CheckoutSession>("GET", `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`, {
        expand: ["setup_intent.payment_method"],
      });
      if (session.status === "expired") return { status: "expired" };
      const setupIntent = session.setup_intent;
      if (session.status !== "complete" || !setupIntent || typeof setupIntent === "string") return { status: "open" };
      if (setupIntent.status !== "succeeded" || !session.customer) return { status: "open" };
      const paymentMethod = await cardOf(setupIntent.payment_method);
      await call(
        "POST",
        `/v1/customers/${encodeURIComponent(session.customer)}`,
        { invoice_settings: { default_payment_method: paymentMethod.id } },
        `default-${session.id}`,
      );
      return {
        status: "complete",
        card: {
          customerId: session.customer,
          paymentMethodId: paymentMethod.id,
          brand: paymentMethod.card?.brand ?? null,
          last4: paymentMethod.card?.last4 ?? null,
        },
      };
    },
  };
}
