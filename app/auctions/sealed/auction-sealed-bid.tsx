import type { SubmissionResult } from "@conform-to/react";
import { data, Link, redirect } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { pageTitle } from "~/layout/page-title";
import { zonedTexts } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { dollars } from "~/shared/money";
import { readsOnly, requireAuction } from "../auction-access.server";
import { statusAt } from "../auction-rules";
import { MAX_SEALED_BID_BODY_BYTES, SEALED_BID_TOO_BIG } from "../documents/document-types";
import { discardBody, readLimitedForm } from "../documents/upload-body.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import { bidRequirements } from "../lifecycle/auction-terms.server";
import { MAX_PRICE_SHEET_BYTES, PRICE_SHEET_TOO_LARGE, readPriceSheetCsv } from "../lots/line-items-csv.server";
import { priceErrorLinks } from "../lots/unit-price-table";
import { priceField, readUnitPrices, startingPrices } from "../lots/unit-prices";
import type { Route } from "./+types/auction-sealed-bid";
import { requirementField, SEALED_MESSAGES } from "./sealed-bid-messages";
import {
  OwnSealedBid,
  requirementFieldId,
  SEALED_LOTS_ID,
  SEALED_PRICE_PREFIX,
  SEALED_SHEET_ID,
  SealedBidForm,
  sealedFieldId,
  sealedLotAmountId,
  sealedLotPricePrefix,
  sealedLotSheetId,
  useSealedBidForm,
} from "./sealed-bid-panels";
import { capTypedAmount, sealedBidSchema } from "./sealed-bid-schema";
import {
  ownSealedBids,
  type SealedBidFile,
  type SealedLot,
  type SealedLotBid,
  sealedLots,
  submitSealedBid,
} from "./sealed-bids.server";

// /auctions/{id}/sealed-bid: an invited seller sends or replaces their sealed bid (a multipart form:
// the amount and one file per required document). The auction page shows the same form; this page
// answers its refusals with the message at the field and the amount kept. A lot priced by lines
// (issue 31) takes a unit price per line instead of the amount, typed or from the filled-in price
// sheet; the bid is the lot's total, shown live with JavaScript and in "Your sealed bid" once sent.

type Context = Route.LoaderArgs["context"];

/** Only an invited seller of a sealed auction reaches this page; others get the auction's 404 (or 403). */
async function requireSealedBidder(request: Request, context: Context, rawId: string | undefined) {
  const found = await requireAuction(request, context, rawId);
  if (found.auction.kind !== "sealed" || found.viewer.kind !== "seller") {
    await discardBody(request);
    throw data(null, { status: readsOnly(found.viewer) || found.viewer.kind === "owner" ? 403 : 404 });
  }
  return { ...found, organizationId: found.viewer.organizationId };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { auction, organizationId, user } = await requireSealedBidder(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const [requirements, own, lots] = await Promise.all([
    bidRequirements(db, auction.id),
    ownSealedBids(db, auction.id, [organizationId]),
    sealedLots(db, auction.id),
  ]);
  const ownBid = own.get(organizationId) ?? null;
  const [onlyLot] = lots;
  const lines = lots.length === 1 && onlyLot && !onlyLot.oneAmount ? onlyLot.lines : null;
  return {
    // The form shows only while bids are taken.
    open: statusAt(auction, new Date()) === "open",
    auctionId: auction.id,
    title: auction.title,
    reserveCents: auction.reserveCents,
    requirements,
    ownBid,
    lines,
    /** Several lots (issue 31): each lot's fields on the form; null for one lot, as before. */
    lots: lots.length > 1 ? lots : null,
    priceSheetPath: lines ? `/auctions/${auction.id}/lots/${auction.lots[0]?.id}/price-sheet.csv` : null,
    // Formatted here, in the user's zone: the browser shows these texts as they are.
    times: zonedTexts(ownBid, timezoneOf(user)),
  };
}

/** A lot's sheet too large to be read (`MAX_PRICE_SHEET_BYTES`): refused at its field unread. */
const TOO_LARGE = Symbol("too large");

/**
 * The lots of a bid of several lots as typed (issue 31): each lot with an amount or any unit price is
 * bid on (every line then needs one), or else with its filled-in price sheet; at least one lot.
 * Messages at each lot's fields.
 */
function readSealedLots(
  lots: readonly SealedLot[],
  typed: readonly ({ amount?: number; prices?: (string | undefined)[] } | undefined)[],
  sheets: ReadonlyMap<number, string | typeof TOO_LARGE>,
): { lots: SealedLotBid[] } | { fieldErrors: Record<string, string[]> } {
  const bids: SealedLotBid[] = [];
  const fieldErrors: Record<string, string[]> = {};
  for (const lot of lots) {
    const sent = typed[lot.position - 1];
    const base = `lots[${lot.position - 1}].`;
    if (lot.oneAmount) {
      if (sent?.amount !== undefined) bids.push({ position: lot.position, amountCents: sent.amount });
      continue;
    }
    let prices = sent?.prices ?? [];
    if (prices.every((price) => (price ?? "").trim() === "")) {
      // No price typed: the lot's filled-in price sheet, when one is attached, else the lot is not bid on.
      const sheet = sheets.get(lot.position);
      if (sheet === undefined) continue;
      if (sheet === TOO_LARGE) {
        fieldErrors[`${base}price_sheet`] = [`${lot.name}: ${PRICE_SHEET_TOO_LARGE}`];
        continue;
      }
      const fromSheet = readPriceSheetCsv(sheet, lot.lines);
      if (!fromSheet.ok) {
        fieldErrors[`${base}price_sheet`] = fromSheet.problems.map(
          (problem) => `${lot.name}: Row ${problem.row}: ${problem.message}`,
        );
        continue;
      }
      prices = fromSheet.value.map((cents) => dollars(cents));
    }
    const read = readUnitPrices(lot.lines, prices);
    if (!read.ok) {
      for (const [field, messages] of Object.entries(read.fieldErrors)) {
        fieldErrors[`${base}${field}`] = messages.map((message) => `${lot.name}: ${message}`);
      }
      continue;
    }
    bids.push({ position: lot.position, unitCents: read.unitCents });
  }
  if (Object.keys(fieldErrors).length > 0) return { fieldErrors };
  if (bids.length === 0) return { fieldErrors: { lots: [SEALED_MESSAGES.noLot] } };
  return { lots: bids };
}

/** A body that could not be read: the message alone, nothing typed to keep. */
const unreadable = (status: number, message: string) =>
  data({ result: { status: "error", error: { "": [message] } } satisfies SubmissionResult<string[]> }, { status });

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, user, organizationId } = await requireSealedBidder(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const body = await readLimitedForm(request, MAX_SEALED_BID_BODY_BYTES);
  if (body.kind === "too-large") return unreadable(413, SEALED_BID_TOO_BIG);
  if (body.kind === "malformed") return unreadable(body.status, "Your bid could not be read. Please try again.");
  const form = capTypedAmount(body.form);
  const sheet = form.get("price_sheet");
  form.delete("price_sheet");
  // Several lots (issue 31): each lot's price sheet, by the lot's position.
  const lotSheets = new Map<number, string | typeof TOO_LARGE>();
  for (const name of [...new Set(form.keys())]) {
    const lot = /^lots\[(\d+)\]\.price_sheet$/.exec(name);
    if (!lot) continue;
    const file = form.get(name);
    form.delete(name);
    if (!(file instanceof File) || file.size === 0) continue;
    lotSheets.set(Number(lot[1]) + 1, file.size > MAX_PRICE_SHEET_BYTES ? TOO_LARGE : await file.text());
  }
  const submission = parseSubmission(form, { schema: sealedBidSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const refuse = (fieldErrors: Record<string, string[]>) =>
    data({ result: submission.reply({ fieldErrors }) }, { status: 400 });
  // A lot priced by lines: the unit prices typed, or else those of an uploaded price sheet.
  const lots = await sealedLots(db, auction.id);
  const [onlyLot] = lots;
  const lines = lots.length === 1 && onlyLot && !onlyLot.oneAmount ? onlyLot.lines : null;
  let priced: { unitCents?: number[]; amountCents?: number; lots?: SealedLotBid[] };
  if (lots.length > 1) {
    // Several lots (issue 31): each lot filled in is bid on; one left empty is not.
    const read = readSealedLots(lots, submission.value.lots ?? [], lotSheets);
    if ("fieldErrors" in read) return refuse(read.fieldErrors);
    priced = { lots: read.lots };
  } else if (lines) {
    let typed = (submission.value.prices ?? []).map((price) => price ?? "");
    if (sheet instanceof File && sheet.size > 0 && typed.every((price) => price.trim() === "")) {
      if (sheet.size > MAX_PRICE_SHEET_BYTES) return refuse({ price_sheet: [PRICE_SHEET_TOO_LARGE] });
      const read = readPriceSheetCsv(await sheet.text(), lines);
      if (!read.ok)
        return refuse({ price_sheet: read.problems.map((problem) => `Row ${problem.row}: ${problem.message}`) });
      typed = read.value.map((cents) => dollars(cents));
    }
    const read = readUnitPrices(lines, typed);
    if (!read.ok) return refuse(read.fieldErrors);
    priced = { unitCents: read.unitCents, amountCents: read.totalCents };
  } else {
    if (submission.value.amount === undefined) return refuse({ amount: [SEALED_MESSAGES.amountMissing] });
    priced = { amountCents: submission.value.amount };
  }
  const files: SealedBidFile[] = [];
  for (const requirement of await bidRequirements(db, auction.id)) {
    const file = form.get(requirementField(requirement.id));
    // An empty file input sends a nameless, empty file: nothing chosen.
    if (file === null || typeof file === "string" || (file.name === "" && file.size === 0)) continue;
    files.push({ requirementId: requirement.id, name: file.name, bytes: Buffer.from(await file.arrayBuffer()) });
  }
  const outcome = await submitSealedBid(db, {
    auctionId: auction.id,
    organizationId,
    userId: user.id,
    ...priced,
    files,
  });
  if (outcome.kind === "refused") {
    const reply = sealedFieldId(outcome.field)
      ? submission.reply({ fieldErrors: { [outcome.field ?? ""]: [outcome.message] } })
      : submission.reply({ formErrors: [outcome.message] });
    return data({ result: reply }, { status: outcome.status });
  }
  return redirect(`/auctions/${auction.id}?done=sealed&revision=${outcome.revision}`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Sealed bid: ${loaderData.title}` : "Sealed bid") }];
}

export default function SealedBidPage({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, reserveCents, requirements, ownBid, times, open, lines, lots, priceSheetPath } = loaderData;
  const result = actionData?.result;
  const [form, fields] = useSealedBidForm({ lastResult: result, checkInBrowser: true });
  const sentPrices = result && "initialValue" in result ? result.initialValue?.prices : undefined;
  const schedule =
    lines && priceSheetPath
      ? {
          lines,
          startPrices: startingPrices(lines.length, {
            sent: sentPrices,
            fallback: ownBid?.unitCents?.map((cents) => dollars(cents)),
          }),
          sheetPath: priceSheetPath,
        }
      : undefined;
  // Several lots (issue 31): each lot starts from what a refused form sent, else the seller's bid.
  const sentLots = result && "initialValue" in result ? result.initialValue?.lots : undefined;
  const lotsForm = lots
    ? {
        lots,
        start: (position: number) => {
          const lot = lots.find((row) => row.position === position);
          const count = lot?.oneAmount ? 0 : (lot?.lines.length ?? 0);
          const sent = Array.isArray(sentLots)
            ? (sentLots[position - 1] as Record<string, unknown> | undefined)
            : undefined;
          const own = ownBid?.lots.find((row) => row.lotId === lot?.id);
          if (result) {
            return {
              amount: typeof sent?.amount === "string" ? sent.amount : "",
              prices: startingPrices(count, { sent: sent?.prices ?? [] }),
            };
          }
          return {
            amount: own && lot?.oneAmount ? dollars(own.amountCents) : "",
            prices: startingPrices(count, { fallback: own?.unitCents?.map((cents) => dollars(cents)) }),
          };
        },
        sheetPath: (lotId: number) => `/auctions/${auctionId}/lots/${lotId}/price-sheet.csv`,
      }
    : undefined;
  const lotErrorLinks = lots
    ? [
        ...(form.allErrors.lots ?? []).map((message) => ({ fieldId: SEALED_LOTS_ID, message })),
        ...lots.flatMap((lot) => {
          const base = `lots[${lot.position - 1}]`;
          if (lot.oneAmount) {
            return (form.allErrors[`${base}.amount`] ?? []).map((message) => ({
              fieldId: sealedLotAmountId(lot.position),
              message,
            }));
          }
          return [
            ...priceErrorLinks(
              sealedLotPricePrefix(lot.position),
              lot.lines.length,
              form.allErrors[`${base}.prices`],
              (index) => form.allErrors[`${base}.prices[${index}]`],
            ),
            ...(form.allErrors[`${base}.price_sheet`] ?? []).map((message) => ({
              fieldId: sealedLotSheetId(lot.position),
              message,
            })),
          ];
        }),
      ]
    : [];
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Sealed bid: ${title}`}</h1>
      <ErrorSummary
        formErrors={form.errors}
        fieldErrors={[
          ...lotErrorLinks,
          ...(lines || lots ? [] : summaryLinks([fields.amount])),
          ...(lines
            ? [
                ...priceErrorLinks(
                  SEALED_PRICE_PREFIX,
                  lines.length,
                  form.allErrors.prices,
                  (index) => form.allErrors[priceField(index)],
                ),
                ...(form.allErrors.price_sheet ?? []).map((message) => ({ fieldId: SEALED_SHEET_ID, message })),
              ]
            : []),
          ...requirements.flatMap((requirement) =>
            (form.allErrors[requirementField(requirement.id)] ?? []).map((message) => ({
              fieldId: requirementFieldId(requirement.id),
              message,
            })),
          ),
        ]}
        submissionKey={actionData}
      />
      {ownBid ? (
        <OwnSealedBid
          auctionId={auctionId}
          bid={ownBid}
          requirements={requirements}
          times={times}
          lines={lines}
          lotNames={lots?.map((lot) => ({ id: lot.id, name: lot.name }))}
        />
      ) : null}
      {open ? (
        <SealedBidForm
          auctionId={auctionId}
          requirements={requirements}
          reserveCents={reserveCents}
          replacing={Boolean(ownBid)}
          form={form}
          fields={fields}
          schedule={schedule}
          lots={lotsForm}
        />
      ) : (
        <p>{SEALED_MESSAGES.notOpen}</p>
      )}
    </div>
  );
}
