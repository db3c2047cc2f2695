import { Link } from "react-router";
import { FilterForm, FilterSelect } from "~/forms/filter-select";
import { ColumnHeads } from "~/layout/column-heads";
import { pageTitle } from "~/layout/page-title";
import { Pager, pageCountOf, pageOf } from "~/layout/pager";
import { standingText } from "~/payments/subscription-summary";
import { standingReason } from "~/payments/subscriptions/standing";
import { appServicesContext } from "~/server/app-context";
import { utcMinute } from "~/shared/dates";
import { isOrganizationTypeCode, REGISTRATION_TYPES } from "~/shared/roles";
import type { Route } from "./+types/registrations";
import { listRegistrations, QUEUE_PAGE_SIZE, type QueueFilter } from "./review.server";
import { REGISTRATION_STATUSES, type RegistrationStatus, statusLabelOf, typeLabelOf } from "./review-terms";

// /staff/registrations: the queue of registrations, newest first, filtered by type and status (a GET
// form, so filters are in the address and work without JavaScript).

function readFilter(url: URL): QueueFilter {
  const type = Number(url.searchParams.get("type"));
  const status = url.searchParams.get("status");
  return {
    type: isOrganizationTypeCode(type) ? type : undefined,
    status: REGISTRATION_STATUSES.some((entry) => entry.value === status) ? (status as RegistrationStatus) : undefined,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = readFilter(url);
  const page = pageOf(url);
  const { rows, counts } = await listRegistrations(context.get(appServicesContext).db, filter, page);
  const total = filter.status
    ? (counts[filter.status] ?? 0)
    : Object.values(counts).reduce((sum, value) => sum + value, 0);
  return {
    filter,
    counts,
    page,
    pageCount: pageCountOf(total, QUEUE_PAGE_SIZE),
    search: url.search,
    rows: rows.map(({ subscriptionStatus, graceEndsAt, ...row }) => ({
      ...row,
      submittedAt: row.submittedAt.toISOString(),
      // A seller's standing (issue 19), decided now: "Past due: bidding blocked" after the grace period.
      standing: subscriptionStatus
        ? standingText({
            status: subscriptionStatus,
            blocked: standingReason({ status: subscriptionStatus, graceEndsAt }, new Date()),
          })
        : null,
    })),
  };
}

export function meta() {
  return [{ title: pageTitle("Registrations") }];
}

export default function Registrations({ loaderData }: Route.ComponentProps) {
  const { filter, counts, rows, page, pageCount, search } = loaderData;
  return (
    <div>
      <h1>Registrations</h1>
      <FilterForm>
        <FilterSelect
          name="type"
          label="Type"
          all="All types"
          value={filter.type ?? ""}
          options={REGISTRATION_TYPES.map((type) => ({ value: String(type.code), label: type.label }))}
        />
        <FilterSelect
          name="status"
          label="Status"
          all="All statuses"
          value={filter.status ?? ""}
          options={REGISTRATION_STATUSES.map((status) => ({
            value: status.value,
            label: `${status.label} (${counts[status.value] ?? 0})`,
          }))}
        />
      </FilterForm>
      <p>{REGISTRATION_STATUSES.map((status) => `${status.label}: ${counts[status.value] ?? 0}`).join(" · ")}</p>
      {rows.length === 0 ? (
        <p>No registrations match.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Registrations, newest first</caption>
          <ColumnHeads columns={["Organization", "Type", "Status", "Subscription", "Submitted", "Email"]} />
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <Link to={`/staff/registrations/${row.id}`}>{row.name}</Link>
                </th>
                <td>{typeLabelOf(row.organizationType)}</td>
                <td>{statusLabelOf(row.status)}</td>
                <td>{row.standing ?? "—"}</td>
                <td>
                  <time dateTime={row.submittedAt}>{utcMinute(row.submittedAt)}</time>
                </td>
                <td>{row.email}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pageCount={pageCount} search={search} label="Registration pages" />
    </div>
  );
}
