import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { csvResponse } from "~/shared/csv";
import { utcDay } from "~/shared/dates";
import type { Route } from "./+types/staff-invoices-csv";
import { accountingCsv } from "./invoice-csv.server";
import { staffInvoices } from "./invoice-lists.server";
import { readFilter } from "./invoice-terms";

// GET /staff/invoices.csv?state=…&preference=…: the list /staff/invoices shows, every page of it, for
// accounting (columns: ACCOUNTING_COLUMNS, documented in docs/decisions/015-buyer-invoices.md).

export async function loader({ request, context }: Route.LoaderArgs) {
  requireStaff(request, context);
  const { rows } = await staffInvoices(context.get(appServicesContext).db, readFilter(new URL(request.url)), "all");
  return csvResponse(accountingCsv(rows), `invoices-${utcDay(new Date())}.csv`);
}
