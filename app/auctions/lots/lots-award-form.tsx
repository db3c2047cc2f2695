import { Form, Link } from "react-router";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { FieldError } from "~/forms/text-input";
import { formatCents } from "~/shared/money";
import { unbidLotsText } from "../auction-words";
import type { LotsAwardData } from "./lots-award-page.server";

// The award form of a lotted auction (issue 31): what lot by lot costs against one seller for every
// lot, then per lot its sellers' best bids (the lowest ticked, or the best-ranked where the evaluation
// has criteria) and a reason where another is chosen.

export type LotsAwardAnswer =
  | {
      kind: "refused";
      message: string;
      lots: Record<number, string>;
      values: Record<string, { bidId: number; reason?: string }>;
    }
  | {
      kind: "confirm";
      choices: { lotId: number; bidId: number; reason?: string }[];
      summary: { lot: string; name: string; amountCents: number }[];
    };

export function LotsAwardForm({
  data,
  answer,
  feeCents,
}: {
  data: LotsAwardData;
  answer?: LotsAwardAnswer;
  feeCents: number;
}) {
  if (answer?.kind === "confirm") {
    return (
      <section aria-labelledby="confirm-award" className="card">
        <h2 id="confirm-award">Award the lots as follows?</h2>
        <ul>
          {answer.summary.map((row) => (
            <li key={row.lot}>{`${row.lot}: ${row.name} at ${formatCents(row.amountCents)}`}</li>
          ))}
        </ul>
        <p>
          {`The winners and the other bidders are e-mailed, and the buyer fee of ${formatCents(feeCents)} is recorded. This cannot be undone.`}
        </p>
        <Form method="post" className="button-row">
          {answer.choices.map((choice) => (
            <span key={choice.lotId}>
              <input type="hidden" name={`lot_${choice.lotId}`} value={choice.bidId} />
              <input type="hidden" name={`reason_${choice.lotId}`} value={choice.reason ?? ""} />
            </span>
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <SubmitButton>Yes, award</SubmitButton>
          <Link to=".">No, go back</Link>
        </Form>
      </section>
    );
  }
  const refused = answer?.kind === "refused" ? answer : undefined;
  /** Each lot's first bid: its lowest, or its best-ranked where the evaluation has criteria. */
  const first = data.ranked ? "best-ranked" : "lowest";
  const fieldErrors = Object.entries(refused?.lots ?? {}).map(([lotId, message]) => {
    const lot = data.lots.find((row) => String(row.id) === lotId);
    return { fieldId: `award-lot-${lotId}-${lot?.bids[0]?.bidId ?? 0}`, message: `${lot?.name ?? "Lot"}: ${message}` };
  });
  return (
    <>
      <ErrorSummary
        formErrors={refused && fieldErrors.length === 0 ? [refused.message] : undefined}
        fieldErrors={fieldErrors}
        submissionKey={[answer]}
      />
      <section aria-labelledby="award-compare" className="card">
        <h2 id="award-compare">What each choice costs</h2>
        <table className="table">
          <caption className="visually-hidden">Lot by lot against one seller for every lot</caption>
          <thead>
            <tr>
              <th scope="col">Award</th>
              <th scope="col">Total</th>
              <th scope="col">Over lot by lot</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{`Each lot to its ${first} bid`}</th>
              <td>{formatCents(data.lotByLotCents)}</td>
              <td>—</td>
            </tr>
            {data.oneSeller.map((row) => (
              <tr key={row.organizationId}>
                <th scope="row">
                  <Link to={`?seller=${row.organizationId}`}>{`Every lot to ${row.name}`}</Link>
                </th>
                <td>{formatCents(row.totalCents)}</td>
                <td>{row.overCents < 0 ? `${formatCents(-row.overCents)} under` : formatCents(row.overCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="field__hint">
          {data.oneSeller.length === 0
            ? "No seller bid on every lot, so the lots cannot all go to one seller."
            : `Choosing one seller for every lot ticks their bid on each lot below; a lot where it is not the ${first} needs a reason.`}
          {unbidLotsText(data.unbid)}
        </p>
        {data.notQualified.length > 0 ? (
          <p>
            {`Not offered, as the technical evaluation did not qualify them: ${data.notQualified
              .map((row) => (row.reason ? `${row.name} (${row.reason})` : row.name))
              .join("; ")}.`}
          </p>
        ) : null}
      </section>
      <Form method="post" className="stack">
        {data.lots.map((lot) => {
          const error = refused?.lots[lot.id];
          const chosen = refused?.values[lot.id]?.bidId ?? lot.chosen;
          return lot.bids.length === 0 ? (
            <p key={lot.id}>{`${lot.name}: nobody bid.`}</p>
          ) : (
            <fieldset key={lot.id} className={error ? "fieldset field--error" : "fieldset"}>
              <legend className="fieldset__legend">{`${lot.name}: each bidder's best total, ${first} first`}</legend>
              <FieldError id={`award-lot-${lot.id}-error`} errors={error ? [error] : undefined} />
              {lot.bids.map((bid, index) => (
                <div className="checkbox" key={bid.bidId}>
                  <input
                    className="checkbox__input"
                    type="radio"
                    name={`lot_${lot.id}`}
                    id={`award-lot-${lot.id}-${bid.bidId}`}
                    value={bid.bidId}
                    defaultChecked={bid.bidId === chosen}
                    aria-describedby={error ? `award-lot-${lot.id}-error` : undefined}
                  />
                  <label className="checkbox__label" htmlFor={`award-lot-${lot.id}-${bid.bidId}`}>
                    {`${bid.name}: ${formatCents(bid.amountCents)}${index === 0 ? ` (${first})` : ""}`}
                  </label>
                </div>
              ))}
              <div className="field">
                <label className="field__label" htmlFor={`award-reason-${lot.id}`}>
                  {`Reason for passing over the ${first} bid on ${lot.name}`}
                </label>
                <span className="field__hint" id={`award-reason-${lot.id}-hint`}>
                  {`Required only when you choose another bid than the ${first}. Recorded with the award.`}
                </span>
                <textarea
                  className="textarea"
                  id={`award-reason-${lot.id}`}
                  name={`reason_${lot.id}`}
                  rows={2}
                  defaultValue={refused?.values[lot.id]?.reason ?? ""}
                  aria-describedby={`award-reason-${lot.id}-hint`}
                />
              </div>
            </fieldset>
          );
        })}
        {refused && fieldErrors.length > 0 ? (
          <Alert title="Not awarded yet">
            <p>{refused.message}</p>
          </Alert>
        ) : null}
        <SubmitButton>Review the award</SubmitButton>
      </Form>
    </>
  );
}
