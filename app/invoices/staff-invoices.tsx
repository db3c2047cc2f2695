import { useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { FilterForm, FilterSelect } from "~/forms/filter-select";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { ColumnHeads } from "~/layout/column-heads";
import { PageLinks } from "~/layout/page-links";
import { pageTitle } from "~/layout/page-title";
import { pageOf } from "~/layout/pager";
import { TableRegion } from "~/layout/table-region";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { utcDay, utcMinute } from "~/shared/dates";
import { parseId } from "~/shared/ids";
import { formatCents } from "~/shared/money";
import { counted, pluralOf } from "~/shared/words";
import { BILLING_PREFERENCES, DELIVERY_STATES, EXPORT_NETWORKS } from "~db/invoice-terms";
import type { Route } from "./+types/staff-invoices";
import { exportNetwork, recentExports } from "./invoice-exports.server";
import { staffInvoices, waitingCounts } from "./invoice-lists.server";
import { exportSchema } from "./invoice-schema";
import { DELIVERY_STATE_LABELS, filterQuery, readFilter } from "./invoice-terms";

// /staff/invoices: every invoice, newest first, filtered by state and billing preference (a GET form:
// the filters are in the address and work without JavaScript), 50 a page; the same list as CSV for
// accounting; the Open Invoice and Cortex exports (each a file kept for downloading again).

export async function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(request, context);
  const db = context.get(appServicesContext).db;
  const url = new URL(request.url);
  const filter = readFilter(url);
  const page = pageOf(url);
  const [{ rows, hasOlder, total }, waiting, exports] = await Promise.all([
    staffInvoices(db, filter, page),
    waitingCounts(db),
    recentExports(db),
  ]);
  const exported = url.searchParams.get("done") === "exported" ? parseId(url.searchParams.get("export")) : undefined;
  return {
    filter,
    page,
    hasOlder,
    total,
    waiting,
    justExported: exports.find((entry) => entry.id === exported) ?? null,
    exports: exports.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
    rows: rows.map((row) => ({
      number: row.number,
      issuedAt: row.issuedAt.toISOString(),
      auctionId: row.auctionId,
      auctionTitle: row.auctionTitle,
      billToName: row.billToName,
      billingPreference: row.billingPreference,
      deliveryState: row.deliveryState,
      totalCents: row.totalCents,
      creditedCents: row.creditedCents + row.creditedGstCents,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireStaff(request, context);
  const services = context.get(appServicesContext);
  const submission = parseSubmission(await readFormBody(request), { schema: exportSchema });
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ formErrors: ["Please choose Open Invoice or Cortex to export."] }) },
      { status: 400 },
    );
  }
  const network = submission.value.network;
  const done = await exportNetwork(services.db, services.env, network, staff.id);
  if (!done) {
    return data(
      { result: submission.reply({ formErrors: [`There are no ${network} invoices waiting to be exported.`] }) },
      { status: 409 },
    );
  }
  return redirect(`/staff/invoices?done=exported&export=${done.exportId}`);
}

export function meta() {
  return [{ title: pageTitle("Invoices") }];
}

export default function StaffInvoices(props: Route.ComponentProps) {
  return <StaffInvoicesPage key={useLocation().key} {...props} />;
}

function StaffInvoicesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, page, hasOlder, total, rows, waiting, exports, justExported } = loaderData;
  const [exportForm] = useForm({ id: "export", lastResult: actionData?.result });
  return (
    <div>
      <h1>Invoices</h1>
      <ErrorSummary formErrors={exportForm.errors} submissionKey={actionData} />
      {justExported ? (
        <Alert title="Exported" tone="success" focus>
          <p>
            {`${counted(justExported.invoiceCount, `${justExported.network} invoice`, `${justExported.network} invoices`)} marked exported. `}
            <a href={`/staff/invoices/exports/${justExported.id}`} download>{`Download ${justExported.fileName}`}</a>
          </p>
        </Alert>
      ) : null}
      <p>
        {`Waiting: ${waiting.toEmail} to be e-mailed, ${waiting.toMail} to mail, ${waiting.openInvoice} Open Invoice and ${waiting.cortex} Cortex to export.`}
      </p>
      <FilterForm>
        <FilterSelect
          name="state"
          label="State"
          all="All states"
          value={filter.state ?? ""}
          options={DELIVERY_STATES.map((state) => ({ value: state, label: DELIVERY_STATE_LABELS[state] }))}
        />
        <FilterSelect
          name="preference"
          label="Billing preference"
          all="All preferences"
          value={filter.preference ?? ""}
          options={BILLING_PREFERENCES.map((preference) => ({ value: preference, label: preference }))}
        />
      </FilterForm>
      <p>
        <a href={`/staff/invoices.csv${filterQuery(filter)}`} download>
          {`Download ${pluralOf(total, "this", "these")} ${counted(total, "invoice", "invoices")} as CSV`}
        </a>{" "}
        (for accounting)
      </p>
      {rows.length === 0 ? (
        <p>No invoices match.</p>
      ) : (
        <TableRegion label="Invoices">
          <table className="data-table">
            <caption>{`Invoices, newest first: ${total} ${pluralOf(total, "matches", "match")}${page > 1 ? `, page ${page}` : ""}`}</caption>
            <ColumnHeads
              columns={["Number", "Date", "Bill to", "Auction", "Billing preference", "State", "Total", "Credited"]}
            />
            <tbody>
              {rows.map((row) => (
                <tr key={row.number}>
                  <th scope="row">
                    <Link to={`/staff/invoices/${row.number}`}>{row.number}</Link>
                  </th>
                  <td>
                    <time dateTime={row.issuedAt}>{utcDay(row.issuedAt)}</time>
                  </td>
                  <td>{row.billToName}</td>
                  <td>{`No. ${row.auctionId}: ${row.auctionTitle}`}</td>
                  <td>{row.billingPreference}</td>
                  <td>{DELIVERY_STATE_LABELS[row.deliveryState]}</td>
                  <td>{formatCents(row.totalCents)}</td>
                  <td>{row.creditedCents ? formatCents(row.creditedCents) : "None"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <PageLinks
        label="Pages of invoices"
        newer={page > 1 ? `/staff/invoices${filterQuery(filter, page - 1)}` : null}
        older={hasOlder ? `/staff/invoices${filterQuery(filter, page + 1)}` : null}
      />
      <section aria-labelledby="exports-heading">
        <h2 id="exports-heading">E-invoicing exports</h2>
        <p>
          Each export is a CSV file of the network's invoices not yet exported (layout:
          docs/decisions/015-buyer-invoices.md), and marks them exported. Upload it to the network; a past export
          downloads again the same.
        </p>
        <div className="button-row">
          {EXPORT_NETWORKS.map((network) => (
            <Form method="post" key={network}>
              <input type="hidden" name="intent" value="export" />
              <input type="hidden" name="network" value={network} />
              <SubmitButton
                secondary
              >{`Export ${network} (${network === "Cortex" ? waiting.cortex : waiting.openInvoice} waiting)`}</SubmitButton>
            </Form>
          ))}
        </div>
        {exports.length === 0 ? (
          <p>No exports yet.</p>
        ) : (
          <table className="data-table">
            <caption>Past exports, newest first</caption>
            <ColumnHeads columns={["File", "Network", "Invoices", "Made"]} />
            <tbody>
              {exports.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row">
                    <a href={`/staff/invoices/exports/${entry.id}`} download>
                      {entry.fileName}
                    </a>
                  </th>
                  <td>{entry.network}</td>
                  <td>{entry.invoiceCount}</td>
                  <td>
                    <time dateTime={entry.createdAt}>{utcMinute(entry.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
