import type { FieldMetadata } from "@conform-to/react";
import { type RefObject, useEffect } from "react";
import { TextField } from "~/forms/field";
import {
  ACCEPTED_CARD_BRANDS,
  formatCents,
  SELLER_FEE_LINES,
  SELLER_FEES_TOTAL,
  SELLER_TRIAL_DAYS,
} from "~/payments/fees";
import { StripeCardFields, type StripeCardHandle } from "~/payments/stripe-card-fields";
import type { SellerPaymentSetup } from "./seller-registration-form.server";

// Section 10.0 Payment: the fee table and the card. No charge is taken at registration.

export const CARD_ERROR_ID = "card-error";

type CardFields = Record<"card_number" | "card_exp_month" | "card_exp_year" | "card_cvc", FieldMetadata<string>>;

export function SellerPaymentSection({
  id,
  payment,
  cardFields,
  cardError,
  cardErrorKey,
  stripeCard,
}: {
  id: string;
  payment: SellerPaymentSetup;
  cardFields: CardFields;
  /** The provider's message about the card (spec section 8), shown here with focus on the card number. */
  cardError?: string;
  /** Changes with each refusal, so focus moves to the card number again. */
  cardErrorKey?: unknown;
  stripeCard: RefObject<StripeCardHandle | null>;
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again on every refusal
  useEffect(() => {
    if (!cardError) return;
    if (payment.provider === "stripe") stripeCard.current?.focusCardNumber();
    else document.getElementById(cardFields.card_number.id)?.focus();
  }, [cardError, cardErrorKey]);

  return (
    <section className="form-section" aria-labelledby={`${id}-payment`}>
      <h2 id={`${id}-payment`}>10.0 Payment</h2>
      <p>
        <strong>No charge is taken today.</strong> Your card is saved with your registration. The {SELLER_TRIAL_DAYS}
        -day free trial and then the yearly subscription start once our staff approve your registration.
      </p>
      <table className="fee-table">
        <caption>Fees</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" className="fee-table__amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {SELLER_FEE_LINES.map((line) => (
            <tr key={line.key}>
              <th scope="row">{line.label}</th>
              <td className="fee-table__amount">{formatCents(line.cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="fee-table__amount">{formatCents(SELLER_FEES_TOTAL)}</td>
          </tr>
        </tfoot>
      </table>
      <p>We accept {ACCEPTED_CARD_BRANDS.join(", ").replace(/, ([^,]*)$/, " and $1")}.</p>

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
          fallback={
            <p>
              After you submit the form you will enter your card on Stripe's secure payment page, then come back here.
            </p>
          }
        />
      )}
    </section>
  );
}
