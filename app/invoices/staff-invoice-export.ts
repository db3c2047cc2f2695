import { data } from "react-router";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { csvResponse } from "~/shared/csv";
import { parseId } from "~/shared/ids";
import type { Route } from "./+types/staff-invoice-export";
import { exportFile } from "./invoice-exports.server";

// GET /staff/invoices/exports/<id>: an Open Invoice or Cortex export file, the same bytes every time.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireStaff(request, context);
  const id = parseId(params.exportId);
  const found = id ? await exportFile(context.get(appServicesContext).db, id) : undefined;
  if (!found) throw data(null, { status: 404 });
  return csvResponse(found.csv, found.fileName);
}
