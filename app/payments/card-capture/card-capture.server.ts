import { data, redirect } from "react-router";
import { hasDisallowedCharacters } from "~/forms/text-schema";
import { logger } from "~/platform/logger.server";
import type { sellerRegistrations } from "~db/schema";
import { askProvider, type ProviderRefusal } from "../ask-provider.server";
import { CardError, type CardHolder, type Payments, type SavedCard } from "../payments";
import type { CheckoutReturnState } from "./card-capture";

// The server side of a card capture, the same for the seller registration form and /account/card:
// what the posted form says of the card, asking the provider to save it or to start Stripe Checkout,
// how a form answers the provider's refusal, and the return from Checkout. What is written once the
// card is saved is each capability's own (the registration; the replaced card of decision 004).

export type CheckoutUrls = { successUrl: string; cancelUrl: string };

/** What the posted form gives: a token to save, Checkout to send the user to, or the test provider's refusal. */
export type PostedCard =
  | { kind: "token"; token: string }
  | { kind: "checkout"; urls: CheckoutUrls }
  | { kind: "card-refused"; message: string };

/**
 * The test provider makes a token of its card fields (refusing a card at once); with Stripe the token
 * Stripe.js posted (`stripeToken`, as parsed), or without one (JavaScript off, Stripe.js blocked)
 * Stripe Checkout in setup mode, coming back to `returnPath`.
 */
export function readPostedCard(
  payments: Payments,
  formData: FormData,
  stripeToken: string | undefined,
  checkout: { appUrl: string; returnPath: string },
): PostedCard {
  if (payments.provider === "test") {
    try {
      const token = payments.tokenizeCard({
        number: String(formData.get("card_number") ?? ""),
        expMonth: String(formData.get("card_exp_month") ?? ""),
        expYear: String(formData.get("card_exp_year") ?? ""),
        cvc: String(formData.get("card_cvc") ?? ""),
      });
      return { kind: "token", token };
    } catch (error) {
      if (!(error instanceof CardError)) throw error;
      return { kind: "card-refused", message: error.message };
    }
  }
  if (stripeToken) return { kind: "token", token: stripeToken };
  const returnUrl = `${checkout.appUrl}${checkout.returnPath}`;
  // Stripe fills {CHECKOUT_SESSION_ID} in.
  return {
    kind: "checkout",
    urls: { successUrl: `${returnUrl}?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${returnUrl}?cancelled=1` },
  };
}

/** The customer a card is saved for, as the provider is told (the e-mail in lower case). */
export const cardHolder = (who: { name: string; email: string }, reference: string): CardHolder => ({
  name: who.name,
  email: who.email.toLowerCase(),
  reference,
});

/**
 * Where a card goes: to the customer on file (and the subscription charged to it, when given), or
 * to a new customer for the holder.
 */
export type CardCustomer = { customerId: string; subscriptionId?: string; reference: string } | { holder: CardHolder };

/** Asks the provider to save the card (no charge), idempotent per key; a refusal or an outage is an outcome. */
export function askToSaveCard(
  payments: Payments,
  what: string,
  request: { token: string; customer: CardCustomer; idempotencyKey: string },
) {
  const { token, customer, idempotencyKey } = request;
  return askProvider(what, () =>
    "customerId" in customer
      ? payments.replaceCard({
          customerId: customer.customerId,
          token,
          subscriptionId: customer.subscriptionId,
          idempotencyKey,
        })
      : payments.saveCard({ token, holder: customer.holder, idempotencyKey }),
  );
}

/** Asks Stripe for a Checkout session in setup mode, where the user types the card (JavaScript off). */
export function askToStartCheckout(
  payments: Payments,
  what: string,
  request: { customer: CardCustomer; urls: CheckoutUrls; idempotencyKey: string },
) {
  if (payments.provider !== "stripe") throw new Error("Stripe Checkout needs Stripe to be configured");
  const { customer, urls, idempotencyKey } = request;
  return askProvider(what, () =>
    "customerId" in customer
      ? payments.createCardUpdateCheckout({
          customerId: customer.customerId,
          reference: customer.reference,
          ...urls,
          idempotencyKey,
        })
      : payments.createSetupCheckout({ holder: customer.holder, ...urls, idempotencyKey }),
  );
}

/** A seller's card on file, as its registration keeps it: ids, brand and last four only, never the number. */
export const savedCardColumns = (card: SavedCard, provider: Payments["provider"]) =>
  ({
    paymentStatus: "card_saved",
    paymentProvider: provider,
    paymentCustomerId: card.customerId,
    paymentMethodId: card.paymentMethodId,
    cardBrand: card.brand,
    cardLast4: card.last4,
    cardSavedAt: new Date(),
  }) satisfies Partial<typeof sellerRegistrations.$inferInsert>;

/**
 * How a card form answers the provider's refusal: a refused card by the card fields (400, focus on
 * the card number), an outage as the form's message (503). `reply` is the form's Conform reply.
 */
export function answerRefusal<Result>(
  refusal: ProviderRefusal,
  reply: (options?: { formErrors: string[] }) => Result,
): { status: number; result: Result; cardError?: string } {
  return refusal.kind === "card-refused"
    ? { status: 400, result: reply(), cardError: refusal.message }
    : { status: 503, result: reply({ formErrors: [refusal.message] }) };
}

/**
 * The loader of a page Stripe Checkout comes back to, `?session_id=…` (or `?cancelled=1`): `complete`
 * puts the session's card in place and says how it went; once it is in place the user goes on to
 * `completedPath`, otherwise the page says why not, with the status `statuses` gives (200 when it names
 * none). A malformed session id is one we do not know; a failure reading it is "unavailable".
 */
export async function answerCheckoutReturn(
  request: Request,
  options: {
    complete: (sessionId: string) => Promise<"complete" | Exclude<CheckoutReturnState, "cancelled" | "unavailable">>;
    completedPath: string;
    statuses?: Partial<Record<CheckoutReturnState, number>>;
    /** For the log, when the session could not be read. */
    what: string;
  },
) {
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id");
  const answer = (state: CheckoutReturnState) => data({ state }, { status: options.statuses?.[state] ?? 200 });
  if (!sessionId) return answer(url.searchParams.has("cancelled") ? "cancelled" : "unknown");
  if (sessionId.length > 255 || hasDisallowedCharacters(sessionId)) return answer("unknown");
  let state: Awaited<ReturnType<typeof options.complete>>;
  try {
    state = await options.complete(sessionId);
  } catch (error) {
    logger.error({ err: error }, `${options.what} failed`);
    return answer("unavailable");
  }
  return state === "complete" ? redirect(options.completedPath) : answer(state);
}
