import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput, TextInput } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { formatInZone } from "~/platform/zoned-time";
import { type AppServices, appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { parseId } from "~/shared/ids";
import { dollars, formatCents } from "~/shared/money";
import { Role } from "~/shared/roles";
import { requireAuction } from "../auction-access.server";
import { decrementOf, describeDecrement, STATUS_LABELS } from "../auction-rules";
import { lotLinesCaption } from "../auction-words";
import { bidCommitment } from "../bidding/bid-commitment";
import { NO_MINIMUMS_IN_RANKS_ONLY } from "../bidding/bid-messages";
import { tellBidEffectsSoon } from "../bidding/bid-notices.server";
import { placeManualBid, setAutoBidMinimum } from "../bidding/bid-queue.server";
import type { BidOutcome } from "../bidding/bid-round.server";
import { ownBidHow } from "../bidding/own-bids-table";
import { timezoneOf } from "../lifecycle/auction-form.server";
import type { Route } from "./+types/auction-lot-bid";
import { MAX_PRICE_SHEET_BYTES, readPriceSheetCsv } from "./line-items-csv.server";
import { quantityText } from "./line-pricing";
import { knownOpenLotLines, linesOfOpenLot, sellerLotStanding } from "./lot-bid.server";
import { rankSentence } from "./lot-schedule";
import { type LotBidValue, lotBidSchema } from "./lot-schema";
import { lotName } from "./lot-words";
import {
  HiddenPrices,
  LiveTotal,
  priceErrorLinks,
  TotalReview,
  UnitPriceTable,
  useBindingTotalText,
  useLiveTotal,
} from "./unit-price-table";
import { priceField, readUnitPrices, startingPrices } from "./unit-prices";

// /auctions/{id}/lots/{lotId}/bid: an invited seller bids on one lot of line items (issue 31): a
// unit price for every line, the lot's total shown before the bid binds (computed in the page with
// JavaScript; a confirmation step without it), a filled-in price sheet uploaded or pasted, and a
// secret minimum on the lot's total. Never another seller's lines, name or count.

async function requireSellerLot(
  request: Request,
  context: Route.LoaderArgs["context"],
  params: Route.LoaderArgs["params"],
) {
  const found = await requireAuction(request, context, params.auctionId);
  const lot = found.auction.lots.find((row) => row.id === parseId(params.lotId));
  if (!lot || found.viewer.kind !== "seller" || found.auction.kind !== "reverse") throw data(null, { status: 404 });
  return { ...found, lot, sellerId: found.viewer.organizationId };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction, lot, sellerId } = await requireSellerLot(request, context, params);
  const { db } = context.get(appServicesContext);
  const standing = await sellerLotStanding(db, auction, lot, sellerId);
  const timezone = timezoneOf(user);
  const done = new URL(request.url).searchParams.get("done");
  return {
    auctionId: auction.id,
    lotId: lot.id,
    auctionTitle: auction.title,
    /** A practice auction (issue 21): said on every page of it. */
    practice: auction.practice,
    name: auction.lots.length > 1 || standing.lines.length > 1 ? lotName(lot) : "Your bid",
    status: standing.status,
    statusLabel: STATUS_LABELS[standing.status],
    endsAt: formatInZone(lot.endsAt, timezone),
    reserve: formatCents(lot.reserveCents),
    decrement: describeDecrement(decrementOf(lot), formatCents),
    lines: standing.lines.map((line) => ({
      position: line.position,
      quantity: line.quantity,
      quantityText: quantityText(line.quantity),
      ceilingCents: line.ceilingCents,
      description: line.description,
      unit: line.unit,
    })),
    standing: {
      ranksOnly: standing.ranksOnly,
      lowest: standing.lowestCents === null ? null : formatCents(standing.lowestCents),
      sentence: standing.ranksOnly
        ? rankSentence(standing.rank)
        : standing.leading
          ? "You have the lowest bid."
          : standing.hasBid
            ? "You do not have the lowest bid."
            : "You have not bid on this lot.",
      // Ranks only: measured from the seller's own last bid, which is theirs to know.
      highestAllowed: formatCents(standing.highestAllowedCents),
      minimum: standing.minimumCents === null ? null : formatCents(standing.minimumCents),
    },
    latest: standing.latestUnits.map((cents) => dollars(cents)),
    ownBids: standing.ownBids.map((bid) => ({
      amountCents: bid.amountCents,
      placed: formatInZone(bid.createdAt, timezone),
      how: ownBidHow({ ...bid, number: 0, createdAt: bid.createdAt.toISOString() }),
      unitCents: bid.unitCents,
    })),
    done: done === "placed" || done === "minimum" ? done : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appServicesContext);
  const signedIn = requireUser(request, context);
  const formData = await readFormBody(request, { multipart: true, maxBytes: MAX_PRICE_SHEET_BYTES });
  const fast = await fastLotBid(services, signedIn, params, formData);
  if (fast) return fast;
  const { user, auction, lot, sellerId } = await requireSellerLot(request, context, params);
  // An uploaded sheet is read as the pasted one.
  const file = formData.get("sheet_file");
  if (file instanceof File && file.size > 0 && !String(formData.get("sheet") ?? "").trim()) {
    formData.set("sheet", await file.text());
  }
  formData.delete("sheet_file");
  const submission = parseSubmission(formData, { schema: lotBidSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const value: LotBidValue = submission.value;
  const lines = await linesOfOpenLot(services.db, auction, lot.id);
  const bidder = { auctionId: auction.id, lotId: lot.id, organizationId: sellerId, userId: user.id };
  const here = `/auctions/${auction.id}/lots/${lot.id}/bid`;
  const refuse = (status: number, fieldErrors: Record<string, string[]>) =>
    data({ result: submission.reply({ fieldErrors }) }, { status });

  if (value.intent === "minimum") {
    const outcome = await setAutoBidMinimum(services.db, { ...bidder, minimumCents: value.minimum });
    if (outcome.kind === "refused") return refuse(outcome.status, { minimum: [outcome.message] });
    if (outcome.kind === "accepted" && outcome.previousLeaderId !== outcome.leaderId) {
      void tellBidEffectsSoon(services, auction.id);
    }
    return redirect(`${here}?done=minimum`);
  }

  let typed: string[];
  if (value.intent === "sheet") {
    const read = readPriceSheetCsv(value.sheet ?? "", lines);
    if (!read.ok) {
      return refuse(400, { sheet: read.problems.map((problem) => `Row ${problem.row}: ${problem.message}`) });
    }
    typed = read.value.map((cents) => dollars(cents));
  } else {
    typed = value.prices.map((price) => price ?? "");
  }
  const read = readUnitPrices(lines, typed);
  if (!read.ok) return refuse(400, read.fieldErrors);
  const { unitCents, totalCents } = read;
  if (value.intent === "sheet" || value.confirm !== "yes") {
    // Without JavaScript (or from a sheet): the total, asked about once before it binds.
    return { review: { prices: read.typed, totalCents } };
  }
  const outcome = await placeManualBid(services.db, { ...bidder, unitCents, amountCents: totalCents, confirmed: true });
  return answerLotBid(services, submission, outcome, auction.id, lot.id);
}

/**
 * A binding bid on a lot whose lines this process knows (its bidding has opened): straight to the
 * lot's next round, which checks the invitation, the terms, the lot and the time on the state it
 * decides on, as a single price's bid does (auction-page.server.ts): a busy lot is not held up by
 * reading the auction per bid. Anything else (a price to check, a review, a sheet, a minimum) takes
 * the page's full path, which reads the auction first. Undefined: take the full path.
 */
async function fastLotBid(
  services: AppServices,
  user: CurrentUser,
  params: Route.ActionArgs["params"],
  formData: FormData,
) {
  const auctionId = parseId(params.auctionId);
  const lotId = parseId(params.lotId);
  if (!auctionId || !lotId || user.role !== Role.Seller || !user.organizationId) return undefined;
  if (formData.get("intent") !== "bid" || formData.get("confirm") !== "yes") return undefined;
  const known = knownOpenLotLines(services.db, lotId);
  if (!known) return undefined;
  const submission = parseSubmission(formData, { schema: lotBidSchema });
  if (submission.status !== "success" || submission.value.intent !== "bid") return undefined;
  const read = readUnitPrices(await known, submission.value.prices);
  if (!read.ok) return undefined;
  const outcome = await placeManualBid(services.db, {
    auctionId,
    lotId,
    organizationId: user.organizationId,
    userId: user.id,
    unitCents: read.unitCents,
    amountCents: read.totalCents,
    confirmed: true,
  });
  return answerLotBid(services, submission, outcome, auctionId, lotId);
}

/** A placed bid's redirect, or the refusal on the page (the 404 of a lot this seller may not see). */
function answerLotBid(
  services: AppServices,
  submission: { reply(options: { formErrors: string[] }): SubmissionResult<string[]> },
  outcome: BidOutcome,
  auctionId: number,
  lotId: number,
) {
  if (outcome.kind === "refused") {
    if (outcome.status === 404) throw data(null, { status: 404 });
    return data({ result: submission.reply({ formErrors: [outcome.message] }) }, { status: outcome.status });
  }
  if (outcome.kind === "accepted" && (outcome.extended || outcome.previousLeaderId !== outcome.leaderId)) {
    void tellBidEffectsSoon(services, auctionId);
  }
  return redirect(`/auctions/${auctionId}/lots/${lotId}/bid?done=placed`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `${loaderData.name}: ${loaderData.auctionTitle}` : "Bid on a lot") }];
}

type BidFields = { intent: string; prices: string[]; confirm: string };

export default function AuctionLotBid({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, lotId, auctionTitle, name, lines, standing, latest, done } = loaderData;
  const review = actionData && "review" in actionData ? actionData.review : undefined;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const startPrices = startingPrices(lines.length, {
    reviewed: review?.prices,
    sent: result?.initialValue?.prices,
    fallback: latest,
  });
  const [form, fields] = useForm<BidFields, LotBidValue>({
    id: "lot-bid",
    lastResult: result,
    defaultValue: { prices: startPrices },
    ...validatedBy(lotBidSchema, { constraint: false }),
  });
  const live = useLiveTotal(lines, startPrices);
  const commitment = bidCommitment(loaderData.practice);
  const buttonText = useBindingTotalText(live.total, commitment.placeTotalButton) ?? "Review the total";
  const open = loaderData.status === "open";
  const errorsOf = (name: string) => result?.error?.[name] ?? undefined;
  /** A line's price errors, the browser's checks or the server's. */
  const priceErrors = (index: number) => form.allErrors[priceField(index)] ?? errorsOf(priceField(index));
  /** What was sent in a refused form, kept in its field (an uploaded sheet's text lands in the box). */
  const typedOf = (name: string) => {
    const value = result?.initialValue?.[name];
    return typeof value === "string" ? value : undefined;
  };
  const errorLinks = [
    ...priceErrorLinks("lot-price", lines.length, fields.prices.errors, () => undefined),
    ...(errorsOf("sheet") ?? []).map((message) => ({ fieldId: "lot-sheet", message })),
    ...(errorsOf("minimum") ?? []).map((message) => ({ fieldId: "lot-minimum", message })),
    ...priceErrorLinks("lot-price", lines.length, [], priceErrors),
  ];
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`${name}: ${auctionTitle}`}</h1>
      {loaderData.practice ? (
        <Alert title="Practice auction — nothing here is real" tone="success">
          <p>The other bidders are simulated. Your bids bind nobody, no buyer sees them, and nobody is e-mailed.</p>
        </Alert>
      ) : null}
      {done ? (
        <Alert title={done === "placed" ? "Bid placed" : "Minimum saved"} tone="success" focus>
          <p>{done === "placed" ? commitment.lotPlaced : "Your secret minimum for this lot is saved."}</p>
        </Alert>
      ) : null}
      <section aria-labelledby="lot-standing" className="card">
        <h2 id="lot-standing">Where you stand</h2>
        <dl className="summary-list">
          <div className="summary-list__row">
            <dt>Bidding</dt>
            <dd>{`${loaderData.statusLabel}; closes ${loaderData.endsAt}`}</dd>
          </div>
          {standing.ranksOnly ? null : (
            <div className="summary-list__row">
              <dt>Current lowest total</dt>
              <dd>{standing.lowest ?? "No bids yet"}</dd>
            </div>
          )}
          <div className="summary-list__row">
            <dt>You</dt>
            <dd>
              <strong>{standing.sentence}</strong>
            </dd>
          </div>
          {standing.ranksOnly ? null : (
            <div className="summary-list__row">
              <dt>Your secret minimum</dt>
              <dd>{standing.minimum ?? "Not set"}</dd>
            </div>
          )}
        </dl>
        <p className="field__hint">
          {standing.ranksOnly
            ? `Reserve for the lot's total: ${loaderData.reserve}. You see your rank only, never another seller's price. Each bid's total must beat your own last bid by at least ${loaderData.decrement}: up to ${standing.highestAllowed} now.`
            : `Reserve for the lot's total: ${loaderData.reserve}. Each bid's total must beat the lowest by at least ${loaderData.decrement}: up to ${standing.highestAllowed} now.`}
        </p>
      </section>
      {open && review ? (
        <TotalReview
          id="lot-review"
          title={`Place a bid of ${formatCents(review.totalCents)} in total?`}
          rule={commitment.rule}
        >
          <Form method="post" className="button-row">
            <input type="hidden" name="intent" value="bid" />
            <HiddenPrices prices={review.prices} />
            <input type="hidden" name="confirm" value="yes" />
            <SubmitButton>Yes, place this bid</SubmitButton>
            <Link to=".">No, change it</Link>
          </Form>
        </TotalReview>
      ) : null}
      {open ? (
        <section aria-labelledby="lot-bid-heading" className="card">
          <h2 id="lot-bid-heading">Your unit prices</h2>
          <Form method="post" {...getFormProps(form)} className="stack">
            <ErrorSummary formErrors={form.errors} fieldErrors={errorLinks} submissionKey={[result]} />
            <input type="hidden" name="intent" value="bid" />
            <UnitPriceTable
              lines={lines}
              idPrefix="lot-price"
              caption={lotLinesCaption(lines.length, "enter a unit price for each")}
              startPrices={startPrices}
              lineErrors={priceErrors}
              onChange={live.change}
            />
            <LiveTotal total={live.total} />
            <SubmitButton>{buttonText}</SubmitButton>
          </Form>
          <h3>With a spreadsheet</h3>
          <p>
            <a href={`/auctions/${auctionId}/lots/${lotId}/price-sheet.csv`} download>
              Download the price sheet (CSV)
            </a>
            {", fill in the unit_price column, and upload it or paste it here. You will see the total before it binds."}
          </p>
          <Form method="post" encType="multipart/form-data" className="stack">
            <input type="hidden" name="intent" value="sheet" />
            <div className="field">
              <label className="field__label" htmlFor="lot-sheet-file">
                Filled-in price sheet (CSV file)
              </label>
              <input className="file-input" id="lot-sheet-file" name="sheet_file" type="file" accept=".csv,text/csv" />
            </div>
            <TextAreaInput
              id="lot-sheet"
              name="sheet"
              label="Or paste it"
              errors={errorsOf("sheet")}
              defaultValue={typedOf("sheet")}
            />
            <SubmitButton secondary>Read the price sheet</SubmitButton>
          </Form>
          <h3>Auto-bid</h3>
          {standing.ranksOnly ? (
            <p>{NO_MINIMUMS_IN_RANKS_ONLY}</p>
          ) : (
            <Form method="post" className="stack">
              <input type="hidden" name="intent" value="minimum" />
              <TextInput
                id="lot-minimum"
                name="minimum"
                label="Your secret minimum for the lot's total (CAD)"
                hint="We bid for you one decrement under the lowest total, never below this amount, scaling the unit prices of your latest bid in proportion. Nobody else sees it."
                errors={errorsOf("minimum")}
                inputProps={{ inputMode: "decimal", autoComplete: "off", defaultValue: typedOf("minimum") }}
              />
              <SubmitButton secondary>Save my minimum</SubmitButton>
            </Form>
          )}
        </section>
      ) : (
        <p>
          <strong>
            {loaderData.status === "scheduled" ? "Bidding has not started yet." : "Bidding on this lot has closed."}
          </strong>
        </p>
      )}
      <OwnLotBids bids={loaderData.ownBids} lines={lines} />
    </div>
  );
}

/** The seller's own latest bids on the lot, each with its unit prices line by line (never another seller's). */
function OwnLotBids({
  bids,
  lines,
}: {
  bids: { amountCents: number; placed: string; how: string; unitCents: number[] }[];
  lines: { position: number; description: string; unit: string; quantityText: string }[];
}) {
  return (
    <section aria-labelledby="own-lot-bids">
      <h2 id="own-lot-bids">Your bids on this lot</h2>
      {bids.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Your latest bids on this lot, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Total</th>
              <th scope="col">Placed</th>
              <th scope="col">How</th>
              {lines.length > 1 ? <th scope="col">Unit prices</th> : null}
            </tr>
          </thead>
          <tbody>
            {bids.map((bid) => (
              <tr key={`${bid.placed}-${bid.amountCents}`}>
                <td>{formatCents(bid.amountCents)}</td>
                <td>{bid.placed}</td>
                <td>{bid.how}</td>
                {lines.length > 1 ? (
                  <td>
                    <details>
                      <summary>{`Unit prices of the ${formatCents(bid.amountCents)} bid`}</summary>
                      <ol>
                        {lines.map((line, index) => (
                          <li key={line.position}>
                            {`${line.description}: ${formatCents(bid.unitCents[index] ?? 0)} per ${line.unit} × ${line.quantityText}`}
                          </li>
                        ))}
                      </ol>
                    </details>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
