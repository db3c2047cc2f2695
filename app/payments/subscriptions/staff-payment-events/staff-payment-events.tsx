import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { FilterForm, FilterSelect } from "~/forms/filter-select";
import { parseSubmission } from "~/forms/parse-submission.server";
import { ColumnHeads } from "~/layout/column-heads";
import { PageLinks } from "~/layout/page-links";
import { pageTitle } from "~/layout/page-title";
import { pageOf } from "~/layout/pager";
import { TableRegion } from "~/layout/table-region";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { utcMinute } from "~/shared/dates";
import { counted } from "~/shared/words";
import type { Route } from "./+types/staff-payment-events";
import { listProviderEvents, providerEventState, retryProviderEvent } from "./staff-payment-events.server";
import { EVENT_STATES, type EventState, RETRY_REFUSED, retryEventForm } from "./staff-payment-events-schema";

// /staff/payment-events: Stripe's events (and the test provider's) with their processing state, a GET
// filter by state, pages of 50, and "Retry now" on a failed one. Authorization: the staff layout.

const EVENT_ID = /^[A-Za-z0-9_]{1,255}$/;

function readFilter(url: URL) {
  const state = url.searchParams.get("state");
  return {
    state: EVENT_STATES.some((option) => option.value === state) ? (state as EventState) : undefined,
    page: pageOf(url),
  };
}

function listLink(filter: { state?: EventState; page: number }, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.page > 1 ? { page: String(filter.page) } : {}),
    ...extra,
  });
  return `/staff/payment-events${query.size ? `?${query}` : ""}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = readFilter(url);
  const { db } = context.get(appServicesContext);
  const { events, hasOlder } = await listProviderEvents(db, filter);
  const retriedId = url.searchParams.get("done") === "retried" ? url.searchParams.get("event") : null;
  const retriedState = retriedId && EVENT_ID.test(retriedId) ? await providerEventState(db, retriedId) : undefined;
  return {
    filter,
    events,
    hasOlder,
    retried: retriedState && retriedId ? { id: retriedId, ...retriedState } : undefined,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appServicesContext);
  const formData = await readFormBody(request);
  const submission = parseSubmission(formData, { schema: retryEventForm });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [RETRY_REFUSED] }) }, { status: 400 });
  }
  if (!(await retryProviderEvent(services, submission.value.eventId))) {
    return data({ result: submission.reply({ formErrors: [RETRY_REFUSED] }) }, { status: 400 });
  }
  // Back to the list the staff member was on (its filter and page), which says so.
  return redirect(listLink(readFilter(new URL(request.url)), { done: "retried", event: submission.value.eventId }));
}

export function meta() {
  return [{ title: pageTitle("Payment events") }];
}

const tries = (count: number) => counted(count, "try", "tries");

function stateText(event: { state: string; attempts: number; nextAttemptAt: string }) {
  if (event.state === "failed") return `Failed after ${tries(event.attempts)}`;
  if (event.state === "processed") return event.attempts > 1 ? `Applied after ${tries(event.attempts)}` : "Applied";
  if (event.state === "ignored") return "Ignored (not for a seller subscription of ours)";
  return event.attempts > 0
    ? `Waiting to retry after ${tries(event.attempts)} (next try ${utcMinute(event.nextAttemptAt)})`
    : "Waiting";
}

export default function StaffPaymentEvents({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, events, hasOlder, retried } = loaderData;
  return (
    <div>
      <h1>Payment events</h1>
      <p>
        Every event Stripe sent to the marketplace's webhook, newest first, with what processing it did. An event that
        fails is tried again later (after 30 seconds, then twice as long each time, at most an hour apart); after 10
        tries it is marked failed.
      </p>
      <ErrorSummary formErrors={actionData?.result.error?.[""] ?? []} submissionKey={actionData?.result} />
      {retried && !actionData ? (
        <Alert title="Event tried again." tone="success" focus>
          <p>
            Event {retried.id}: {stateText(retried).toLowerCase()}.
          </p>
        </Alert>
      ) : null}
      <FilterForm>
        <FilterSelect
          name="state"
          label="State"
          all="All states"
          value={filter.state ?? ""}
          options={[...EVENT_STATES]}
        />
      </FilterForm>
      {events.length === 0 ? (
        <p>No events match.</p>
      ) : (
        <TableRegion label="Payment events">
          <table className="data-table">
            <caption className="visually-hidden">Payment events, newest first (times in UTC)</caption>
            <ColumnHeads
              columns={["Received", "Stripe event", "Type", "Seller", "State", "Attempts", "Last error"]}
              action="Action"
            />
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td>
                    <time dateTime={event.receivedAt}>{utcMinute(event.receivedAt)}</time>
                  </td>
                  <th scope="row">
                    <code>{event.id}</code>
                  </th>
                  <td>
                    <code>{event.type}</code>
                  </td>
                  <td>
                    {event.seller ? (
                      event.seller.registrationId ? (
                        <Link to={`/staff/registrations/${event.seller.registrationId}`}>{event.seller.name}</Link>
                      ) : (
                        event.seller.name
                      )
                    ) : (
                      "Unknown"
                    )}
                  </td>
                  <td>{stateText(event)}</td>
                  <td>{event.attempts}</td>
                  <td>{event.lastError ?? ""}</td>
                  <td>{event.state === "failed" ? <RetryButton id={event.id} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <PageLinks
        label="More payment events"
        newer={filter.page > 1 ? listLink({ ...filter, page: filter.page - 1 }) : null}
        older={hasOlder ? listLink({ ...filter, page: filter.page + 1 }) : null}
      />
    </div>
  );
}

function RetryButton({ id }: { id: string }) {
  const [form] = useForm({ id: `retry-${id}`, ...validatedBy(retryEventForm) });
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="eventId" value={id} />
      <button type="submit" className="button button--secondary">
        Retry now<span className="visually-hidden"> event {id}</span>
      </button>
    </Form>
  );
}
