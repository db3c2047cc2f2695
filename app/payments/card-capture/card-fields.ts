import { z } from "zod";
import { textField } from "~/forms/text-schema";
import type { Payments } from "../payments";

// The card part of a form, shared by the seller registration form and the page that replaces a
// seller's card: what the page needs to know of the provider, and the test provider's own fields.

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

/** Never sent back to the page: after any answer the card is typed again. */
export const CARD_FIELD_NAMES = Object.keys(CARD_FIELD_MESSAGES) as (keyof typeof CARD_FIELD_MESSAGES)[];

const required = (message: string, max: number) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    textField({ error: message }).min(1, message).max(max, `Please use at most ${max} characters`),
  );

/** The offline test provider's card fields (Stripe's own fields never reach us). */
export const cardFieldsSchema = {
  card_number: required(CARD_FIELD_MESSAGES.card_number, 30),
  card_exp_month: required(CARD_FIELD_MESSAGES.card_exp_month, 2),
  card_exp_year: required(CARD_FIELD_MESSAGES.card_exp_year, 4),
  card_cvc: required(CARD_FIELD_MESSAGES.card_cvc, 4),
};
