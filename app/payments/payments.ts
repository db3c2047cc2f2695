// What the app needs from a card payment provider: at registration, keep a card on file for a new
// customer (no charge); later, replace that card for the existing customer and its subscription; and
// for browsers without JavaScript a hosted setup page (Stripe Checkout in setup mode) for both. Card
// numbers never pass through here except to the offline test provider.

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

/** A seller's new card for its existing customer (and the subscription charged to it, when there is one). */
export type ReplaceCardRequest = {
  customerId: string;
  /** As for SaveCardRequest: a token (tok_…) or a PaymentMethod id (pm_…). */
  token: string;
  /** The provider's subscription, which is charged to the new card from now on. */
  subscriptionId?: string;
  /** Repeating a request with the same key attaches the card once. */
  idempotencyKey: string;
};

export type SetupCheckout = { sessionId: string; url: string; customerId: string };

export type SetupCheckoutResult = { status: "complete"; card: SavedCard } | { status: "open" } | { status: "expired" };

/** The card's fields as typed, for the offline test provider only. */
export type TestCardFields = { number: string; expMonth: string; expYear: string; cvc: string };

/** The seller's yearly subscription on the saved card, started at approval with the free trial. */
export type SubscriptionRequest = {
  customerId: string;
  paymentMethodId: string;
  trialDays: number;
  /**
   * A cancelled subscription started again (issue 19): no trial and no processing fee; the year is
   * charged at once, and a declined card is refused (CardError) rather than left incomplete.
   */
  renewal?: boolean;
  /** Repeating a request with the same key gives the same subscription. */
  idempotencyKey: string;
};

export type StartedSubscription = { subscriptionId: string; status: "trialing" | "active"; trialEndsAt: Date };

type CommonPayments = {
  saveCard(request: SaveCardRequest): Promise<SavedCard>;
  /** Attaches a new card to an existing customer and makes it the one its invoices and subscription are charged to. */
  replaceCard(request: ReplaceCardRequest): Promise<SavedCard>;
  startSubscription(request: SubscriptionRequest): Promise<StartedSubscription>;
  /**
   * Deletes a customer saved for a registration that was then refused (another attempt spent the
   * token first), so that no orphan stays at the provider with the card on file.
   */
  discardCustomer(customerId: string): Promise<void>;
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
  /** Checkout in setup mode for a customer that already exists (replacing its card). */
  createCardUpdateCheckout(request: {
    customerId: string;
    /** Ours, for Stripe's dashboard: which organization the session is for. */
    reference: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<SetupCheckout>;
  /**
   * A completed session's card becomes the customer's default (and the subscription's, when given).
   * Repeatable: reading a session twice changes nothing more.
   */
  readSetupCheckout(sessionId: string, options?: { subscriptionId?: string }): Promise<SetupCheckoutResult>;
};

export type TestCardPayments = CommonPayments & {
  provider: "test";
  /** Stands in for the browser library: card fields → a Stripe test token name, or a CardError. */
  tokenizeCard(card: TestCardFields): string;
  /** The customers it holds (not discarded), as Stripe's dashboard would list them: for tests. */
  listCustomers(): { id: string; holder: CardHolder }[];
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
