import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { TextField } from "~/forms/field";
import { parseSubmission } from "~/forms/parse-submission.server";
import { RowActionForm } from "~/forms/row-action-form";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { formatInZone } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import { requireAuctionOwner } from "../auction-access.server";
import { decrementOf, describeDecrement, termsOpenForChange } from "../auction-rules";
import { timezoneOf } from "../lifecycle/auction-form.server";
import type { Route } from "./+types/auction-lots";
import { MAX_LOTS } from "./line-items";
import { deleteLot, saveLotSettings } from "./lot-editing.server";
import { type LotSettingsValue, lotSettingsSchema } from "./lot-schema";
import { lotName } from "./lot-words";
import { lotsWithLines } from "./lots.server";

// /auctions/{id}/lots: a reverse auction's lots (issue 31), each with its reserve, decrement, line
// items and scheduled closing; how far apart they close; and what sellers see of the others. A sealed
// auction's lots (up to MAX_LOTS) have line items, their price schedules, but no decrement and no gap:
// all close at its deadline.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction } = await requireAuctionOwner(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const lots = await lotsWithLines(db, auction.id);
  const timezone = timezoneOf(user);
  const done = new URL(request.url).searchParams.get("done");
  return {
    auctionId: auction.id,
    title: auction.title,
    editable: termsOpenForChange(auction, new Date()),
    sealed: auction.kind === "sealed",
    gap: String(auction.lotCloseGapMinutes),
    done: done === "saved" || done === "removed" || done === "settings" ? (done as keyof typeof DONE_TEXT) : null,
    lots: lots.map((lot) => ({
      id: lot.id,
      name: lotName(lot),
      lineCount: lot.lines.length,
      reserve: formatCents(lot.reserveCents),
      decrement: describeDecrement(decrementOf(lot), formatCents),
      closes: formatInZone(lot.scheduledEndsAt, timezone),
    })),
    maxLots: MAX_LOTS,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const body = await readFormBody(request);
  if (body.get("intent") === "remove") {
    const lotId = parseId(String(body.get("lot") ?? ""));
    if (lotId === undefined) throw data(null, { status: 404 });
    const removed = await deleteLot(services, auction.id, actor, lotId);
    if (removed.kind === "refused") return data({ refused: removed.message }, { status: removed.status });
    return redirect(`/auctions/${auction.id}/lots?done=removed`);
  }
  const submission = parseSubmission(body, { schema: lotSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const changed = await saveLotSettings(services, auction.id, actor, { gapMinutes: submission.value.gap });
  if (changed.kind === "refused") {
    return data({ result: submission.reply({ formErrors: [changed.message] }) }, { status: changed.status });
  }
  return redirect(`/auctions/${auction.id}/lots?done=settings`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Lots: ${loaderData.title}` : "Lots") }];
}

const DONE_TEXT = {
  saved: "The lot was saved.",
  removed: "The lot was removed; the ones after it moved up.",
  settings: "The gap between the lots' closings was saved.",
} as const;

export default function AuctionLots({ loaderData, actionData }: Route.ComponentProps) {
  const { auctionId, title, editable, sealed, lots, done, maxLots } = loaderData;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const refused = actionData && "refused" in actionData ? actionData.refused : undefined;
  const [form, fields] = useForm<{ gap: string }, LotSettingsValue>({
    id: "lot-settings",
    lastResult: result,
    defaultValue: { gap: loaderData.gap },
    ...validatedBy(lotSettingsSchema, { constraint: false }),
  });
  const { formProps, submissionKey } = useSubmitAttempts(form, result);
  const fieldLinks = (fields.gap.errors ?? []).map((message) => ({ fieldId: fields.gap.id, message }));
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Lots: ${title}`}</h1>
      {done ? (
        <Alert title="Saved" tone="success" focus>
          <p>{DONE_TEXT[done]}</p>
        </Alert>
      ) : null}
      {refused ? (
        <Alert title="Error!">
          <p>{refused}</p>
        </Alert>
      ) : null}
      {sealed && form.errors?.length ? (
        <Alert title="Error!">
          <p>{form.errors.join(" ")}</p>
        </Alert>
      ) : null}
      {sealed ? (
        <p>
          Give each lot line items and each seller sends, with their sealed bid, a unit price for every line of each lot
          they bid on (a seller may bid on some lots and not others): their bid on a lot is its total. All lots close at
          the deadline; after it you see each lot's bids side by side, line by line, and award each lot on its own or
          every lot to one seller. A lot of one line of quantity 1 without a ceiling is priced as one amount.
        </p>
      ) : (
        <p>
          Each lot is bid on and awarded on its own: sellers bid a unit price for every line, and the lot goes to its
          lowest total (or, with your reason, another). An auction of one lot of one line is priced as one amount.
        </p>
      )}
      <table className="table">
        <caption className="visually-hidden">The auction's lots</caption>
        <thead>
          <tr>
            <th scope="col">Lot</th>
            <th scope="col">Line items</th>
            <th scope="col">Reserve</th>
            {sealed ? null : <th scope="col">Decrement</th>}
            <th scope="col">{sealed ? "Deadline" : "Closes"}</th>
            {editable ? <th scope="col">Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {lots.map((lot) => (
            <tr key={lot.id}>
              <th scope="row">{lot.name}</th>
              <td>{lot.lineCount}</td>
              <td>{lot.reserve}</td>
              {sealed ? null : <td>{lot.decrement}</td>}
              <td>{lot.closes}</td>
              {editable ? (
                <td>
                  <Link to={`/auctions/${auctionId}/lots/${lot.id}`}>{`Edit ${lot.name}`}</Link>
                  {lots.length > 1 ? (
                    <RowActionForm intent="remove" name="lot" value={lot.id}>
                      {`Remove ${lot.name}`}
                    </RowActionForm>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {editable && sealed && lots.length < maxLots ? (
        <p>
          <Link to={`/auctions/${auctionId}/lots/new`} className="button button--secondary">
            Add a lot
          </Link>
        </p>
      ) : null}
      {editable && !sealed ? (
        <>
          {lots.length < maxLots ? (
            <p>
              <Link to={`/auctions/${auctionId}/lots/new`} className="button button--secondary">
                Add a lot
              </Link>
            </p>
          ) : null}
          <h2>Closing</h2>
          <Form method="post" {...formProps} className="stack">
            <ErrorSummary
              formErrors={fieldLinks.length > 0 ? ["Please correct the fields below."] : (form.errors ?? [])}
              fieldErrors={fieldLinks}
              submissionKey={submissionKey}
            />
            <TextField
              field={fields.gap}
              label="Minutes between lots' closings"
              hint="Lot 1 closes at the auction's end, lot 2 this many minutes later, and so on. A late bid moves only its own lot's end. 0: all at once."
              inputProps={{ inputMode: "numeric" }}
            />
            <SubmitButton>Save</SubmitButton>
          </Form>
        </>
      ) : editable ? null : (
        <p>Bidding has started: the lots can no longer change.</p>
      )}
    </div>
  );
}
