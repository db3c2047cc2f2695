import { data } from "react-router";
import { requireStaff } from "~/accounts/sessions/auth.server";
import { parseId } from "~/catalogue/catalogue-schemas";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/staff-invoice-export";
import { exportFile } from "./invoice-exports.server";

// GET /staff/invoices/exports/<id>: an Open Invoice or Cortex export file, the same bytes every time.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireStaff(request, context);
  const id = parseId(params.exportId);
  const found = id ? await exportFile(context.get(appServicesContext).db, id) : undefined;
  if (!found) throw data(null, { status: 404 });
  return new Response(found.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${found.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
