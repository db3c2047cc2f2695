import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { TextAreaField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { useSubmitAttempts } from "~/forms/submit-attempts";
import { SubmitButton } from "~/forms/submit-button";
import { ColumnHeads } from "~/layout/column-heads";
import { pageTitle } from "~/layout/page-title";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { utcDay, utcMinute } from "~/shared/dates";
import { dollars, formatCents } from "~/shared/money";
import type { Route } from "./+types/staff-invoice";
import { issueCreditNote } from "./credit-notes.server";
import { parseDocumentNumber } from "./invoice-amounts";
import { markMailed } from "./invoice-delivery.server";
import { staffInvoice } from "./invoice-lists.server";
import {
  creditNoteSchema,
  invoicePageSchema,
  markMailedSchema,
  NOTHING_TO_CREDIT,
  overRemaining,
} from "./invoice-schema";
import { DELIVERY_STATE_LABELS } from "./invoice-terms";

// /staff/invoices/<number>: one invoice as issued, its delivery, its credit notes; "Mark as mailed"
// for a Mail Invoice invoice once posted, and "Issue a credit note" (never more than remains).

async function load(db: Parameters<typeof staffInvoice>[0], number: string | undefined) {
  const found = number && parseDocumentNumber(number)?.prefix === "INV" ? await staffInvoice(db, number) : undefined;
  if (!found) throw data(null, { status: 404 });
  return found;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireStaff(request, context);
  const { invoice, notes, remaining } = await load(context.get(appServicesContext).db, params.number);
  const done = new URL(request.url).searchParams.get("done");
  return {
    done: done === "mailed" || done === "credited" ? done : undefined,
    invoice: {
      number: invoice.number,
      issuedAt: invoice.issuedAt.toISOString(),
      auctionId: invoice.auctionId,
      auctionTitle: invoice.auctionTitle,
      billToName: invoice.billToName,
      billToContact: invoice.billToContact,
      billToEmail: invoice.billToEmail,
      billToAddress: invoice.billToAddress,
      billingPreference: invoice.billingPreference,
      deliveryState: invoice.deliveryState,
      feeCents: invoice.feeCents,
      gstCents: invoice.gstCents,
      totalCents: invoice.totalCents,
      mailedAt: invoice.mailedAt?.toISOString() ?? null,
      exportedAt: invoice.exportedAt?.toISOString() ?? null,
      exportId: invoice.exportId,
    },
    notes: notes.map((note) => ({ ...note, issuedAt: note.issuedAt.toISOString() })),
    remaining,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = requireStaff(request, context);
  const services = context.get(appServicesContext);
  const { invoice } = await load(services.db, params.number);
  const formData = await readFormBody(request);
  if (formData.get("intent") === "mark-mailed") {
    const submission = parseSubmission(formData, { schema: markMailedSchema });
    const outcome = await markMailed(services.db, invoice.number, staff.id);
    if (outcome === "mailed") return redirect(`/staff/invoices/${invoice.number}?done=mailed`);
    return data(
      {
        mailed: submission.reply({
          formErrors: [
            invoice.deliveryState === "mailed"
              ? `${invoice.number} is already marked mailed.`
              : `${invoice.number} is not a Mail Invoice invoice: it is not posted.`,
          ],
        }),
      },
      { status: 409 },
    );
  }
  const submission = parseSubmission(formData, { schema: invoicePageSchema });
  if (submission.status !== "success" || submission.value.intent !== "credit-note") {
    return data({ credit: submission.reply() }, { status: 400 });
  }
  const outcome = await issueCreditNote(
    services.db,
    services.env,
    invoice.number,
    { amountCents: submission.value.amount, reason: submission.value.reason },
    staff.id,
  );
  if (outcome.kind === "not-found") throw data(null, { status: 404 });
  if (outcome.kind === "over") {
    const message =
      outcome.remainingCents === 0
        ? NOTHING_TO_CREDIT(invoice.number)
        : overRemaining(formatCents(outcome.remainingCents), invoice.number);
    return data({ credit: submission.reply({ fieldErrors: { amount: [message] } }) }, { status: 400 });
  }
  return redirect(`/staff/invoices/${invoice.number}?done=credited`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Invoice ${loaderData.invoice.number}` : "Invoice") }];
}

export default function StaffInvoice(props: Route.ComponentProps) {
  // Each answer starts the forms afresh, as a page load does without JavaScript.
  return <StaffInvoicePage key={useLocation().key} {...props} />;
}

function StaffInvoicePage({ loaderData, actionData }: Route.ComponentProps) {
  const { invoice, notes, remaining, done } = loaderData;
  const [mailedForm] = useForm({
    id: "mark-mailed",
    lastResult: actionData && "mailed" in actionData ? actionData.mailed : undefined,
  });
  const creditResult = actionData && "credit" in actionData ? actionData.credit : undefined;
  const [creditForm, creditFields] = useForm({
    id: "credit-note",
    lastResult: creditResult,
    ...validatedBy(creditNoteSchema),
  });
  const { formProps, submissionKey } = useSubmitAttempts(creditForm, actionData);
  const remainingTotal = remaining.amountCents + remaining.gstCents;
  return (
    <div className="narrow">
      <p>
        <Link to="/staff/invoices">All invoices</Link>
      </p>
      <h1>{`Invoice ${invoice.number}`}</h1>
      <ErrorSummary
        formErrors={[...(mailedForm.errors ?? []), ...(creditForm.errors ?? [])]}
        fieldErrors={summaryLinks([creditFields.amount, creditFields.reason])}
        submissionKey={submissionKey}
      />
      {done ? (
        <Alert title={done === "mailed" ? "Marked mailed" : "Credit note issued"} tone="success" focus>
          <p>
            {done === "mailed"
              ? `${invoice.number} is marked mailed.`
              : `The credit note is listed below; the buyer sees it at /account/invoices.`}
          </p>
        </Alert>
      ) : null}
      <dl className="summary-list">
        <div>
          <dt>Date</dt>
          <dd>
            <time dateTime={invoice.issuedAt}>{utcDay(invoice.issuedAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Bill to</dt>
          <dd>
            {[
              invoice.billToName,
              invoice.billToContact ? `Attention: ${invoice.billToContact}` : null,
              ...invoice.billToAddress.split("\n"),
            ]
              .filter(Boolean)
              .join(", ")}
            {invoice.billToEmail ? ` (${invoice.billToEmail})` : ""}
          </dd>
        </div>
        <div>
          <dt>Auction</dt>
          <dd>
            <Link to={`/auctions/${invoice.auctionId}`}>{`No. ${invoice.auctionId}: ${invoice.auctionTitle}`}</Link>
          </dd>
        </div>
        <div>
          <dt>Per-auction fee</dt>
          <dd>{formatCents(invoice.feeCents)}</dd>
        </div>
        <div>
          <dt>GST 5%</dt>
          <dd>{formatCents(invoice.gstCents)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{formatCents(invoice.totalCents)}</dd>
        </div>
        <div>
          <dt>Billing preference</dt>
          <dd>{invoice.billingPreference}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            {DELIVERY_STATE_LABELS[invoice.deliveryState]}
            {invoice.mailedAt ? `, ${utcMinute(invoice.mailedAt)}` : ""}
            {invoice.exportedAt ? `, ${utcMinute(invoice.exportedAt)} (export No. ${invoice.exportId})` : ""}
          </dd>
        </div>
      </dl>
      <p>
        <a href={`/account/invoices/${invoice.number}.pdf`} download>{`Download ${invoice.number} (PDF)`}</a>
      </p>
      {invoice.deliveryState === "to_mail" ? (
        <section aria-labelledby="mail-heading">
          <h2 id="mail-heading">Post it</h2>
          <p>Print the PDF, post it to the address above, then mark it mailed.</p>
          <Form method="post" id={mailedForm.id} noValidate>
            <input type="hidden" name="intent" value="mark-mailed" />
            <SubmitButton>Mark as mailed</SubmitButton>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="notes-heading">
        <h2 id="notes-heading">Credit notes</h2>
        {notes.length === 0 ? (
          <p>None.</p>
        ) : (
          <table className="data-table">
            <caption>{`Credit notes of ${invoice.number}`}</caption>
            <ColumnHeads columns={["Number", "Date", "Amount", "GST", "Total", "Reason"]} />
            <tbody>
              {notes.map((note) => (
                <tr key={note.number}>
                  <th scope="row">
                    <a href={`/account/invoices/${note.number}.pdf`} download>
                      {`${note.number} (PDF)`}
                    </a>
                  </th>
                  <td>
                    <time dateTime={note.issuedAt}>{utcDay(note.issuedAt)}</time>
                  </td>
                  <td>{formatCents(note.amountCents)}</td>
                  <td>{formatCents(note.gstCents)}</td>
                  <td>{formatCents(note.totalCents)}</td>
                  <td>{note.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>{`Remaining to credit: ${formatCents(remaining.amountCents)} before GST (${formatCents(remainingTotal)} with GST).`}</p>
      </section>
      {remaining.amountCents > 0 ? (
        <section aria-labelledby="credit-heading">
          <h2 id="credit-heading">Issue a credit note</h2>
          <Form method="post" {...formProps} className="stack">
            <input type="hidden" name="intent" value="credit-note" />
            <TextField
              field={creditFields.amount}
              label="Amount to credit, before GST"
              hint={`In dollars and cents, at most ${dollars(remaining.amountCents)}. GST of 5% is credited with it.`}
              inputProps={{ inputMode: "decimal", autoComplete: "off" }}
            />
            <TextAreaField
              field={creditFields.reason}
              label="Reason"
              hint="Printed on the credit note the buyer receives."
            />
            <SubmitButton>Issue the credit note</SubmitButton>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
