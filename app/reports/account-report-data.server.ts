import { data, type RouterContextProvider } from "react-router";
import { DEFAULT_TIMEZONE } from "~/platform/zoned-time";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { CurrentUser } from "~/sessions/current-user";
import { Role } from "~/shared/roles";
import { readReportFilter } from "./report-filter";
import { awardedAuctions, type ReportOptions } from "./reports.server";

// Who may read /account/reports (and its CSV): buyers and consultants, for the auctions their
// organization ran (auctions.organization_id); a consultant that only evaluated another's auction
// does not see it. Sellers, staff and users without an organization get 403.

export function requireReportReader(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(request, context);
  if ((user.role !== Role.Buyer && user.role !== Role.Consultant) || !user.organizationId)
    throw data(null, { status: 403 });
  return user as CurrentUser & { organizationId: number };
}

export const zoneOf = (user: CurrentUser) => user.timezone ?? DEFAULT_TIMEZONE;

/** The reader's awarded auctions in the period asked for, and the period as read. */
export async function organizationReport(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: ReportOptions = {},
) {
  const user = requireReportReader(request, context);
  const timeZone = zoneOf(user);
  const filter = readReportFilter(new URL(request.url), timeZone);
  const rows = await awardedAuctions(
    context.get(appServicesContext).db,
    { organizationId: user.organizationId },
    filter,
    options,
  );
  return { user, timeZone, filter, rows };
}
