import { type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { RadioGroupField, radioId, SelectField, TextAreaField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { useHydrated } from "~/forms/use-hydrated";
import type { AuctionFormOptions } from "./auction-form.server";
import { type AuctionFormValue, auctionFormSchema } from "./auction-schema";
import { DecrementFields } from "./decrement-fields";

/** The form's fields as the browser sends them. */
type AuctionFormFields = Record<
  | "kind"
  | "title"
  | "description"
  | "service"
  | "service_area"
  | "reserve"
  | "decrement_kind"
  | "decrement_amount"
  | "decrement_percent"
  | "seller_view"
  | "starts_at"
  | "ends_at"
  | "soft_close_window"
  | "soft_close_extension"
  | "soft_close_cap"
  | "evaluator"
  | "price_weight"
  | "pass_mark"
  | "requirements",
  string
>;

/** What sellers see of a reverse auction (issue 31). */
const SELLER_VIEWS = [
  { value: "lowest", label: "The lowest bid: every seller sees the price to beat" },
  {
    value: "rank",
    label: 'Their rank only: each seller sees their place ("You are 2nd"), never another seller\'s price',
  },
];

const AUCTION_KINDS = [
  { value: "reverse", label: "Reverse auction: sellers bid the price down in the open until the end" },
  { value: "sealed", label: "Sealed bids: one bid each with its documents, opened after the deadline" },
];

/**
 * The terms of a reverse auction: what is bought, where, the reserve (the buyer's maximum), how far
 * each bid must go under the lowest, the bidding time and the soft close. A plain form; the server
 * checks everything again and answers with the values kept.
 */
export function AuctionTermsForm({
  id,
  options,
  defaultValue,
  lastResult,
  submitLabel,
  lotsLink,
}: {
  id: string;
  /** An auction priced by lots (issue 31): its reserves and decrements are set on the lots page, here. */
  lotsLink?: string;
  options: AuctionFormOptions;
  defaultValue: Partial<AuctionFormFields>;
  lastResult?: SubmissionResult<string[]>;
  submitLabel: string;
}) {
  const [form, fields] = useForm<AuctionFormFields, AuctionFormValue>({
    id,
    lastResult,
    defaultValue,
    ...validatedBy(auctionFormSchema),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, lastResult);
  // Without JavaScript both kinds' fields show (each says which kind it is for); with it, only the chosen kind's.
  const hydrated = useHydrated();
  const sealed = fields.kind.value === "sealed";
  const fieldLinks = [
    ...(fields.kind.errors ?? []).map((message) => ({ fieldId: radioId(fields.kind, 0), message })),
    ...summaryLinks([fields.title, fields.description, fields.service, fields.service_area, fields.reserve]),
    ...(fields.decrement_kind.errors ?? []).map((message) => ({ fieldId: radioId(fields.decrement_kind, 0), message })),
    ...(fields.seller_view.errors ?? []).map((message) => ({ fieldId: radioId(fields.seller_view, 0), message })),
    ...summaryLinks([
      fields.decrement_amount,
      fields.decrement_percent,
      fields.starts_at,
      fields.ends_at,
      fields.soft_close_window,
      fields.soft_close_extension,
      fields.soft_close_cap,
      fields.requirements,
      fields.evaluator,
      fields.price_weight,
      fields.pass_mark,
    ]),
  ];
  return (
    <Form method="post" {...formProps} className="stack">
      <ErrorSummary
        formErrors={fieldLinks.length > 0 ? ["Please correct the fields below."] : (form.errors ?? [])}
        fieldErrors={fieldLinks}
        submissionKey={submissionKey}
      />
      <RadioGroupField field={fields.kind} legend="Kind of auction" options={AUCTION_KINDS} />
      <section className="form-section" aria-labelledby={`${id}-work`}>
        <h2 id={`${id}-work`}>The work</h2>
        <TextField
          field={fields.title}
          label="Title"
          hint="What sellers see first, e.g. 'Gravel hauling to 12-34 lease'."
        />
        <TextAreaField field={fields.description} label="Description" rows={6} />
        <SelectField field={fields.service} label="Service category" options={options.services} />
        <SelectField field={fields.service_area} label="Service area" options={options.serviceAreas} />
      </section>
      <section className="form-section" aria-labelledby={`${id}-price`}>
        <h2 id={`${id}-price`}>Price</h2>
        {lotsLink ? (
          <>
            <p>
              {"This auction is priced by lots: each lot's reserve (and a reverse auction's decrement) is set on "}
              <Link to={lotsLink}>its lots page</Link>.
            </p>
            {/* The server keeps the lots' own terms; these only carry the form's checks through. */}
            <input type="hidden" name={fields.reserve.name} value={defaultValue.reserve ?? ""} />
            <input type="hidden" name={fields.decrement_kind.name} value={defaultValue.decrement_kind ?? ""} />
            <input type="hidden" name={fields.decrement_amount.name} value={defaultValue.decrement_amount ?? ""} />
            <input type="hidden" name={fields.decrement_percent.name} value={defaultValue.decrement_percent ?? ""} />
          </>
        ) : (
          <>
            <TextField
              field={fields.reserve}
              label="Reserve price (CAD)"
              hint="Your maximum: no bid may be higher. Dollars and cents, e.g. 25000.00."
              inputProps={{ inputMode: "decimal", autoComplete: "off" }}
            />
            <div className="stack" hidden={hydrated && sealed}>
              <DecrementFields
                kind={fields.decrement_kind}
                amount={fields.decrement_amount}
                percent={fields.decrement_percent}
                legend="Each bid must be lower than the lowest bid by at least"
              />
              {hydrated ? null : <p className="field__hint">The decrement is for a reverse auction only.</p>}
            </div>
          </>
        )}
      </section>
      <section className="form-section" aria-labelledby={`${id}-sealed`} hidden={hydrated && !sealed}>
        <h2 id={`${id}-sealed`}>Sealed bids</h2>
        <TextAreaField
          field={fields.requirements}
          label="Documents each bid must carry"
          hint="For a sealed auction only: one per line, e.g. Price schedule, Technical proposal, Safety documents."
          rows={5}
        />
      </section>
      <section className="form-section" aria-labelledby={`${id}-time`}>
        <h2 id={`${id}-time`}>Bidding time</h2>
        <p className="field__hint">Times are in your time zone, {options.timezone}. Each seller sees them in theirs.</p>
        <TextField field={fields.starts_at} label="Bidding starts" type="datetime-local" />
        <TextField
          field={fields.ends_at}
          label="Bidding ends"
          type="datetime-local"
          hint="For sealed bids this is the submission deadline: nobody can read a bid before it."
        />
        <div hidden={hydrated && sealed}>
          <RadioGroupField
            field={fields.seller_view}
            legend="What sellers see while bidding"
            hint="For a reverse auction only. With ranks only, each bid must beat the seller's own last bid, and sellers set no secret minimum."
            options={SELLER_VIEWS}
          />
        </div>
        <fieldset className="fieldset" hidden={hydrated && sealed}>
          <legend className="fieldset__legend">Soft close</legend>
          <p className="field__hint">
            For a reverse auction only. A bid in the last minutes moves the end later, so nobody can win by bidding at
            the last second. Enter 0 to turn it off.
          </p>
          <TextField
            field={fields.soft_close_window}
            label="A bid this many minutes before the end…"
            inputProps={{ inputMode: "numeric" }}
          />
          <TextField
            field={fields.soft_close_extension}
            label="…moves the end this many minutes later"
            inputProps={{ inputMode: "numeric" }}
          />
          <TextField
            field={fields.soft_close_cap}
            label="In all, the end moves at most this many minutes"
            inputProps={{ inputMode: "numeric" }}
          />
        </fieldset>
      </section>
      <section className="form-section" aria-labelledby={`${id}-evaluation`}>
        <h2 id={`${id}-evaluation`}>Technical evaluation</h2>
        <p className="field__hint">
          Bids can be scored on weighted technical criteria, set on the evaluation page before bidding opens. The
          ranking combines price and technical score by the weights below.
        </p>
        <SelectField
          field={fields.evaluator}
          label="Who evaluates the bids"
          options={options.evaluators}
          placeholder="Our organization"
        />
        <TextField
          field={fields.price_weight}
          label="Weight of price in the ranking (%)"
          hint="The rest is the technical score. 100 ranks by price alone."
          inputProps={{ inputMode: "numeric" }}
        />
        <TextField
          field={fields.pass_mark}
          label="Technical pass mark (optional, 0 to 100)"
          hint="Bids scoring under it cannot win. Leave empty for none."
          inputProps={{ inputMode: "numeric" }}
        />
      </section>
      <SubmitButton>{submitLabel}</SubmitButton>
    </Form>
  );
}
