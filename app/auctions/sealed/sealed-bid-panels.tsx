import { type FieldMetadata, type FormMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import type { z } from "zod";
import { validatedBy } from "~/forms/browser-validation";
import { TextField } from "~/forms/field";
import { SubmitButton } from "~/forms/submit-button";
import { describedBy, FieldError, FieldFrame, TextInput } from "~/forms/text-input";
import { useHydrated } from "~/forms/use-hydrated";
import { TableRegion } from "~/layout/table-region";
import { type TimeTexts, timeText } from "~/platform/zoned-time";
import { formatCents } from "~/shared/money";
import { counted, howOften } from "~/shared/words";
import type { OwnerView, SellerView } from "../auction-views.server";
import { lotLinesCaption, sealedReceivedText } from "../auction-words";
import { ACCEPT_ATTRIBUTE, DOCUMENT_HINT, formatBytes } from "../documents/document-types";
import { lineTotalCents } from "../lots/line-pricing";
import { LiveTotal, type PricedLine, priceInputId, UnitPriceTable, useLiveTotal } from "../lots/unit-price-table";
import { requirementField } from "./sealed-bid-messages";
import { capTypedAmount, sealedBidSchema } from "./sealed-bid-schema";
import { SealedSchedules } from "./sealed-schedules";

// The sealed-bid parts of the auction pages (issue 10): a seller's own bid and the form that sends or
// replaces it; the auction side's list of bids, which before the deadline is only a count.

/** The form's fields as the browser sends them (the documents are files, by requirement). */
type SealedBidFields = { pricing: string; amount: string; prices: string[] };
type SealedBidForm = FormMetadata<SealedBidFields, string[]>;
type SealedBidFieldset = { amount: FieldMetadata<string, SealedBidFields, string[]> };

/**
 * The sealed-bid form's state. Its own page checks the amount before sending; the auction page's copy
 * sends as it is, and the sealed-bid page answers with any refusal.
 */
export function useSealedBidForm({
  lastResult,
  checkInBrowser,
}: {
  lastResult?: SubmissionResult<string[]>;
  checkInBrowser: boolean;
}) {
  return useForm<SealedBidFields, z.output<typeof sealedBidSchema>>({
    id: "sealed",
    lastResult,
    ...validatedBy(sealedBidSchema, { constraint: false, prepare: capTypedAmount, checkInBrowser }),
  });
}

type Requirement = { id: number; name: string };
type OwnBid = NonNullable<SellerView["ownSealedBid"]>;

export const sealedBidPath = (auctionId: number) => `/auctions/${auctionId}/sealed-bid`;
export const sealedDocumentPath = (auctionId: number, bidId: number, documentId: number) =>
  `/auctions/${auctionId}/sealed-bids/${bidId}/documents/${documentId}`;
/** A seller's own document, by requirement: never by ids counted across every seller's bids (issue 17). */
export const ownSealedDocumentPath = (auctionId: number, requirementId: number) =>
  `/auctions/${auctionId}/sealed-bids/own/documents/${requirementId}`;
export const requirementFieldId = (requirementId: number) => `sealed-document-${requirementId}`;

/** The ids of the unit price inputs (`sealed-price-0`…) and of the price sheet's file input. */
export const SEALED_PRICE_PREFIX = "sealed-price";
export const SEALED_SHEET_ID = "sealed-price-sheet";
const SHEET_HINT = "Read when no unit price is typed above.";

/** A sealed bid of several lots (issue 31): the ids of a lot's amount, its unit prices, and of the lots' own messages. */
export const sealedLotAmountId = (position: number) => `sealed-lot-${position}-amount`;
export const sealedLotPricePrefix = (position: number) => `sealed-lot-${position}-price`;
export const sealedLotSheetId = (position: number) => `sealed-lot-${position}-sheet`;
export const SEALED_LOTS_ID = "sealed-lots";

/** The control ids of the sealed-bid form's fields, for the error summary. */
export function sealedFieldId(field: string | undefined): string | undefined {
  if (field === "lots") return SEALED_LOTS_ID;
  const lot = field ? /^lots\[(\d+)\]\.(amount|prices|price_sheet)(?:\[(\d+)\])?$/.exec(field) : null;
  if (lot) {
    const position = Number(lot[1]) + 1;
    if (lot[2] === "price_sheet") return sealedLotSheetId(position);
    return lot[2] === "amount"
      ? sealedLotAmountId(position)
      : priceInputId(sealedLotPricePrefix(position), Number(lot[3] ?? 0));
  }
  if (field === "amount") return "sealed-amount";
  if (field === "prices") return priceInputId(SEALED_PRICE_PREFIX, 0);
  if (field === "price_sheet") return SEALED_SHEET_ID;
  const line = field ? /^prices\[(\d+)\]$/.exec(field) : null;
  if (line) return priceInputId(SEALED_PRICE_PREFIX, Number(line[1]));
  const match = field ? /^document_(\d+)$/.exec(field) : null;
  return match ? requirementFieldId(Number(match[1])) : undefined;
}

/** The seller's own sealed bid: amount and documents, readable by them alone before the deadline. */
export function OwnSealedBid({
  auctionId,
  bid,
  requirements,
  times,
  lines,
  lotNames,
}: {
  auctionId: number;
  bid: OwnBid;
  requirements: Requirement[];
  times: TimeTexts;
  /** The lot's lines when it is priced by lines (issue 31): the bid's unit prices are shown by them. */
  lines?: readonly PricedLine[] | null;
  /** Several lots (issue 31): each lot's name; the bid's amount on each lot it names is listed. */
  lotNames?: readonly { id: number; name: string }[];
}) {
  const unitCents = bid.unitCents;
  const several = Boolean(lotNames && lotNames.length > 1);
  return (
    <section aria-labelledby="own-sealed-bid" className="card">
      <h2 id="own-sealed-bid">Your sealed bid</h2>
      {several && lotNames ? (
        <table className="table">
          <caption>Your bid, lot by lot</caption>
          <thead>
            <tr>
              <th scope="col">Lot</th>
              <th scope="col">Your bid</th>
            </tr>
          </thead>
          <tbody>
            {lotNames.map((lot) => {
              const own = bid.lots.find((row) => row.lotId === lot.id);
              return (
                <tr key={lot.id}>
                  <th scope="row">{lot.name}</th>
                  <td>{own ? formatCents(own.amountCents) : "Not bid on"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {!several && lines && unitCents && unitCents.length === lines.length ? (
        <table className="table">
          <caption>Your unit prices</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Quantity</th>
              <th scope="col">Unit price</th>
              <th scope="col">Line total</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => (
              <tr key={line.position}>
                <th scope="row">{`${index + 1}. ${line.description}`}</th>
                <td>{`${line.quantityText} ${line.unit}`}</td>
                <td>{formatCents(unitCents[index] ?? 0)}</td>
                <td>{formatCents(lineTotalCents(line.quantity, unitCents[index] ?? 0))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <dl className="summary-list">
        <div>
          <dt>{unitCents || several ? "Total" : "Amount"}</dt>
          <dd>{formatCents(bid.amountCents)}</dd>
        </div>
        <div>
          <dt>Last sent</dt>
          <dd>
            <time dateTime={bid.updatedAt}>{timeText(times, bid.updatedAt)}</time>
            {bid.revision > 1 ? ` (replaced ${howOften(bid.revision - 1)})` : ""}
          </dd>
        </div>
        {requirements.map((requirement) => {
          const document = bid.documents.find((item) => item.requirementId === requirement.id);
          return (
            <div key={requirement.id}>
              <dt>{requirement.name}</dt>
              <dd>
                {document ? (
                  <a href={ownSealedDocumentPath(auctionId, requirement.id)} download>
                    {`${document.fileName} (${formatBytes(document.sizeBytes)})`}
                  </a>
                ) : (
                  "Missing"
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** A lot of a sealed auction of several lots as its form shows it (issue 31). */
export type SealedFormLot = {
  id: number;
  position: number;
  name: string;
  reserveCents: number;
  oneAmount: boolean;
  lines: readonly PricedLine[];
};

/** What a lot's fields start from: what a refused form sent, else the seller's bid, else nothing. */
export type SealedLotStart = { amount: string; prices: string[] };

/** A lot's filled-in price sheet (a CSV file), read by the server when none of its unit prices is typed. */
function PriceSheetInput({
  id,
  name,
  label,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  errors: string[] | undefined;
}) {
  return (
    <FieldFrame id={id} errorId={`${id}-error`} label={label} hint={SHEET_HINT} errors={errors}>
      <input
        id={id}
        name={name}
        type="file"
        accept=".csv,text/csv"
        className={errors ? "input input--error" : "input"}
        aria-invalid={errors ? true : undefined}
        aria-describedby={describedBy(id, `${id}-error`, SHEET_HINT, errors)}
      />
    </FieldFrame>
  );
}

/** One lot's fields: its amount, or a unit price per line with its total as typed (with JavaScript). */
function SealedLotFields({
  lot,
  start,
  errors,
  sheetPath,
}: {
  lot: SealedFormLot;
  start: SealedLotStart;
  errors: (field: string) => string[] | undefined;
  sheetPath: string;
}) {
  const live = useLiveTotal(lot.oneAmount ? [] : lot.lines, start.prices);
  const hydrated = useHydrated();
  const base = `lots[${lot.position - 1}]`;
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">{`${lot.name} (reserve ${formatCents(lot.reserveCents)})`}</legend>
      {lot.oneAmount ? (
        <TextInput
          id={sealedLotAmountId(lot.position)}
          name={`${base}.amount`}
          label={`Your bid on ${lot.name} (CAD)`}
          hint="Dollars and cents, e.g. 12500.00. Leave it empty to not bid on this lot."
          errors={errors(`${base}.amount`)}
          inputProps={{ inputMode: "decimal", autoComplete: "off", defaultValue: start.amount }}
        />
      ) : (
        <>
          <UnitPriceTable
            lines={lot.lines}
            idPrefix={sealedLotPricePrefix(lot.position)}
            namePrefix={`${base}.`}
            labelSuffix={`, ${lot.name}`}
            caption={`${lot.name}: a unit price for each of its ${counted(lot.lines.length, "line", "lines")}, or none to not bid on it`}
            startPrices={start.prices}
            lineErrors={(index) => {
              const all = [
                ...(index === 0 ? (errors(`${base}.prices`) ?? []) : []),
                ...(errors(`${base}.prices[${index}]`) ?? []),
              ];
              return all.length ? all : undefined;
            }}
            onChange={live.change}
          />
          {hydrated ? (
            <p aria-live="polite">
              <strong>
                {live.total === null
                  ? `${lot.name}: enter every unit price to bid on it`
                  : `Total of ${lot.name}: ${formatCents(live.total)}`}
              </strong>
            </p>
          ) : null}
          <PriceSheetInput
            id={sealedLotSheetId(lot.position)}
            name={`${base}.price_sheet`}
            label={`Or attach ${lot.name}'s filled-in price sheet (CSV, optional)`}
            errors={errors(`${base}.price_sheet`)}
          />
          <p>
            <a href={sheetPath} download>
              {`Download ${lot.name}'s price sheet (CSV)`}
            </a>
            {" and fill in its unit_price column."}
          </p>
        </>
      )}
    </fieldset>
  );
}

/** Sends or replaces the sealed bid: the amount and one file per required document. */
export function SealedBidForm({
  auctionId,
  requirements,
  reserveCents,
  replacing,
  form,
  fields,
  schedule,
  lots,
}: {
  auctionId: number;
  requirements: Requirement[];
  reserveCents: number;
  replacing: boolean;
  form: SealedBidForm;
  fields: SealedBidFieldset;
  /** A lot priced by lines (issue 31): its lines, the prices to start from and its price sheet's address. */
  schedule?: { lines: readonly PricedLine[]; startPrices: readonly string[]; sheetPath: string };
  /** Several lots (issue 31): each lot's fields, what they start from, and each lot's price sheet. */
  lots?: {
    lots: readonly SealedFormLot[];
    start: (position: number) => SealedLotStart;
    sheetPath: (lotId: number) => string;
  };
}) {
  const fieldError = (field: string) => (form.allErrors[field]?.length ? form.allErrors[field] : undefined);
  const live = useLiveTotal(schedule?.lines ?? [], schedule?.startPrices ?? []);
  return (
    <section aria-labelledby="sealed-bid-form" className="card">
      <h2 id="sealed-bid-form">{replacing ? "Replace your sealed bid" : "Send your sealed bid"}</h2>
      <p>
        {replacing
          ? "Until the deadline you may replace your bid. Attach only the documents you want to replace; the others stay as sent."
          : "One bid per seller, with every document listed. Until the deadline you may replace it; nobody, the buyer and staff included, can read it before then."}
      </p>
      <Form
        method="post"
        action={sealedBidPath(auctionId)}
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="stack"
      >
        {lots ? (
          <>
            <input type="hidden" name="pricing" value="lots" />
            <div id={SEALED_LOTS_ID} tabIndex={-1} className="stack">
              <p className="field__hint">
                {replacing
                  ? "Bid on any of the lots, at least one. Your bid as sent is filled in below; what you send now replaces it: a lot you leave empty is withdrawn from your bid."
                  : "Bid on any of the lots, at least one: for each lot you bid on, its amount or a unit price for every line (its total is your bid on it, at most its reserve). Leave a lot empty to not bid on it."}
              </p>
              <FieldError id={`${SEALED_LOTS_ID}-error`} errors={fieldError("lots")} />
            </div>
            {lots.lots.map((lot) => (
              <SealedLotFields
                key={lot.id}
                lot={lot}
                start={lots.start(lot.position)}
                errors={fieldError}
                sheetPath={lots.sheetPath(lot.id)}
              />
            ))}
          </>
        ) : schedule ? (
          <>
            <input type="hidden" name="pricing" value="lines" />
            <p className="field__hint">
              {`Your bid is the lot's total: each line's quantity × your unit price, rounded to the cent, added up. At most the reserve price of ${formatCents(reserveCents)}. Dollars and cents, e.g. 185.00.`}
            </p>
            <UnitPriceTable
              lines={schedule.lines}
              idPrefix={SEALED_PRICE_PREFIX}
              caption={lotLinesCaption(schedule.lines.length, "enter a unit price for each")}
              startPrices={schedule.startPrices}
              lineErrors={(index) => fieldError(`prices[${index}]`)}
              onChange={live.change}
            />
            <LiveTotal total={live.total} />
            <PriceSheetInput
              id={SEALED_SHEET_ID}
              name="price_sheet"
              label="Or attach the filled-in price sheet (CSV, optional)"
              errors={fieldError("price_sheet")}
            />
            <p>
              <a href={schedule.sheetPath} download>
                Download the price sheet (CSV)
              </a>
              {" and fill in its unit_price column."}
            </p>
          </>
        ) : (
          <TextField
            field={fields.amount}
            label="Your bid (CAD)"
            hint={`At most the reserve price of ${formatCents(reserveCents)}. Dollars and cents, e.g. 12500.00.`}
            inputProps={{ inputMode: "decimal", autoComplete: "off" }}
          />
        )}
        <fieldset className="fieldset">
          <legend className="fieldset__legend">{replacing ? "Documents to replace" : "Documents"}</legend>
          <p className="field__hint">{DOCUMENT_HINT.replace(/ One file at a time.*$/, "")}</p>
          {requirements.map((requirement) => {
            const id = requirementFieldId(requirement.id);
            const errors = fieldError(requirementField(requirement.id));
            return (
              <FieldFrame key={requirement.id} id={id} errorId={`${id}-error`} label={requirement.name} errors={errors}>
                <input
                  id={id}
                  name={requirementField(requirement.id)}
                  type="file"
                  accept={ACCEPT_ATTRIBUTE}
                  className={errors ? "input input--error" : "input"}
                  aria-invalid={errors ? true : undefined}
                  aria-describedby={describedBy(id, `${id}-error`, undefined, errors)}
                />
              </FieldFrame>
            );
          })}
        </fieldset>
        <SubmitButton>{replacing ? "Replace my sealed bid" : "Send my sealed bid"}</SubmitButton>
      </Form>
    </section>
  );
}

/** The auction side's (and evaluator's and staff's) view of the sealed bids: a count until the deadline. */
export function SealedBidsSide({
  auctionId,
  sealed,
  requirements,
  times,
}: {
  auctionId: number;
  sealed: NonNullable<OwnerView["sealed"]>;
  requirements: Requirement[];
  times: TimeTexts;
}) {
  const received = sealedReceivedText(sealed.received);
  if (!sealed.bids) {
    return (
      <section aria-labelledby="console">
        <h2 id="console">Sealed bids</h2>
        <p>{`${received}. Bids stay sealed until the deadline: nobody can read them before then.`}</p>
      </section>
    );
  }
  const several = sealed.lotNames.length > 0;
  const lotsOf = (bid: (typeof sealed.bids)[number]) =>
    sealed.lotNames
      .filter((lot) => bid.lots.some((row) => row.lotId === lot.id))
      .map((lot) => lot.name)
      .join("; ");
  return (
    <section aria-labelledby="console">
      <h2 id="console">Sealed bids</h2>
      <p>
        {several
          ? `${received}, opened at the deadline. Each lot's bids side by side, lowest first; then each bid's total over the lots it names.`
          : `${received}, opened at the deadline. Lowest price first.`}
      </p>
      {sealed.schedules ? <SealedSchedules schedules={sealed.schedules} /> : null}
      {sealed.bids.length > 0 ? (
        <TableRegion label="The sealed bids">
          <table className="table">
            <caption className="visually-hidden">The sealed bids side by side, lowest price first</caption>
            <thead>
              <tr>
                <th scope="col">Seller</th>
                <th scope="col">{several ? "Total of its lots" : "Amount"}</th>
                {several ? <th scope="col">Lots bid on</th> : null}
                <th scope="col">Sent</th>
                {requirements.map((requirement) => (
                  <th scope="col" key={requirement.id}>
                    {requirement.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sealed.bids.map((bid) => (
                <tr key={bid.id}>
                  <th scope="row">{bid.organizationName}</th>
                  <td>{formatCents(bid.amountCents)}</td>
                  {several ? <td>{lotsOf(bid)}</td> : null}
                  <td>
                    <time dateTime={bid.updatedAt}>{timeText(times, bid.updatedAt)}</time>
                  </td>
                  {requirements.map((requirement) => {
                    const document = bid.documents.find((item) => item.requirementId === requirement.id);
                    return (
                      <td key={requirement.id}>
                        {document ? (
                          <a href={sealedDocumentPath(auctionId, bid.id, document.id)} download>
                            {document.fileName}
                            <span className="visually-hidden">{` (${requirement.name} of ${bid.organizationName})`}</span>
                          </a>
                        ) : (
                          "Missing"
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : null}
    </section>
  );
}
