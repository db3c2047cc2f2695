import type { Route } from "./+types/account-reports-csv";
import { organizationReport } from "./account-report-data.server";
import { auctionsCsv, reportResponse } from "./report-csv.server";

// GET /account/reports.csv?from=…&to=…: the report /account/reports shows, every row of the period
// and a total line (columns: AUCTION_COLUMNS, documented in docs/decisions/021-savings-reports.md).

export async function loader({ request, context }: Route.LoaderArgs) {
  const { rows, timeZone } = await organizationReport(request, context);
  return reportResponse(auctionsCsv(rows, timeZone), "savings-report");
}
