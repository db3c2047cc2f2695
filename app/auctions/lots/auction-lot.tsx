import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { radioId, TextAreaField, TextField } from "~/forms/field";
import { fieldList } from "~/forms/field-list";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { RepeatableGroup } from "~/forms/repeatable-group";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { dollars } from "~/shared/money";
import { requireAuctionOwner } from "../auction-access.server";
import { termsOpenForChange } from "../auction-rules";
import { decrementValueOf } from "../lifecycle/auction-schema";
import { DecrementFields } from "../lifecycle/decrement-fields";
import type { Route } from "./+types/auction-lot";
import { LINE_ITEM_COLUMNS, MAX_LINES_PER_LOT, SEALED_LOT_DECREMENT } from "./line-items";
import { readLineItemsCsv } from "./line-items-csv.server";
import { quantityText } from "./line-pricing";
import { saveLotTerms } from "./lot-editing.server";
import { type LotFormValue, linesOf, lotFormSchema } from "./lot-schema";
import { lotName } from "./lot-words";
import { lotsWithLines } from "./lots.server";

// /auctions/{id}/lots/{lotId|new}: a lot's name, reserve, decrement and line items (issue 31). The
// lines are repeatable rows (add and remove work without JavaScript) or pasted from a spreadsheet
// as CSV; nothing is saved until every row is right. A sealed auction's one lot has no decrement
// (sealed bids are never bid down): its form carries a fixed one through the checks, which the action
// puts in place of whatever is sent.

type LineFields = { description: string; unit: string; quantity: string; ceiling: string };
type LotFields = {
  title: string;
  reserve: string;
  decrement_kind: string;
  decrement_amount: string;
  decrement_percent: string;
  lines: LineFields[];
  csv: string;
};

const NEW_LINE: LineFields = { description: "", unit: "", quantity: "", ceiling: "" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction } = await requireAuctionOwner(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const lots = await lotsWithLines(db, auction.id);
  const isNew = params.lotId === "new";
  const lot = isNew ? undefined : lots.find((row) => row.id === parseId(params.lotId));
  if (!isNew && !lot) throw data(null, { status: 404 });
  const values: Partial<LotFields> = lot
    ? {
        title: lot.title,
        reserve: dollars(lot.reserveCents),
        decrement_kind: lot.decrementKind,
        decrement_amount: lot.decrementKind === "amount" ? dollars(lot.decrementValue) : "",
        decrement_percent: lot.decrementKind === "percent" ? String(lot.decrementValue / 100) : "",
        lines: lot.lines.map((line) => ({
          description: line.description,
          unit: line.unit,
          quantity: quantityText(line.quantityThousandths),
          ceiling: line.ceilingCents === null ? "" : dollars(line.ceilingCents),
        })),
      }
    : { decrement_kind: "amount", lines: [NEW_LINE] };
  const sealed = auction.kind === "sealed";
  return {
    auctionId: auction.id,
    auctionTitle: auction.title,
    heading: lot ? `Edit ${lotName(lot)}` : `Add lot ${lots.length + 1}`,
    editable: termsOpenForChange(auction, new Date()),
    sealed,
    values: sealed ? { ...values, ...SEALED_LOT_DECREMENT } : values,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const lotId = params.lotId === "new" ? null : parseId(params.lotId);
  if (lotId === undefined) throw data(null, { status: 404 });
  const body = await readFormBody(request);
  if (auction.kind === "sealed")
    for (const [name, value] of Object.entries(SEALED_LOT_DECREMENT)) body.set(name, value);
  const submission = parseSubmission(body, { schema: lotFormSchema });
  // '+ Add line' and 'Remove line' without JavaScript: the same page, one row more or less, nothing checked.
  if (submission.status === undefined) return { result: submission.reply() };
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const value: LotFormValue = submission.value;
  let lines = linesOf(value);
  if (value.csv?.trim()) {
    const read = readLineItemsCsv(value.csv);
    if (!read.ok) {
      const messages = read.problems.map((problem) => `Row ${problem.row}: ${problem.message}`);
      return data({ result: submission.reply({ fieldErrors: { csv: messages } }) }, { status: 400 });
    }
    lines = read.value;
  }
  const changed = await saveLotTerms(services, auction.id, actor, lotId, {
    title: value.title,
    reserveCents: value.reserve,
    decrementKind: value.decrement_kind,
    // Checked by the schema: a valid decrement for this reserve.
    decrementValue: decrementValueOf(value) as number,
    lines,
  });
  if (changed.kind === "refused") {
    return data({ result: submission.reply({ formErrors: [changed.message] }) }, { status: changed.status });
  }
  return redirect(`/auctions/${auction.id}/lots?done=saved`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `${loaderData.heading}: ${loaderData.auctionTitle}` : "Lot") }];
}

export default function AuctionLot({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, auctionTitle, heading, editable, sealed, values } = loaderData;
  const [form, fields] = useForm<LotFields, LotFormValue>({
    id: "lot",
    lastResult: actionData?.result,
    defaultValue: values,
    ...validatedBy(lotFormSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, actionData);
  const lines = fieldList(fields.lines);
  const fieldLinks = [
    ...summaryLinks([fields.title, fields.reserve]),
    ...(fields.decrement_kind.errors ?? []).map((message) => ({ fieldId: radioId(fields.decrement_kind, 0), message })),
    ...summaryLinks([fields.decrement_amount, fields.decrement_percent]),
    ...(fields.lines.errors ?? []).map((message) => ({ fieldId: `${fields.lines.id}-add`, message })),
    ...lines.flatMap((line) => {
      const cells = line.getFieldset();
      return summaryLinks([cells.description, cells.unit, cells.quantity, cells.ceiling]);
    }),
    ...summaryLinks([fields.csv]),
  ];
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}/lots`}>Back to the lots</Link>
      </p>
      <h1>{`${heading}: ${auctionTitle}`}</h1>
      {editable ? (
        <Form method="post" {...formProps} className="stack">
          <ErrorSummary
            formErrors={fieldLinks.length > 0 ? ["Please correct the fields below."] : (form.errors ?? [])}
            fieldErrors={fieldLinks}
            submissionKey={submissionKey}
          />
          <TextField
            field={fields.title}
            label="Name of the lot"
            hint="What sellers see, e.g. 'Rig move' or 'Drilling fluids'."
          />
          <TextField
            field={fields.reserve}
            label="Reserve for the lot's total (CAD)"
            hint="Your maximum for the whole lot: no bid's total may be higher. Dollars and cents, e.g. 250000.00."
            inputProps={{ inputMode: "decimal", autoComplete: "off" }}
          />
          {sealed ? (
            // Sealed bids are never bid down: the decrement only carries the form's checks through.
            Object.entries(SEALED_LOT_DECREMENT).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))
          ) : (
            <DecrementFields
              kind={fields.decrement_kind}
              amount={fields.decrement_amount}
              percent={fields.decrement_percent}
              legend="Each bid's total must be lower than the lowest total by at least"
            />
          )}
          <section className="form-section" aria-labelledby="lot-lines">
            <h2 id="lot-lines">Line items</h2>
            <p className="field__hint">
              {sealed
                ? `Each seller's sealed bid names a unit price for every line; its total is each line's quantity × unit price, rounded to the cent, added up. At most ${MAX_LINES_PER_LOT} lines.`
                : `Sellers bid a unit price on every line; the lot's total is each line's quantity × unit price, rounded to the cent, added up. At most ${MAX_LINES_PER_LOT} lines.`}
            </p>
            <RepeatableGroup
              form={form}
              list={fields.lines}
              heading="Line"
              noun="line"
              headingLevel={3}
              render={(line) => {
                const cells = line.getFieldset();
                return (
                  <>
                    <TextField field={cells.description} label="Description" hint="e.g. Vacuum truck, hourly" />
                    <TextField field={cells.unit} label="Unit" hint="e.g. hour, km, m³" />
                    <TextField
                      field={cells.quantity}
                      label="Estimated quantity"
                      hint="Up to three decimals, e.g. 120 or 12.5"
                      inputProps={{ inputMode: "decimal", autoComplete: "off" }}
                    />
                    <TextField
                      field={cells.ceiling}
                      label="Ceiling on the unit price (CAD, optional)"
                      hint="The most a seller may ask per unit. Leave empty for none."
                      inputProps={{ inputMode: "decimal", autoComplete: "off" }}
                    />
                  </>
                );
              }}
            />
            <span id={`${fields.lines.id}-add`} tabIndex={-1} />
            <TextAreaField
              field={fields.csv}
              label="Or paste the line items from a spreadsheet (CSV)"
              hint={`One line per row: ${LINE_ITEM_COLUMNS.join(", ")} (the ceiling may be left empty). A first row naming the columns is skipped. When you paste here, these rows replace the lines above.`}
              rows={6}
            />
          </section>
          <SubmitButton>Save the lot</SubmitButton>
        </Form>
      ) : (
        <Alert title="The lots can no longer change">
          <p>Bidding has started: the lots can no longer change.</p>
        </Alert>
      )}
    </div>
  );
}
