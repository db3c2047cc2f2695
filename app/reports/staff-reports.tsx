import { pageTitle } from "~/layout/page-title";
import { DEFAULT_TIMEZONE } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import type { Route } from "./+types/staff-reports";
import { groupings } from "./report-csv.server";
import { filterSearch, readReportFilter } from "./report-filter";
import { GroupTable, monthViews, PeriodForm, SavingsChart, TotalsList } from "./report-parts";
import { awardedAuctions } from "./reports.server";
import { totalsBy, totalsOf } from "./savings";

// /staff/reports (issue 21): the marketplace's awarded auctions in a period, totalled by month (in
// the staff member's zone), by category (the top of the service's branch) and by area, as a chart,
// tables and CSV. Staff see totals only: no auction, buyer or seller is named here.

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireStaff(request, context);
  const timeZone = staff.timezone ?? DEFAULT_TIMEZONE;
  const filter = readReportFilter(new URL(request.url), timeZone);
  const rows = await awardedAuctions(context.get(appServicesContext).db, "marketplace", filter);
  const [byMonth, byCategory, byArea] = groupings(timeZone).map(([, keyOf]) => totalsBy(rows, keyOf));
  return {
    timeZone,
    filter: { from: filter.from, to: filter.to, errors: filter.errors },
    csvHref: `/staff/reports.csv${filterSearch(filter)}`,
    totals: totalsOf(rows),
    months: monthViews(byMonth ?? []),
    categories: (byCategory ?? []).map((group) => ({ ...group, label: group.key })),
    areas: (byArea ?? []).map((group) => ({ ...group, label: group.key })),
  };
}

export function meta() {
  return [{ title: pageTitle("Marketplace reports") }];
}

export default function StaffReports({ loaderData }: Route.ComponentProps) {
  const { totals, months, categories, areas, filter, csvHref, timeZone } = loaderData;
  return (
    <div>
      <h1>Marketplace reports</h1>
      <p>Every awarded auction of the marketplace: savings against the reserve, by month, category and area.</p>
      <PeriodForm filter={filter} timeZone={timeZone} csvHref={csvHref} />
      <TotalsList totals={totals} />
      {totals.auctions === 0 ? (
        <p>No awarded auctions in this period.</p>
      ) : (
        <>
          <h2>Savings by month</h2>
          <SavingsChart months={months} />
          <GroupTable caption="Totals by month" heading="Month" groups={months} />
          <h2>By category</h2>
          <GroupTable caption="Totals by category" heading="Category" groups={categories} />
          <h2>By area</h2>
          <GroupTable caption="Totals by area" heading="Area" groups={areas} />
        </>
      )}
      <p className="field__hint">
        Percentages are savings over reserve, rounded half to even to 0.01%; a group's percentage is its total savings
        over its total reserve.
      </p>
    </div>
  );
}
