import { type FormEvent, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { type CardPaymentSetup, STRIPE_TOKEN_FIELD } from "./card-fields";
import type { StripeCardHandle } from "./stripe-card-fields";

const CARD_CHECK_FAILED = "Your card could not be checked. Please try again.";

/**
 * Stripe.js's token at submit time, in spec section 4's order: once the form's own checks have
 * passed, the browser's submission is held, the token asked for, and the form sent with it; a
 * refusal stops there with focus on the card number. Without Stripe.js (the test provider, Stripe.js
 * blocked, JavaScript off) the form goes as it is, and with Stripe the server sends the user to
 * Checkout instead.
 */
export function useCardToken(provider: CardPaymentSetup["provider"]) {
  const stripeCard = useRef<StripeCardHandle | null>(null);
  const submit = useSubmit();
  const [requestingToken, setRequestingToken] = useState(false);
  const [cardRefusal, setCardRefusal] = useState<{ message: string; attempt: number }>();

  async function sendWithToken(formElement: HTMLFormElement, card: StripeCardHandle, attempt: number) {
    setRequestingToken(true);
    const result = await card
      .createToken()
      .catch(() => ({ error: CARD_CHECK_FAILED }))
      .finally(() => setRequestingToken(false));
    if ("error" in result) {
      setCardRefusal({ message: result.error, attempt });
      card.focusCardNumber();
      return;
    }
    setCardRefusal(undefined);
    // The token goes with this submission only: a later one (after a refusal) asks for a new token.
    const formData = new FormData(formElement);
    formData.set(STRIPE_TOKEN_FIELD, result.token);
    // Straight to the router: the form was checked a moment ago, and the token must not be asked for twice.
    void submit(formData, { method: "post" });
  }

  /** For the form's onSubmit, after its own checks: takes the submission over when a token is needed. */
  function submitWithToken(event: FormEvent<HTMLFormElement>, attempt: number) {
    if (event.defaultPrevented || provider !== "stripe") return;
    const card = stripeCard.current;
    // Without Stripe.js (blocked) the form goes on and the server sends the user to Checkout.
    if (!card) return;
    event.preventDefault();
    void sendWithToken(event.currentTarget, card, attempt);
  }

  return { stripeCard, requestingToken, cardRefusal, submitWithToken };
}
