import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { CheckboxField, RadioGroupField, radioId, SelectField, TextAreaField, TextField } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { formatCents } from "~/shared/money";
import { requireAuction } from "../auction-access.server";
import { decrementOf, describeDecrement, STATUS_LABELS, statusAt } from "../auction-rules";
import { firstLot } from "../auction-views.server";
import { highestAllowedBid } from "../bidding/bidding";
import { timezoneOf } from "../lifecycle/auction-form.server";
import type { Route } from "./+types/auction-on-behalf";
import { enterOnBehalf, sellersWhoMayBid } from "./on-behalf.server";
import { mayEnterOnBehalf } from "./on-behalf-rules";
import {
  CALL_TIME_OUT_OF_WINDOW,
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

/** Until bids by phone take a lot and its unit prices, an auction of lots is bid on by its sellers only. */
const LOTTED_BY_PHONE =
  "Bids cannot yet be entered on a seller's behalf in an auction of lots or line items: each lot is bid on from its own page, by the seller.";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction } = await requireOnBehalf(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const sealed = auction.kind === "sealed";
  const lot = firstLot(auction);
  // Lots of line items (issue 31) are bid on from each lot's page: not yet by phone.
  const lotted = auction.pricedByLots;
  const sellers = sealed || lotted ? [] : await sellersWhoMayBid(db, auction.id);
  const entered = new URL(request.url).searchParams.get("done");
  return {
    auctionId: auction.id,
    title: auction.title,
    sealed,
    lotted,
    status: STATUS_LABELS[statusAt(auction, new Date())],
    lowestCents: lot.lowestCents,
    highestAllowedCents: highestAllowedBid(lot.reserveCents, lot.lowestCents, decrementOf(lot)),
    decrement: describeDecrement(decrementOf(lot), formatCents),
    timezone: timezoneOf(user),
    sellers: sellers.map((seller) => ({ value: String(seller.organizationId), label: seller.name })),
    entered: entered === "bid" || entered === "minimum" ? entered : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction } = await requireOnBehalf(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const submission = parseSubmission(await readFormBody(request), { schema: onBehalfSchema });
  if (auction.pricedByLots) {
    return data({ result: submission.reply({ formErrors: [LOTTED_BY_PHONE] }) }, { status: 409 });
  }
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const form = submission.value;
  const timeZone = timezoneOf(user);
  if (!callTimeAllowed(form.calledAt, new Date(), timeZone)) {
    return data(
      { result: submission.reply({ fieldErrors: { calledAt: [CALL_TIME_OUT_OF_WINDOW] } }) },
      { status: 400 },
    );
  }
  const outcome = await enterOnBehalf(services, {
    auction,
    userId: user.id,
    sellerId: form.seller,
    what: form.what,
    amountCents: form.amount,
    confirmed: form.confirm === "yes",
    note: onBehalfNote(form, timeZone),
  });
  switch (outcome.kind) {
    case "accepted":
      return redirect(`/auctions/${auction.id}/on-behalf?done=${form.what}`);
    case "unconfirmed":
      // The typo guard, as for the seller's own bid: checked with the caller, then ticked and sent again.
      return { result: submission.reply(), confirm: outcome };
    case "refused": {
      const errors =
        outcome.field === "form"
          ? { formErrors: [outcome.message] }
          : { fieldErrors: { [outcome.field]: [outcome.message] } };
      return data({ result: submission.reply(errors) }, { status: outcome.status });
    }
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

export default function AuctionOnBehalf({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, sealed, status, sellers, entered, timezone } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const [form, fields] = useForm<OnBehalfFields, OnBehalfForm>({
    id: "on-behalf",
    lastResult: actionData?.result,
    ...validatedBy(onBehalfSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, actionData);
  const fieldErrors = [
    ...(fields.seller.errors ?? []).map((message) => ({ fieldId: fields.seller.id, message })),
    ...(fields.what.errors ?? []).map((message) => ({ fieldId: radioId(fields.what, 0), message })),
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
        <Alert title={entered === "bid" ? "Bid placed" : "Minimum set"} tone="success">
          <p>
            {entered === "bid"
              ? "The bid was placed on the seller's behalf. It is binding; the seller has been e-mailed."
              : "The minimum was set on the seller's behalf; the seller has been e-mailed."}
          </p>
        </Alert>
      ) : null}
      <ErrorSummary formErrors={form.errors} fieldErrors={fieldErrors} submissionKey={submissionKey} />
      {sealed ? (
        <p>
          Bids cannot be entered on a seller's behalf in a sealed-bid auction: a sealed bid needs the seller's own
          documents.
        </p>
      ) : loaderData.lotted ? (
        <p>{LOTTED_BY_PHONE}</p>
      ) : sellers.length === 0 ? (
        <p>No invited seller has accepted the terms, so nobody can bid yet.</p>
      ) : (
        <>
          <p>
            {`When an invited seller phones because they cannot reach the site, enter what they ask for here. Every bidding rule applies as to their own bid (bidding: ${status.toLowerCase()}; lowest bid: ${loaderData.lowestCents === null ? "none yet" : formatCents(loaderData.lowestCents)}; a new bid may be at most ${formatCents(loaderData.highestAllowedCents)}; decrement: ${loaderData.decrement}). The seller is e-mailed at once, and the bid is marked as entered by you.`}
          </p>
          <Form method="post" {...formProps} className="stack">
            <SelectField
              field={fields.seller}
              label="Seller who phoned"
              options={sellers}
              hint="Invited sellers who accepted the terms."
            />
            <RadioGroupField field={fields.what} legend="What did they ask for?" options={WHAT_OPTIONS} />
            <TextField
              field={fields.amount}
              label="Amount in dollars"
              hint="Like 12500.00"
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
            <SubmitButton>Enter on the seller's behalf</SubmitButton>
          </Form>
        </>
      )}
    </div>
  );
}
