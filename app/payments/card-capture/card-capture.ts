import { z } from "zod";
import { textField } from "~/forms/text-schema";
import type { Payments } from "../payments";

// The card part of a form, the same in the seller registration form and on /account/card: what the
// page needs to know of the provider, the fields posted (Stripe.js's token, or the test provider's own
// card fields) with their one schema, and the messages both say.

/** What a page needs to know of the card provider (never a secret). */
export type CardPaymentSetup = { provider: "test" } | { provider: "stripe"; publishableKey: string };

export function cardPaymentSetup(payments: Payments): CardPaymentSetup {
  return payments.provider === "stripe"
    ? { provider: "stripe", publishableKey: payments.publishableKey }
    : { provider: "test" };
}

/** What Stripe.js made of the card (a token or PaymentMethod id), posted with the form; never the card number. */
export const STRIPE_TOKEN_FIELD = "stripe_payment_token";

/** Spec section 5: card number, month (MM), year (YY) and CVC are required. */
export const CARD_FIELD_MESSAGES = {
  card_number: "Please enter the card number",
  card_exp_month: "Please enter the expiry month (MM)",
  card_exp_year: "Please enter the expiry year (YY)",
  card_cvc: "Please enter the CVC",
} as const;

/** The test provider's own card fields. */
export const CARD_FIELD_NAMES = Object.keys(CARD_FIELD_MESSAGES) as (keyof typeof CARD_FIELD_MESSAGES)[];

/** Never sent back to the page: after any answer the card is typed again (and a token asked for again). */
export const CARD_CAPTURE_FIELD_NAMES = [STRIPE_TOKEN_FIELD, ...CARD_FIELD_NAMES];

/** The card part of a form's values as the browser sends them. */
export type CardCaptureValues = Record<typeof STRIPE_TOKEN_FIELD | (typeof CARD_FIELD_NAMES)[number], string>;

const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

const required = (message: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    textField({ error: message }).min(1, message).max(max, `Please use at most ${max} characters`),
  );

/**
 * The card part of a form's schema: Stripe.js's token (empty without it: the card is then typed on
 * Stripe Checkout), and with the offline test provider its card fields (Stripe's never reach us).
 */
export function cardCaptureSchema({ cardFields }: { cardFields: boolean }) {
  return {
    [STRIPE_TOKEN_FIELD]: z.preprocess(
      blankToUndefined,
      textField({ error: "Please enter text" }).max(255, "Please use at most 255 characters").optional(),
    ),
    ...(cardFields
      ? {
          card_number: required(CARD_FIELD_MESSAGES.card_number, 30),
          card_exp_month: required(CARD_FIELD_MESSAGES.card_exp_month, 2),
          card_exp_year: required(CARD_FIELD_MESSAGES.card_exp_year, 4),
          card_cvc: required(CARD_FIELD_MESSAGES.card_cvc, 4),
        }
      : {}),
  };
}

/** An API call that sent no card token (the form's own fields say which part of the card is missing). */
export const CARD_REQUIRED = "Please enter your card details.";

/** Stripe.js could not make a token of the card (its own message aside). */
export const CARD_CHECK_FAILED = "Your card could not be checked. Please try again.";

/** How the return from Stripe Checkout ended when the card is not in place. */
export type CheckoutReturnState = "cancelled" | "open" | "expired" | "unknown" | "unavailable";

/** The return page's message when Stripe could not be asked about the session. */
export const CHECKOUT_UNAVAILABLE =
  "Card payments are unavailable at the moment. Please reload this page in a few minutes.";
