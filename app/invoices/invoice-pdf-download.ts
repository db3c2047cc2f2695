import { data } from "react-router";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import { Role } from "~/shared/roles";
import type { Route } from "./+types/invoice-pdf-download";
import { parseDocumentNumber } from "./invoice-amounts";
import { documentPdf } from "./invoice-lists.server";

// GET /account/invoices/<number>.pdf: an invoice's or credit note's PDF as kept at issue. Only the
// organization it is made out to and staff; anyone else gets the 404 of a number that does not exist,
// so numbers tell nothing about other organizations.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const file = params.file ?? "";
  const number = file.endsWith(".pdf") ? file.slice(0, -4) : "";
  if (!parseDocumentNumber(number)) throw data(null, { status: 404 });
  const found = await documentPdf(context.get(appServicesContext).db, number);
  if (!found || (user.role !== Role.Staff && found.organizationId !== user.organizationId))
    throw data(null, { status: 404 });
  return new Response(new Uint8Array(found.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${number}.pdf"`,
      "Content-Length": String(found.pdf.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
