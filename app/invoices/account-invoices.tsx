import { data, Link } from "react-router";
import { ColumnHeads } from "~/layout/column-heads";
import { PageLinks } from "~/layout/page-links";
import { pageTitle } from "~/layout/page-title";
import { pageOf } from "~/layout/pager";
import { TableRegion } from "~/layout/table-region";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { utcDay } from "~/shared/dates";
import { formatCents } from "~/shared/money";
import { Role } from "~/shared/roles";
import type { Route } from "./+types/account-invoices";
import { organizationDocuments } from "./invoice-lists.server";
import { DELIVERY_STATE_LABELS, PAGE_SIZE } from "./invoice-terms";

// /account/invoices: the organization's invoices (one per awarded auction) and credit notes, newest
// first, 50 a page, each with its PDF. Buyers and consultants: the organizations auctions are run by.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  if (user.role === Role.Staff || !user.organizationId) throw data(null, { status: 403 });
  const page = pageOf(new URL(request.url));
  const { rows, hasOlder } = await organizationDocuments(context.get(appServicesContext).db, user.organizationId, page);
  return {
    page,
    hasOlder,
    rows: rows.map((row) => ({ ...row, issuedAt: row.issuedAt.toISOString() })),
  };
}

export function meta() {
  return [{ title: pageTitle("Invoices") }];
}

export default function AccountInvoices({ loaderData }: Route.ComponentProps) {
  const { rows, page, hasOlder } = loaderData;
  return (
    <div>
      <p>
        <Link to="/account">Your account</Link>
      </p>
      <h1>Invoices</h1>
      <p>
        Each awarded auction is invoiced to your organization: the per-auction fee plus 5% GST. A mistake on an invoice
        is corrected by a credit note, listed here too.
      </p>
      {rows.length === 0 ? (
        <p>{page === 1 ? "No invoices yet." : "No older invoices."}</p>
      ) : (
        <TableRegion label="Invoices and credit notes">
          <table className="data-table">
            <caption>{`Invoices and credit notes, newest first${page > 1 ? `, page ${page}` : ""}`}</caption>
            <ColumnHeads columns={["Number", "Date", "Auction", "Amount", "GST", "Total", "State", "PDF"]} />
            <tbody>
              {rows.map((row) => (
                <tr key={row.number}>
                  <th scope="row">{row.kind === "invoice" ? `Invoice ${row.number}` : `Credit note ${row.number}`}</th>
                  <td>
                    <time dateTime={row.issuedAt}>{utcDay(row.issuedAt)}</time>
                  </td>
                  <td>
                    <Link to={`/auctions/${row.auctionId}`}>{`No. ${row.auctionId}: ${row.auctionTitle}`}</Link>
                  </td>
                  <td>{row.kind === "invoice" ? formatCents(row.amountCents) : `−${formatCents(row.amountCents)}`}</td>
                  <td>{row.kind === "invoice" ? formatCents(row.gstCents) : `−${formatCents(row.gstCents)}`}</td>
                  <td>{row.kind === "invoice" ? formatCents(row.totalCents) : `−${formatCents(row.totalCents)}`}</td>
                  <td>
                    {row.kind === "invoice"
                      ? `${DELIVERY_STATE_LABELS[row.deliveryState]} (${row.billingPreference})`
                      : `Credits ${row.invoiceNumber}`}
                  </td>
                  <td>
                    <a href={`/account/invoices/${row.number}.pdf`} download>
                      {`Download ${row.number} (PDF)`}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <PageLinks
        label="Pages of invoices"
        newer={page === 2 ? "/account/invoices" : page > 2 ? `/account/invoices?page=${page - 1}` : null}
        older={hasOlder ? `/account/invoices?page=${page + 1}` : null}
      />
      <p className="field__hint">{`${PAGE_SIZE} a page. Dates are in UTC.`}</p>
    </div>
  );
}
