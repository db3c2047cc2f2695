// The seller's fees at registration (spec section 9), in cents, in this one place. Nothing is
// charged at registration: the card is saved and the subscription starts when staff approve.

export const SELLER_TRIAL_DAYS = 7;

/** GST (Alberta): added on top of the subscription and the processing fee, never included in them. */
export const GST_PERCENT = 5;

/**
 * What Stripe must be configured with for these fees: checked at every start against the prices and
 * tax rate the app uses (stripe-fees.server.ts), so the fee table and the charge never differ.
 */
export const SELLER_FEES_AT_STRIPE = {
  currency: "cad",
  /** The subscription renews once a year. */
  interval: "year",
} as const;

export const SELLER_FEES = {
  trial: 0,
  yearlySubscription: 20_000,
  processingFee: 700,
  /** GST_PERCENT of the subscription and the processing fee. */
  gst: 1_035,
} as const;

export const SELLER_FEES_TOTAL =
  SELLER_FEES.trial + SELLER_FEES.yearlySubscription + SELLER_FEES.processingFee + SELLER_FEES.gst;

/** What renewing a cancelled subscription charges at once: the year and its GST (no processing fee, no trial). */
export const SELLER_RENEWAL_CENTS =
  SELLER_FEES.yearlySubscription + Math.round((SELLER_FEES.yearlySubscription * GST_PERCENT) / 100);

/** The fee table's rows, in the order the payment section shows them. */
export const SELLER_FEE_LINES = [
  { key: "trial", label: `${SELLER_TRIAL_DAYS}-day free trial`, cents: SELLER_FEES.trial },
  {
    key: "yearlySubscription",
    label: "Yearly subscription (non-refundable, starts after the trial)",
    cents: SELLER_FEES.yearlySubscription,
  },
  { key: "processingFee", label: "Processing fee", cents: SELLER_FEES.processingFee },
  { key: "gst", label: "GST", cents: SELLER_FEES.gst },
] as const;

/** Card brands the payment section accepts (spec section 9). */
export const ACCEPTED_CARD_BRANDS = ["Visa", "Mastercard", "American Express"] as const;

/** What a buyer pays for each awarded auction (spec section 1: "Buyers pay a per-auction fee"), before GST. */
export const BUYER_AUCTION_FEE_CENTS = 25_000;
