import { type FormEvent, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { CARD_CHECK_FAILED, type CardPaymentSetup, STRIPE_TOKEN_FIELD } from "./card-capture";
import type { StripeCardHandle } from "./stripe-card-fields";

/**
 * The browser's side of a card form: the attempts counted, the card's error (Stripe.js's refusal, or
 * the server's `serverCardError`, with focus on the card number after each) and Stripe.js's token at
 * submit time, in spec section 4's order: once the form's own checks have passed, the browser's
 * submission is held, the token asked for, and the form sent with it; a refusal stops there. Without
 * Stripe.js (the test provider, Stripe.js blocked, JavaScript off) the form goes as it is, and with
 * Stripe the server sends the user to Checkout instead. `serverAnswer` is the action's last answer.
 */
export function useCardCapture(
  payment: CardPaymentSetup | undefined,
  { serverAnswer, serverCardError }: { serverAnswer: unknown; serverCardError?: string },
) {
  const stripeCard = useRef<StripeCardHandle | null>(null);
  const submit = useSubmit();
  const [attempts, setAttempts] = useState(0);
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

  /**
   * The form's onSubmit: counts the attempt, runs the form's own checks (`checkForm`, Conform's
   * onSubmit), then takes the submission over when a token is needed. A button that only changes the
   * form (`attempt: false`, Conform's intents) is neither counted nor given a token.
   */
  function onSubmit(
    event: FormEvent<HTMLFormElement>,
    checkForm: (event: FormEvent<HTMLFormElement>) => void,
    { attempt = true } = {},
  ) {
    if (attempt) setAttempts((count) => count + 1);
    checkForm(event);
    if (!attempt || event.defaultPrevented || payment?.provider !== "stripe") return;
    const card = stripeCard.current;
    // Without Stripe.js (blocked) the form goes on and the server sends the user to Checkout.
    if (!card) return;
    event.preventDefault();
    void sendWithToken(event.currentTarget, card, attempts + 1);
  }

  return {
    attempts,
    requestingToken,
    onSubmit,
    /** For CardCaptureFields. */
    card: {
      cardError: cardRefusal?.message ?? serverCardError,
      cardErrorKey: [serverAnswer, cardRefusal?.attempt],
      stripeCard,
    },
  };
}
