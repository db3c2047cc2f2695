import { Link } from "react-router";
import { ErrorSummary } from "~/forms/error-summary";
import { FilterForm } from "~/forms/filter-select";
import { TextInput } from "~/forms/text-input";
import { ColumnHeads } from "~/layout/column-heads";
import { TableRegion } from "~/layout/table-region";
import { formatCents } from "~/shared/money";
import { dayIn, FROM_MESSAGE, type ReportFilter, TO_MESSAGE } from "./report-filter";
import type { ReportRow } from "./reports.server";
import { formatBasisPoints, monthName, type ReportTotals, savingsOf } from "./savings";

// What the buyer's, consultant's and staff's report pages share (issue 21): the period form (a GET
// form, so it works without JavaScript), the totals, a table of totals per group, and the bar chart
// of savings per month (server-rendered SVG; every bar carries its amount in words, and the table
// of months beside it is the chart's text alternative).

export function PeriodForm({
  filter,
  timeZone,
  csvHref,
}: {
  filter: Pick<ReportFilter, "from" | "to" | "errors">;
  timeZone: string;
  csvHref: string;
}) {
  const fieldErrors = [
    filter.errors.from ? { fieldId: "report-from", message: filter.errors.from } : null,
    filter.errors.to ? { fieldId: "report-to", message: filter.errors.to } : null,
  ].filter((error) => error !== null);
  // A date field holds a real day or nothing: a malformed one (typed into the address) is not put back.
  return (
    <>
      <ErrorSummary fieldErrors={fieldErrors} submissionKey={`${filter.from}|${filter.to}`} />
      <FilterForm>
        <TextInput
          id="report-from"
          name="from"
          label="From (awarded on or after)"
          type="date"
          hint="YYYY-MM-DD"
          errors={filter.errors.from ? [filter.errors.from] : undefined}
          inputProps={{ defaultValue: filter.errors.from === FROM_MESSAGE ? "" : filter.from }}
        />
        <TextInput
          id="report-to"
          name="to"
          label="To (awarded on or before)"
          type="date"
          hint="YYYY-MM-DD"
          errors={filter.errors.to ? [filter.errors.to] : undefined}
          inputProps={{ defaultValue: filter.errors.to === TO_MESSAGE ? "" : filter.to }}
        />
      </FilterForm>
      <p className="field__hint">{`Days are in your time zone (${timeZone}); leave a date empty for no limit.`}</p>
      <p>
        <a href={csvHref} download>
          Download this report (CSV)
        </a>
      </p>
    </>
  );
}

export function TotalsList({ totals, heading = "Totals for the period" }: { totals: ReportTotals; heading?: string }) {
  return (
    <section aria-labelledby="report-totals">
      <h2 id="report-totals">{heading}</h2>
      <FiguresList
        figures={[
          ["Awarded auctions", String(totals.auctions)],
          ["Reserve", formatCents(totals.reserveCents)],
          ["Award price", formatCents(totals.awardCents)],
          [
            "Savings against the reserve",
            `${formatCents(totals.savingsCents)} (${formatBasisPoints(totals.savingsBasisPoints)})`,
          ],
          ["Sellers invited", String(totals.invitedCount)],
          ["Bidders", String(totals.bidderCount)],
        ]}
      />
    </section>
  );
}

/** Figures as a summary list: each a term and its value. */
export function FiguresList({ figures }: { figures: [term: string, value: string][] }) {
  return (
    <dl className="summary-list">
      {figures.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An awarded auction's figures as the reports show them, its award day in the reader's zone. */
export function rowFigures(row: ReportRow, timeZone: string) {
  return {
    title: row.title,
    kind: row.kind,
    awardedOn: dayIn(row.awardedAt, timeZone),
    reserveCents: row.reserveCents,
    openingCents: row.openingCents,
    awardCents: row.awardCents,
    ...savingsOf(row.reserveCents, row.awardCents),
    invitedCount: row.invitedCount,
    bidderCount: row.bidderCount,
    lotCount: row.lotCount,
  };
}

export type GroupView = { key: string; label: string; totals: ReportTotals };

export function GroupTable({ caption, heading, groups }: { caption: string; heading: string; groups: GroupView[] }) {
  if (groups.length === 0) return null;
  return (
    <TableRegion label={caption}>
      <table className="data-table">
        <caption>{caption}</caption>
        <ColumnHeads columns={[heading, "Auctions", "Reserve", "Award price", "Savings", "Savings %", "Bidders"]} />
        <tbody>
          {groups.map((group) => (
            <tr key={group.key}>
              <th scope="row">{group.label}</th>
              <td>{group.totals.auctions}</td>
              <td>{formatCents(group.totals.reserveCents)}</td>
              <td>{formatCents(group.totals.awardCents)}</td>
              <td>{formatCents(group.totals.savingsCents)}</td>
              <td>{formatBasisPoints(group.totals.savingsBasisPoints)}</td>
              <td>{group.totals.bidderCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

const CHART_HEIGHT = 220;
const BAR_AREA_TOP = 28;
const BAR_AREA_BOTTOM = 180;
const SLOT = 96;

/** Savings per month as bars; the amount is written above each bar and the month under it. */
export function SavingsChart({ months }: { months: GroupView[] }) {
  if (months.length === 0) return null;
  const largest = Math.max(1, ...months.map((month) => month.totals.savingsCents));
  const width = Math.max(320, months.length * SLOT + 20);
  const span = BAR_AREA_BOTTOM - BAR_AREA_TOP;
  const summary = months.map((month) => `${month.label}: ${formatCents(month.totals.savingsCents)} saved`).join("; ");
  return (
    <figure className="report-chart">
      <figcaption id="savings-chart-caption">
        Savings against the reserve per month (the same figures are in the table “Totals by month”)
      </figcaption>
      <TableRegion label="Savings chart">
        <svg
          role="img"
          aria-labelledby="savings-chart-title"
          aria-describedby="savings-chart-desc"
          viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
          width={width}
          height={CHART_HEIGHT}
          className="report-chart__svg"
        >
          <title id="savings-chart-title">Bar chart of savings per month</title>
          <desc id="savings-chart-desc">{summary}</desc>
          <line x1={10} x2={width - 10} y1={BAR_AREA_BOTTOM} y2={BAR_AREA_BOTTOM} className="report-chart__axis" />
          {months.map((month, index) => {
            // A month without savings (or with a loss) draws no bar; its amount is still written.
            const height = Math.round((Math.max(0, month.totals.savingsCents) / largest) * span);
            const x = 20 + index * SLOT;
            return (
              <g key={month.key}>
                <rect
                  x={x}
                  y={BAR_AREA_BOTTOM - height}
                  width={SLOT - 30}
                  height={height}
                  className="report-chart__bar"
                />
                <text x={x + (SLOT - 30) / 2} y={BAR_AREA_BOTTOM - height - 6} textAnchor="middle" fontSize="11">
                  {formatCents(month.totals.savingsCents)}
                </text>
                <text x={x + (SLOT - 30) / 2} y={BAR_AREA_BOTTOM + 18} textAnchor="middle" fontSize="11">
                  {month.label.replace(/^(\w{3})\w* /, "$1 ")}
                </text>
              </g>
            );
          })}
        </svg>
      </TableRegion>
    </figure>
  );
}

export const monthViews = (groups: { key: string; totals: ReportTotals }[]): GroupView[] =>
  groups.map((group) => ({ ...group, label: monthName(group.key) }));

export function BackToAccount() {
  return (
    <p>
      <Link to="/account">Your account</Link>
    </p>
  );
}
