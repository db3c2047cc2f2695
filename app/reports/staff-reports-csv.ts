import { DEFAULT_TIMEZONE } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import type { Route } from "./+types/staff-reports-csv";
import { marketplaceCsv, reportResponse } from "./report-csv.server";
import { readReportFilter } from "./report-filter";
import { awardedAuctions } from "./reports.server";

// GET /staff/reports.csv?from=…&to=…: the marketplace's totals by month, category and area
// (columns: MARKETPLACE_COLUMNS, documented in docs/decisions/021-savings-reports.md).

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireStaff(request, context);
  const timeZone = staff.timezone ?? DEFAULT_TIMEZONE;
  const filter = readReportFilter(new URL(request.url), timeZone);
  const rows = await awardedAuctions(context.get(appServicesContext).db, "marketplace", filter);
  return reportResponse(marketplaceCsv(rows, timeZone), "marketplace-report");
}
