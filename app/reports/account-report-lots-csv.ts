import type { Route } from "./+types/account-report-lots-csv";
import { organizationReport } from "./account-report-data.server";
import { lotsCsv, reportResponse } from "./report-csv.server";

// GET /account/reports/lots.csv?from=…&to=…: each awarded lot of the period's auctions of several
// lots (issue 31; columns: LOT_COLUMNS, documented in the README's reports section).

export async function loader({ request, context }: Route.LoaderArgs) {
  const { rows, timeZone } = await organizationReport(request, context);
  return reportResponse(lotsCsv(rows, timeZone), "savings-report-lots");
}
