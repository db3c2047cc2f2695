import { getFormProps, useForm } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { validatedBy } from "~/forms/browser-validation";
import { ErrorSummary } from "~/forms/error-summary";
import { FilterForm, FilterSelect } from "~/forms/filter-select";
import { parseSubmission } from "~/forms/parse-submission.server";
import { ColumnHeads } from "~/layout/column-heads";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { utcMinute } from "~/shared/dates";
import { counted } from "~/shared/words";
import type { Route } from "./+types/staff-messages";
import { listMessages, resendMessage } from "./staff-messages.server";
import { MESSAGE_STATES, type MessageState, RESEND_REFUSED, resendForm } from "./staff-messages-schema";

// /staff/messages: every e-mail and SMS with its delivery state (a GET filter, pages of 50 by an
// "Older messages" link), and "Resend" on a sent or failed one. Authorization: the staff layout.

function readFilter(url: URL) {
  const status = url.searchParams.get("status");
  const before = url.searchParams.get("before");
  return {
    status: MESSAGE_STATES.some((state) => state.value === status) ? (status as MessageState) : undefined,
    before: before && /^\d{1,10}$/.test(before) ? Number(before) : undefined,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filter = readFilter(url);
  const { messages, older } = await listMessages(context.get(appServicesContext).db, filter);
  const resent = url.searchParams.get("done") === "resent" ? url.searchParams.get("message") : null;
  return { filter, messages, older, resent: resent && /^\d{1,10}$/.test(resent) ? Number(resent) : undefined };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appServicesContext);
  const formData = await readFormBody(request);
  const submission = parseSubmission(formData, { schema: resendForm });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [RESEND_REFUSED] }) }, { status: 400 });
  }
  const copy = await resendMessage(services, submission.value.messageId);
  if (!copy) return data({ result: submission.reply({ formErrors: [RESEND_REFUSED] }) }, { status: 400 });
  // Back to the list the staff member was on (its filter and page), which says so.
  const { status, before } = readFilter(new URL(request.url));
  const back = new URLSearchParams({
    ...(status ? { status } : {}),
    ...(before ? { before: String(before) } : {}),
    done: "resent",
    message: String(copy),
  });
  return redirect(`/staff/messages?${back}`);
}

export function meta() {
  return [{ title: pageTitle("Messages") }];
}

const channelNames = { sms: "SMS", email: "E-mail" } as const;

function stateText(message: { status: string; attempts: number; provider: string }) {
  if (message.status === "failed") return `Failed after ${counted(message.attempts, "try", "tries")}`;
  if (message.status === "sent") return message.provider === "outbox" ? "Sent (kept in the dev outbox)" : "Sent";
  if (message.status === "sending") return "Sending";
  return message.attempts > 0 ? `Queued (retrying after ${counted(message.attempts, "try", "tries")})` : "Queued";
}

export default function StaffMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, messages, older, resent } = loaderData;
  const olderLink = older
    ? `?${new URLSearchParams({ ...(filter.status ? { status: filter.status } : {}), before: String(older) })}`
    : undefined;
  return (
    <div>
      <h1>Messages</h1>
      <p>
        Every e-mail and SMS the marketplace sends, newest first, with its delivery state. Message bodies are not shown:
        they hold one-time links.
      </p>
      <ErrorSummary formErrors={actionData?.result.error?.[""] ?? []} submissionKey={actionData?.result} />
      {resent && !actionData ? (
        <Alert title="Message queued again." tone="success" focus>
          <p>The copy is message {resent}; the list shows its delivery state.</p>
        </Alert>
      ) : null}
      <FilterForm>
        <FilterSelect
          name="status"
          label="State"
          all="All states"
          value={filter.status ?? ""}
          options={[...MESSAGE_STATES]}
        />
      </FilterForm>
      {messages.length === 0 ? (
        <p>No messages match.</p>
      ) : (
        <TableRegion label="Messages">
          <table className="data-table">
            <caption className="visually-hidden">Messages, newest first (times in UTC)</caption>
            <ColumnHeads
              columns={[
                "Message",
                "Queued",
                "Channel",
                "Kind",
                "To",
                "Subject",
                "State",
                "Attempts",
                "Provider's last answer",
              ]}
              action="Action"
            />
            <tbody>
              {messages.map((message) => (
                <tr key={message.id}>
                  <th scope="row">
                    {message.id}
                    {message.resendOf ? ` (resends ${message.resendOf})` : ""}
                  </th>
                  <td>
                    <time dateTime={message.createdAt}>{utcMinute(message.createdAt)}</time>
                  </td>
                  <td>{channelNames[message.channel]}</td>
                  <td>{message.kind}</td>
                  <td>{message.to}</td>
                  <td>{message.subject ?? ""}</td>
                  <td>{stateText(message)}</td>
                  <td>{message.attempts}</td>
                  <td>{message.lastError ?? ""}</td>
                  <td>
                    {message.status === "sent" || message.status === "failed" ? <ResendButton id={message.id} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {olderLink ? (
        <p>
          <Link to={olderLink}>Older messages</Link>
        </p>
      ) : null}
    </div>
  );
}

function ResendButton({ id }: { id: number }) {
  const [form] = useForm({ id: `resend-${id}`, ...validatedBy(resendForm) });
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="messageId" value={id} />
      <button type="submit" className="button button--secondary">
        Resend<span className="visually-hidden"> message {id}</span>
      </button>
    </Form>
  );
}
