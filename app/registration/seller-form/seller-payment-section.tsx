import { CardCaptureFields, type CardCaptureFieldsProps } from "~/payments/card-capture/card-capture-fields";
import { ACCEPTED_CARD_BRANDS, SELLER_FEE_LINES, SELLER_FEES_TOTAL, SELLER_TRIAL_DAYS } from "~/payments/fees";
import { formatCents } from "~/shared/money";

// Section 10.0 Payment: the fee table and the card. No charge is taken at registration.

export function SellerPaymentSection(card: Omit<CardCaptureFieldsProps, "stripeFallback">) {
  const { id } = card;
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

      <CardCaptureFields
        {...card}
        stripeFallback={
          <p>
            After you submit the form you will enter your card on Stripe's secure payment page, then come back here.
          </p>
        }
      />
    </section>
  );
}
