import type { Route } from "./+types/account-report-lines-csv";
import { organizationReport } from "./account-report-data.server";
import { linesCsv, reportResponse } from "./report-csv.server";

// GET /account/reports/lines.csv?from=…&to=…: each line with a ceiling of the period's awarded lots
// and what the award saved on it (issue 31; columns: LINE_COLUMNS, documented in the README's
// reports section).

export async function loader({ request, context }: Route.LoaderArgs) {
  const { rows, timeZone } = await organizationReport(request, context, { withLines: true });
  return reportResponse(linesCsv(rows, timeZone), "savings-report-lines");
}
