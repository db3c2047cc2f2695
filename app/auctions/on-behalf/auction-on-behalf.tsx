import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { CheckboxField, RadioGroupField, radioId, SelectField, TextAreaField, TextField } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { FieldError } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { formatInZone } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { formatCents } from "~/shared/money";
import { requireAuction } from "../auction-access.server";
import { decrementOf, describeDecrement, lotStatusAt, STATUS_LABELS, statusAt } from "../auction-rules";
import { lotLinesCaption } from "../auction-words";
import { highestAllowedBid } from "../bidding/bidding";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { linesOfOpenLot } from "../lots/lot-bid.server";
import { unitPriceRefusal } from "../lots/lot-bidding";
import { lineRefusalMessage } from "../lots/lot-messages";
import { lotName } from "../lots/lot-words";
import {
  HiddenPrices,
  LiveTotal,
  priceErrorLinks,
  TotalReview,
  UnitPriceTable,
  useBindingTotalText,
  useLiveTotal,
} from "../lots/unit-price-table";
import { priceField, readUnitPrices, startingPrices } from "../lots/unit-prices";
import type { Route } from "./+types/auction-on-behalf";
import { enterOnBehalf, sellerMayBeChosen, sellersWhoMayBid } from "./on-behalf.server";
import { lotChoices, postedLot, pricedLines, shownLot } from "./on-behalf-lots.server";
import { mayEnterOnBehalf } from "./on-behalf-rules";
import {
  AMOUNT_MISSING,
  CALL_TIME_OUT_OF_WINDOW,
  CHOOSE_A_SELLER,
  callTimeAllowed,
  type OnBehalfFields,
  type OnBehalfForm,
  onBehalfNote,
  onBehalfSchema,
} from "./on-behalf-schema";

// /auctions/{id}/on-behalf (issue 21): a seller whose connection failed phones the auctioneer, who
// places the bid or sets the minimum for them with a note of who phoned and when. For the consultant
// of the auction (the buyer's side when there is none) and staff; everyone else is refused.

async function requireOnBehalf(request: Request, context: Route.LoaderArgs["context"], rawId: string | undefined) {
  const { user, auction, viewer } = await requireAuction(request, context, rawId);
  // A seller gets the 404 of a page that is not theirs; the other parties who see the auction a 403.
  if (viewer.kind === "seller") throw data(null, { status: 404 });
  if (!mayEnterOnBehalf(user, viewer, auction)) throw data(null, { status: 403 });
  return { user, auction };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction } = await requireOnBehalf(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const sealed = auction.kind === "sealed";
  const now = new Date();
  const timezone = timezoneOf(user);
  const url = new URL(request.url);
  // An auction of lots (issue 31): the lot chosen (`?lot=ID`, so a plain link or form chooses it),
  // else the first still taking bids; an auction shown as one price: its one lot, no choice.
  const lotted = auction.pricedByLots;
  const shown = lotted ? shownLot(auction, url.searchParams.get("lot"), now) : { lot: auction.lots[0], problem: null };
  const lot = shown.lot;
  const sellers = sealed ? [] : await sellersWhoMayBid(db, auction.id);
  const lines = lot && !lot.oneAmount && !sealed ? await pricedLines(db, lot.id) : [];
  const entered = url.searchParams.get("done");
  return {
    auctionId: auction.id,
    title: auction.title,
    sealed,
    status: STATUS_LABELS[statusAt(auction, now)],
    lowestCents: lot?.lowestCents ?? null,
    highestAllowedCents: lot ? highestAllowedBid(lot.reserveCents, lot.lowestCents, decrementOf(lot)) : 0,
    decrement: lot ? describeDecrement(decrementOf(lot), formatCents) : "",
    timezone,
    sellers: sellers.map((seller) => ({ value: String(seller.organizationId), label: seller.name })),
    entered: entered === "bid" || entered === "minimum" ? entered : null,
    /** An auction of lots: each lot to choose from, the one shown, and why the one asked for is not. */
    lots: lotted
      ? {
          choices: lotChoices(auction, timezone, now),
          problem: shown.problem,
          shown: lot
            ? {
                id: lot.id,
                name: lotName(lot),
                status: STATUS_LABELS[lotStatusAt(auction, lot, now)],
                closes: formatInZone(lot.endsAt, timezone),
                reserve: formatCents(lot.reserveCents),
                lines,
              }
            : null,
        }
      : null,
  };
}

/** The fields a confirmation step sends again (issue 31: a bid by phone on a lot priced by lines). */
type Reviewed = { lotName: string; totalCents: number; prices: string[]; fields: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction } = await requireOnBehalf(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const submission = parseSubmission(await readFormBody(request), { schema: onBehalfSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const form = submission.value;
  const refuse = (status: number, field: string, messages: string[]) =>
    data(
      {
        result: submission.reply(field === "form" ? { formErrors: messages } : { fieldErrors: { [field]: messages } }),
      },
      { status },
    );
  const now = new Date();
  const chosen = postedLot(auction, form.lot, now);
  if (!chosen.ok) return refuse(chosen.status, chosen.field, [chosen.message]);
  const { lot } = chosen;
  const timeZone = timezoneOf(user);
  if (!callTimeAllowed(form.calledAt, now, timeZone)) return refuse(400, "calledAt", [CALL_TIME_OUT_OF_WINDOW]);
  // A bid on a lot priced by lines is a unit price per line (the seller's lot page's rules and
  // messages), its total shown before it binds; anything else is one amount, as before lots.
  const byLines = form.what === "bid" && !lot.oneAmount;
  let amountCents: number;
  let unitCents: number[] | undefined;
  if (byLines) {
    const lines = await linesOfOpenLot(services.db, auction, lot.id);
    const read = readUnitPrices(lines, form.prices ?? []);
    if (!read.ok) return data({ result: submission.reply({ fieldErrors: read.fieldErrors }) }, { status: 400 });
    const refusal = unitPriceRefusal(lines, read.unitCents);
    if (refusal) {
      const field = "line" in refusal ? priceField(refusal.line) : "prices";
      return refuse(400, field, [lineRefusalMessage(refusal)]);
    }
    if (!(await sellerMayBeChosen(services.db, auction.id, form.seller))) {
      return refuse(400, "seller", [CHOOSE_A_SELLER]);
    }
    if (form.confirm !== "yes") {
      // Without JavaScript: the total, asked about once before it binds (with it, shown as typed).
      const review: Reviewed = {
        lotName: lotName(lot),
        totalCents: read.totalCents,
        prices: read.typed,
        fields: {
          seller: String(form.seller),
          what: form.what,
          lot: String(lot.id),
          pricing: "lines",
          caller: form.caller,
          calledAt: form.calledAt,
          details: form.details ?? "",
        },
      };
      return { result: submission.reply(), review };
    }
    amountCents = read.totalCents;
    unitCents = read.unitCents;
  } else {
    if (form.amount === undefined) return refuse(400, "amount", [AMOUNT_MISSING]);
    amountCents = form.amount;
  }
  const outcome = await enterOnBehalf(services, {
    auction,
    lotId: auction.pricedByLots ? lot.id : undefined,
    unitCents,
    userId: user.id,
    sellerId: form.seller,
    what: form.what,
    amountCents,
    confirmed: byLines || form.confirm === "yes",
    note: onBehalfNote(form, timeZone),
  });
  switch (outcome.kind) {
    case "accepted":
      return redirect(
        auction.pricedByLots
          ? `/auctions/${auction.id}/on-behalf?lot=${lot.id}&done=${form.what}`
          : `/auctions/${auction.id}/on-behalf?done=${form.what}`,
      );
    case "unconfirmed":
      // The typo guard, as for the seller's own bid: checked with the caller, then ticked and sent again.
      return { result: submission.reply(), confirm: outcome };
    case "refused":
      // A bid by lines answers for its total (decrement, reserve): no one field holds it.
      return refuse(outcome.status, byLines && outcome.field === "amount" ? "form" : outcome.field, [outcome.message]);
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: pageTitle(loaderData ? `Bid on a seller's behalf: ${loaderData.title}` : "Bid on a seller's behalf") },
  ];
}

const WHAT_OPTIONS = [
  { value: "bid", label: "Place a bid" },
  { value: "minimum", label: "Set their secret minimum (we bid for them down to it)" },
];

export default function AuctionOnBehalf(props: Route.ComponentProps) {
  // A new form for each lot chosen: its fields are the lot's.
  return <OnBehalfPage key={props.loaderData.lots?.shown?.id ?? "auction"} {...props} />;
}

function OnBehalfPage({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, sealed, status, sellers, entered, timezone, lots } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const review = actionData && "review" in actionData ? actionData.review : undefined;
  const result = actionData?.result;
  const shown = lots?.shown ?? null;
  const lines = shown?.lines ?? [];
  const byLines = lines.length > 0;
  const startPrices = startingPrices(lines.length, { reviewed: review?.prices, sent: result?.initialValue?.prices });
  const [form, fields] = useForm<OnBehalfFields, OnBehalfForm>({
    id: "on-behalf",
    lastResult: result,
    defaultValue: byLines ? { prices: startPrices } : undefined,
    ...validatedBy(onBehalfSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, actionData);
  const live = useLiveTotal(lines, startPrices);
  const bidding = fields.what.value !== "minimum";
  const bindingText = useBindingTotalText(bidding ? live.total : null, (total) => `Enter a binding bid of ${total}`);
  /** A line's price errors, the browser's checks or the server's. */
  const priceErrors = (index: number) =>
    form.allErrors[priceField(index)] ?? result?.error?.[priceField(index)] ?? undefined;
  const lotErrors = fields.lot.errors ?? (lots?.problem ? [lots.problem] : undefined);
  const firstOpenLot = Math.max(0, lots?.choices.findIndex((choice) => choice.open) ?? 0);
  // A lot's form posts to its own address, so the page answering shows that lot; a post that named
  // another (a tampered one) still reads its price messages, in the summary.
  const postTo = shown ? `/auctions/${auctionId}/on-behalf?lot=${shown.id}` : undefined;
  const strayPriceErrors = byLines
    ? []
    : Object.entries(result?.error ?? {}).flatMap(([name, messages]) =>
        name === "prices" || name.startsWith("prices[") ? (messages ?? []) : [],
      );
  const fieldErrors = [
    ...(fields.seller.errors ?? []).map((message) => ({ fieldId: fields.seller.id, message })),
    ...(fields.what.errors ?? []).map((message) => ({ fieldId: radioId(fields.what, 0), message })),
    ...(lotErrors ?? []).map((message) => ({ fieldId: `on-behalf-lot-${firstOpenLot}`, message })),
    ...(byLines ? priceErrorLinks("on-behalf-price", lines.length, fields.prices.errors, priceErrors) : []),
    ...[fields.amount, fields.caller, fields.calledAt, fields.details].flatMap((field) =>
      (field.errors ?? []).map((message) => ({ fieldId: field.id, message })),
    ),
  ];
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Bid on a seller's behalf: ${title}`}</h1>
      {entered ? (
        <Alert title={entered === "bid" ? "Bid placed" : "Minimum set"} tone="success" focus>
          <p>
            {entered === "bid"
              ? `The bid was placed on the seller's behalf${shown ? ` on ${shown.name}` : ""}. It is binding; the seller has been e-mailed.`
              : `The minimum was set on the seller's behalf${shown ? ` on ${shown.name}` : ""}; the seller has been e-mailed.`}
          </p>
        </Alert>
      ) : null}
      <ErrorSummary
        formErrors={[...(form.errors ?? []), ...strayPriceErrors]}
        fieldErrors={fieldErrors}
        submissionKey={submissionKey}
      />
      {sealed ? (
        <p>
          Bids cannot be entered on a seller's behalf in a sealed-bid auction: a sealed bid needs the seller's own
          documents.
        </p>
      ) : sellers.length === 0 ? (
        <p>No invited seller has accepted the terms, so nobody can bid yet.</p>
      ) : lots ? (
        <>
          <p>
            When an invited seller phones because they cannot reach the site, choose the lot they ask about and enter
            what they ask for. Every bidding rule applies as to their own bid on that lot. The seller is e-mailed at
            once, and the bid is marked as entered by you.
          </p>
          <LotChooser choices={lots.choices} shownId={shown?.id} errors={lotErrors} errorId={fields.lot.errorId} />
          {shown ? (
            <p>
              {`${shown.name}: bidding ${shown.status.toLowerCase()}, closes ${shown.closes}; lowest total: ${loaderData.lowestCents === null ? "none yet" : formatCents(loaderData.lowestCents)}; a new bid's total may be at most ${formatCents(loaderData.highestAllowedCents)} (reserve ${shown.reserve}); decrement: ${loaderData.decrement}.`}
            </p>
          ) : (
            <p>
              <strong>Bidding has closed on every lot.</strong>
            </p>
          )}
        </>
      ) : (
        <p>
          {`When an invited seller phones because they cannot reach the site, enter what they ask for here. Every bidding rule applies as to their own bid (bidding: ${status.toLowerCase()}; lowest bid: ${loaderData.lowestCents === null ? "none yet" : formatCents(loaderData.lowestCents)}; a new bid may be at most ${formatCents(loaderData.highestAllowedCents)}; decrement: ${loaderData.decrement}). The seller is e-mailed at once, and the bid is marked as entered by you.`}
        </p>
      )}
      {!sealed && sellers.length > 0 && (!lots || shown) ? (
        <>
          {review ? (
            <TotalReview
              id="on-behalf-review"
              title={`Place a bid of ${formatCents(review.totalCents)} in total on ${review.lotName}?`}
            >
              <p>{`Check the total with the caller before it binds the seller. To change it, edit the unit prices below.`}</p>
              <Form
                method="post"
                action={`/auctions/${auctionId}/on-behalf?lot=${review.fields.lot}`}
                className="button-row"
              >
                {Object.entries(review.fields).map(([name, value]) => (
                  <input key={name} type="hidden" name={name} value={value} />
                ))}
                <HiddenPrices prices={review.prices} />
                <input type="hidden" name="confirm" value="yes" />
                <SubmitButton>Yes, place this bid</SubmitButton>
              </Form>
            </TotalReview>
          ) : null}
          <Form method="post" action={postTo} {...formProps} className="stack">
            {shown ? <input type="hidden" name="lot" value={shown.id} /> : null}
            {byLines ? <input type="hidden" name="pricing" value="lines" /> : null}
            <SelectField
              field={fields.seller}
              label="Seller who phoned"
              options={sellers}
              hint="Invited sellers who accepted the terms."
            />
            <RadioGroupField field={fields.what} legend="What did they ask for?" options={WHAT_OPTIONS} />
            {byLines ? (
              <fieldset className="fieldset">
                <legend className="fieldset__legend">{`Unit prices for a bid on ${shown?.name ?? "the lot"}`}</legend>
                <UnitPriceTable
                  lines={lines}
                  idPrefix="on-behalf-price"
                  caption={lotLinesCaption(lines.length, "the unit price the seller asks for each")}
                  startPrices={startPrices}
                  lineErrors={priceErrors}
                  onChange={live.change}
                />
                {bidding ? <LiveTotal total={live.total} /> : null}
              </fieldset>
            ) : null}
            <TextField
              field={fields.amount}
              label={byLines ? "Their secret minimum for the lot's total, in dollars" : "Amount in dollars"}
              hint={
                byLines
                  ? "Only when they ask for a minimum; a bid is the unit prices above. Like 12500.00"
                  : "Like 12500.00"
              }
              inputProps={{ inputMode: "decimal" }}
            />
            <TextField
              field={fields.caller}
              label="Name of the person who phoned"
              inputProps={{ autoComplete: "off" }}
            />
            <TextField
              field={fields.calledAt}
              label="Time of the call"
              hint={`24-hour clock, your time zone (${timezone}), like 14:05.`}
              inputProps={{ inputMode: "numeric", autoComplete: "off" }}
            />
            <TextAreaField
              field={fields.details}
              label="Other details (optional)"
              rows={2}
              hint="Kept with the bid; the seller sees it."
            />
            {confirm ? (
              <div className="stack">
                <Alert title="Check the amount with the caller">
                  <p>
                    {`That is ${confirm.dropPercent} % under the price of ${formatCents(confirm.referenceCents)}. Bids are binding and cannot be retracted.`}
                  </p>
                </Alert>
                <CheckboxField field={fields.confirm} label="The caller confirmed this amount" />
              </div>
            ) : null}
            <SubmitButton>{(byLines && bindingText) || "Enter on the seller's behalf"}</SubmitButton>
          </Form>
        </>
      ) : null}
    </div>
  );
}

/**
 * The lots to choose from, by position and title with their closing status; a closed lot cannot be
 * chosen. A form of its own sent with GET (`?lot=ID`): it works as a plain form without JavaScript.
 */
function LotChooser({
  choices,
  shownId,
  errors,
  errorId,
}: {
  choices: { id: number; name: string; status: string; closes: string; open: boolean }[];
  shownId: number | undefined;
  errors: string[] | undefined;
  errorId: string;
}) {
  const invalid = Boolean(errors?.length);
  return (
    <Form method="get" className="stack">
      <fieldset
        className={invalid ? "fieldset field--error" : "fieldset"}
        aria-describedby={invalid ? errorId : undefined}
      >
        <legend className="fieldset__legend">Which lot did they ask about?</legend>
        <FieldError id={errorId} errors={errors} />
        {choices.map((choice, index) => (
          <div className="checkbox" key={choice.id}>
            <input
              type="radio"
              className="checkbox__input"
              id={`on-behalf-lot-${index}`}
              name="lot"
              value={choice.id}
              defaultChecked={choice.id === shownId}
              disabled={!choice.open}
              aria-invalid={invalid || undefined}
            />
            <label className="checkbox__label" htmlFor={`on-behalf-lot-${index}`}>
              {`${choice.name} (${choice.open ? `${choice.status.toLowerCase()}, closes ${choice.closes}` : `${choice.status.toLowerCase()}: cannot be chosen`})`}
            </label>
          </div>
        ))}
      </fieldset>
      <SubmitButton secondary>Show this lot</SubmitButton>
    </Form>
  );
}
