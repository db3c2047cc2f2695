import type { FieldMetadata } from "@conform-to/react";
import { type ReactNode, type RefObject, useEffect } from "react";
import { TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import type { CardPaymentSetup } from "./card-capture";
import { StripeCardFields, type StripeCardHandle } from "./stripe-card-fields";

// The card of a form (the seller registration form, /account/card): the provider's refusal in an
// alert with focus on the card number, then the test provider's own fields or Stripe.js's. The card
// number is never sent back by the server: after a refusal it is typed again. useCardCapture gives
// the error, its key and the Stripe.js handle.

export const CARD_ERROR_ID = "card-error";

export type CardFieldsMetadata = Record<
  "card_number" | "card_exp_month" | "card_exp_year" | "card_cvc",
  FieldMetadata<string>
>;

/** The card fields' errors for the form's error summary, in the order they appear. */
export const cardSummaryLinks = (fields: CardFieldsMetadata) =>
  summaryLinks([fields.card_number, fields.card_exp_month, fields.card_exp_year, fields.card_cvc]);

export type CardCaptureFieldsProps = {
  id: string;
  payment: CardPaymentSetup;
  cardFields: CardFieldsMetadata;
  /** The provider's message about the card (spec section 8), shown here with focus on the card number. */
  cardError?: string;
  /** Changes with each refusal, so focus moves to the card number again. */
  cardErrorKey?: unknown;
  stripeCard: RefObject<StripeCardHandle | null>;
  /** With Stripe, shown until its fields are ready, and without JavaScript (the card is then typed on Checkout). */
  stripeFallback: ReactNode;
};

export function CardCaptureFields({
  id,
  payment,
  cardFields,
  cardError,
  cardErrorKey,
  stripeCard,
  stripeFallback,
}: CardCaptureFieldsProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on every refusal
  useEffect(() => {
    if (!cardError) return;
    if (payment.provider === "stripe") stripeCard.current?.focusCardNumber();
    else document.getElementById(cardFields.card_number.id)?.focus();
  }, [cardError, cardErrorKey]);

  return (
    <>
      {cardError ? (
        <div className="alert alert--error" id={CARD_ERROR_ID} role="alert">
          <h3 className="alert__title">Error!</h3>
          <p>{cardError}</p>
        </div>
      ) : null}

      {payment.provider === "test" ? (
        <fieldset className="fieldset" aria-describedby={`${id}-test-cards`}>
          <legend className="fieldset__legend">Card Details</legend>
          <p className="field__hint" id={`${id}-test-cards`}>
            Payments are in test mode: no card is charged. Card 4242 4242 4242 4242 is accepted and 4000 0000 0000 0002
            is declined, with any future expiry date and any CVC.
          </p>
          <TextField
            field={cardFields.card_number}
            label="Card Number"
            inputProps={{
              inputMode: "numeric",
              autoComplete: "cc-number",
              // Server render after a refusal: the card number takes focus (spec section 4).
              autoFocus: Boolean(cardError),
              "aria-describedby": cardError ? CARD_ERROR_ID : undefined,
              "aria-invalid": cardError ? true : undefined,
            }}
          />
          <div className="card-expiry">
            <TextField
              field={cardFields.card_exp_month}
              label="Expiry Month (MM)"
              inputProps={{ inputMode: "numeric", autoComplete: "cc-exp-month", maxLength: 2, size: 3 }}
            />
            <TextField
              field={cardFields.card_exp_year}
              label="Expiry Year (YY)"
              inputProps={{ inputMode: "numeric", autoComplete: "cc-exp-year", maxLength: 4, size: 5 }}
            />
            <TextField
              field={cardFields.card_cvc}
              label="CVC"
              inputProps={{ inputMode: "numeric", autoComplete: "cc-csc", maxLength: 4, size: 5 }}
            />
          </div>
        </fieldset>
      ) : (
        <StripeCardFields
          publishableKey={payment.publishableKey}
          handleRef={stripeCard}
          errorId={cardError ? CARD_ERROR_ID : undefined}
          fallback={stripeFallback}
        />
      )}
    </>
  );
}
