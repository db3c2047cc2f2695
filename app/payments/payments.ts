// What the app needs from a card payment provider at registration: keep a card on file for a new
// customer (no charge), and for browsers without JavaScript a hosted setup page (Stripe Checkout in
// setup mode). Card numbers never pass through here except to the offline test provider.

/** The customer a card is saved for. */
export type CardHolder = { name: string; email: string; reference: string };

export type SaveCardRequest = {
  /** What the provider's browser library returned: a token (tok_…) or a PaymentMethod id (pm_…). */
  token: string;
  holder: CardHolder;
  /** Repeating a request with the same key gives the same customer (double submits, retries). */
  idempotencyKey: string;
};

/** Ids at the provider; never card numbers. */
export type SavedCard = { customerId: string; paymentMethodId: string; brand: string | null; last4: string | null };

export type SetupCheckout = { sessionId: string; url: string; customerId: string };

export type SetupCheckoutResult = { status: "complete"; card: SavedCard } | { status: "open" } | { status: "expired" };

/** The card's fields as typed, for the offline test provider only. */
export type TestCardFields = { number: string; expMonth: string; expYear: string; cvc: string };

/** The seller's yearly subscription on the saved card, started at approval with the free trial. */
export type SubscriptionRequest = {
  customerId: string;
  paymentMethodId: string;
  trialDays: number;
  /** Repeating a request with the same key gives the same subscription. */
  idempotencyKey: string;
};

export type StartedSubscription = { subscriptionId: string; status: "trialing" | "active"; trialEndsAt: Date };

type CommonPayments = {
  saveCard(request: SaveCardRequest): Promise<SavedCard>;
  startSubscription(request: SubscriptionRequest): Promise<StartedSubscription>;
};

export type StripePayments = CommonPayments & {
  provider: "stripe";
  publishableKey: string;
  /** Price ids for the subscription started at approval (a later issue); optional until then. */
  prices: { yearlySubscription?: string; processingFee?: string; gstTaxRate?: string };
  createSetupCheckout(request: {
    holder: CardHolder;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<SetupCheckout>;
  readSetupCheckout(sessionId: string): Promise<SetupCheckoutResult>;
};

export type TestCardPayments = CommonPayments & {
  provider: "test";
  /** Stands in for the browser library: card fields → a Stripe test token name, or a CardError. */
  tokenizeCard(card: TestCardFields): string;
};

export type Payments = StripePayments | TestCardPayments;

/** The card was refused; the message is the provider's, for the applicant. */
export class CardError extends Error {
  override name = "CardError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The provider could not be reached or failed; not the applicant's fault. */
export class PaymentProviderError extends Error {
  override name = "PaymentProviderError";
}

export const PAYMENT_UNAVAILABLE = "Card payments are unavailable at the moment. Please try again in a few minutes.";
export const CARD_NOT_SAVED = "Your card could not be saved. Please check the card details and try again.";
