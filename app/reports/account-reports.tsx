import { Link, useLocation } from "react-router";
import { ColumnHeads } from "~/layout/column-heads";
import { pageTitle } from "~/layout/page-title";
import { Pager, pageCountOf, pageOf } from "~/layout/pager";
import { TableRegion } from "~/layout/table-region";
import { formatCents } from "~/shared/money";
import { Role } from "~/shared/roles";
import { counted } from "~/shared/words";
import type { Route } from "./+types/account-reports";
import { organizationReport } from "./account-report-data.server";
import { filterSearch, monthIn } from "./report-filter";
import {
  BackToAccount,
  GroupTable,
  monthViews,
  PeriodForm,
  rowFigures,
  SavingsChart,
  TotalsList,
} from "./report-parts";
import type { ReportRow } from "./reports.server";
import { formatBasisPoints, totalsBy, totalsOf } from "./savings";

// /account/reports (issue 21): the awarded auctions the reader's organization ran, in a period
// chosen by a GET form: each auction's reserve, opening and award prices, savings, invited sellers
// and bidders; the period's totals; savings per month as a chart and a table; the same as CSV.

export const PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, timeZone, filter, rows } = await organizationReport(request, context);
  const pageCount = pageCountOf(rows.length, PAGE_SIZE);
  const page = Math.min(pageOf(new URL(request.url)), pageCount);
  // Newest award first in the table; totals and months cover the whole period, not the page.
  const newestFirst = [...rows].reverse().slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const search = filterSearch(filter);
  return {
    isConsultant: user.role === Role.Consultant,
    organizationName: user.organizationName,
    timeZone,
    filter: { from: filter.from, to: filter.to, errors: filter.errors },
    csvHref: `/account/reports.csv${search}`,
    // The lots' and lines' files, only when the period has an auction of several lots or a line with a ceiling.
    lotsCsvHref: rows.some((row) => row.lotCount > 1) ? `/account/reports/lots.csv${search}` : null,
    linesCsvHref: rows.some((row) => ceilingLinesOf(row) > 0) ? `/account/reports/lines.csv${search}` : null,
    totals: totalsOf(rows),
    months: monthViews(totalsBy(rows, (row) => monthIn(row.awardedAt, timeZone))),
    page,
    pageCount,
    rows: newestFirst.map((row) => ({
      auctionId: row.auctionId,
      ...rowFigures(row, timeZone),
      awardedLots: row.lots.length,
      detail: detailOf(row),
      detailHref: `/account/reports/${row.auctionId}${search}`,
    })),
  };
}

const ceilingLinesOf = (row: ReportRow) => row.lots.reduce((sum, lot) => sum + lot.ceilingLineCount, 0);

/** The link to an auction's savings by lot and line: only for several lots or a line with a ceiling. */
function detailOf(row: ReportRow): string | null {
  const byLot = row.lotCount > 1;
  const byLine = ceilingLinesOf(row) > 0;
  if (byLot && byLine) return "Savings by lot and line";
  if (byLot) return "Savings by lot";
  return byLine ? "Savings by line" : null;
}

export function meta() {
  return [{ title: pageTitle("Savings reports") }];
}

export default function AccountReports({ loaderData }: Route.ComponentProps) {
  const { rows, totals, months, filter, csvHref, lotsCsvHref, linesCsvHref, timeZone, page, pageCount, isConsultant } =
    loaderData;
  const { search } = useLocation();
  return (
    <div>
      <BackToAccount />
      <h1>Savings reports</h1>
      <p>
        {isConsultant
          ? "The auctions your organization ran that were awarded: what each saved against its reserve."
          : "Your organization's awarded auctions: what each saved against its reserve."}{" "}
        The opening price is the first bid of a reverse auction, and the highest sealed bid of a sealed-bid auction.
        {rows.some((row) => row.lotCount > 1)
          ? " An auction of several lots is measured over its awarded lots only: its reserve, opening price and award price are those lots' added up."
          : null}
      </p>
      <PeriodForm filter={filter} timeZone={timeZone} csvHref={csvHref} />
      {lotsCsvHref || linesCsvHref ? (
        <ul>
          {lotsCsvHref ? (
            <li>
              <a href={lotsCsvHref} download>
                Download the awarded lots of auctions of several lots (CSV)
              </a>
            </li>
          ) : null}
          {linesCsvHref ? (
            <li>
              <a href={linesCsvHref} download>
                Download the savings of lines with a ceiling (CSV)
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
      <TotalsList totals={totals} />
      {rows.length === 0 ? (
        <p>No awarded auctions in this period.</p>
      ) : (
        <>
          <h2>Savings by month</h2>
          <SavingsChart months={months} />
          <GroupTable caption="Totals by month" heading="Month" groups={months} />
          <h2>Awarded auctions</h2>
          <TableRegion label="Awarded auctions">
            <table className="data-table">
              <caption>{`Awarded auctions, newest award first${page > 1 ? `, page ${page}` : ""}`}</caption>
              <ColumnHeads
                columns={[
                  "Auction",
                  "Awarded on",
                  "Reserve",
                  "Opening price",
                  "Award price",
                  "Savings",
                  "Savings %",
                  "Sellers invited",
                  "Bidders",
                ]}
              />
              <tbody>
                {rows.map((row) => (
                  <tr key={row.auctionId}>
                    <th scope="row">
                      <Link to={`/auctions/${row.auctionId}`}>{`No. ${row.auctionId}: ${row.title}`}</Link>
                      {row.kind === "sealed" ? " (sealed bids)" : null}
                      {row.lotCount > 1
                        ? ` (${row.awardedLots} of ${counted(row.lotCount, "lot", "lots")} awarded)`
                        : null}
                      {row.detail ? (
                        <>
                          {" "}
                          <Link to={row.detailHref}>{row.detail}</Link>
                        </>
                      ) : null}
                    </th>
                    <td>{row.awardedOn}</td>
                    <td>{formatCents(row.reserveCents)}</td>
                    <td>{row.openingCents === null ? "n/a" : formatCents(row.openingCents)}</td>
                    <td>{formatCents(row.awardCents)}</td>
                    <td>{formatCents(row.savingsCents)}</td>
                    <td>{formatBasisPoints(row.savingsBasisPoints)}</td>
                    <td>{row.invitedCount}</td>
                    <td>{row.bidderCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <Pager page={page} pageCount={pageCount} search={search} label="Pages of awarded auctions" />
        </>
      )}
      <p className="field__hint">
        Percentages are savings over reserve, rounded half to even to 0.01%; a total's percentage is the total savings
        over the total reserve.
      </p>
    </div>
  );
}
