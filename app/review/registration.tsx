import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { requireStaff } from "~/accounts/sessions/auth.server";
import { parseId } from "~/catalogue/catalogue-schemas";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { TextAreaInput, TextInput } from "~/forms/text-input";
import { textField } from "~/forms/text-schema";
import { pageTitle } from "~/layout/page-title";
import { SubscriptionSummary } from "~/payments/subscription-summary";
import { appServicesContext } from "~/platform/app-context";
import { readFormBody } from "~/platform/request-body.server";
import type { Route } from "./+types/registration";
import { RegistrationDetails } from "./registration-details";
import {
  approveRegistration,
  type DecisionOutcome,
  loadRegistration,
  type RegistrationDetail,
  rejectRegistration,
  requestChanges,
  resendSetupLink,
} from "./review.server";
import { statusLabelOf, typeLabelOf, utcMinute } from "./review-terms";

// /staff/registrations/{id}: everything the applicant sent, the decision history, and the decisions.
// Each decision is a plain form with a confirmation step: the first post answers with the question,
// the second (confirm=yes) decides.

const REASON_REQUIRED = "Please give the reason for rejecting this registration";
const MESSAGE_REQUIRED = "Please say which changes the applicant should make";
const decisionForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("reject"),
    reason: textField({ error: REASON_REQUIRED, multiline: true })
      .min(1, REASON_REQUIRED)
      .max(2000, "Please use at most 2000 characters"),
    confirm: z.literal("yes").optional(),
  }),
  z.object({
    intent: z.literal("request-changes"),
    message: textField({ error: MESSAGE_REQUIRED, multiline: true })
      .min(1, MESSAGE_REQUIRED)
      .max(2000, "Please use at most 2000 characters"),
    confirm: z.literal("yes").optional(),
  }),
]);

const DONE = ["approved", "rejected", "changes_requested"] as const;
type Done = (typeof DONE)[number];
const isDone = (value: string | null): value is Done => (DONE as readonly (string | null)[]).includes(value);

const today = () => new Date().toISOString().slice(0, 10);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const registration = id ? await loadRegistration(context.get(appServicesContext).db, id) : undefined;
  if (!registration) throw data(null, { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return { registration, today: today(), done: isDone(done) ? done : undefined };
}

const ALREADY_DECIDED = (status: string) =>
  `This registration has already been decided (${statusLabelOf(status).toLowerCase()}); nothing was changed.`;

function refusal(outcome: Exclude<DecisionOutcome, { kind: "decided" }>) {
  switch (outcome.kind) {
    case "not-found":
      throw data(null, { status: 404 });
    case "already-decided":
      return data({ error: ALREADY_DECIDED(outcome.status) }, { status: 409 });
    case "email-in-use":
      return data(
        {
          error: `An account for ${outcome.email} already exists, so this registration cannot be approved. Ask the applicant to use another contact email.`,
        },
        { status: 409 },
      );
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = requireStaff(request, context);
  const services = context.get(appServicesContext);
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const submitted = Object.fromEntries(await readFormBody(request));
  const parsed = decisionForm.safeParse(submitted);
  if (!parsed.success) {
    const issue = parsed.error.issues.find((entry) => entry.path[0] === "reason" || entry.path[0] === "message");
    const typed = (name: string) => (typeof submitted[name] === "string" ? String(submitted[name]) : "");
    return data(
      {
        reasonError: issue?.path[0] === "reason" ? issue.message : issue ? undefined : "Please choose a decision",
        messageError: issue?.path[0] === "message" ? issue.message : undefined,
        typedReason: typed("reason"),
        typedMessage: typed("message"),
      },
      { status: 400 },
    );
  }
  const form = parsed.data;
  if (form.intent === "resend") {
    const resent = await resendSetupLink(services, id);
    if (resent.kind === "sent") return { resent: resent.email };
    return data(
      {
        error:
          resent.kind === "already-set-up"
            ? "The account is already set up: its user can reset the password from the sign-in page."
            : "Only an approved registration has a setup link to send.",
      },
      { status: 409 },
    );
  }
  if (form.confirm !== "yes") return { confirm: form };
  const outcome =
    form.intent === "approve"
      ? await approveRegistration(services, id, staff.id)
      : form.intent === "reject"
        ? await rejectRegistration(services, id, staff.id, form.reason)
        : await requestChanges(services, id, staff.id, form.message);
  if (outcome.kind !== "decided") return refusal(outcome);
  return redirect(`/staff/registrations/${id}?done=${outcome.decision}`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Registration: ${loaderData.registration.name}` : "Registration") }];
}

export default function Registration({ loaderData, actionData }: Route.ComponentProps) {
  const { registration, today: day, done } = loaderData;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const refused = actionData && "typedReason" in actionData ? actionData : undefined;
  const resent = actionData && "resent" in actionData ? actionData.resent : undefined;
  return (
    <div className="review">
      <p>
        <Link to="/staff/registrations">All registrations</Link>
      </p>
      <h1>{registration.name}</h1>
      <p className="lead">
        {typeLabelOf(registration.organizationType)} registration, submitted{" "}
        <time dateTime={registration.submittedAt.toISOString()}>
          {utcMinute(registration.submittedAt.toISOString())}
        </time>
        . Status: <strong>{statusLabelOf(registration.status)}</strong>.
      </p>
      <ErrorSummary formErrors={error ? [error] : []} submissionKey={error} />
      {done ? (
        <Alert title={DONE_TEXTS[done].title} tone="success">
          <p>{DONE_TEXTS[done].text}</p>
        </Alert>
      ) : null}
      <DecisionHistory decisions={registration.decisions} />
      <OrganizationChangeLog changes={registration.organizationChanges} />
      {registration.subscription ? (
        <section aria-labelledby="subscription">
          <h2 id="subscription">Subscription</h2>
          <SubscriptionSummary subscription={registration.subscription} audience="staff" />
        </section>
      ) : null}
      {resent ? (
        <Alert title="Setup link sent" tone="success">
          <p>{`A new account-setup link has been e-mailed to ${resent}.`}</p>
        </Alert>
      ) : null}
      {registration.status === "approved" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <SubmitButton secondary>Send the account-setup link again</SubmitButton>
        </Form>
      ) : null}
      {registration.status === "submitted" ? (
        <Decisions confirm={confirm} refused={refused} name={registration.name} />
      ) : null}
      <RegistrationDetails registration={registration} today={day} />
    </div>
  );
}

const DONE_TEXTS: Record<Done, { title: string; text: string }> = {
  approved: {
    title: "Registration approved",
    text: "The account has been created and its contact e-mailed a link to set it up. A seller's subscription starts on the saved card after the free trial.",
  },
  rejected: { title: "Registration rejected", text: "The applicant has been e-mailed the reason." },
  changes_requested: {
    title: "Changes requested",
    text: "The applicant has been e-mailed your message and a link to their form, filled in with what they sent. Their resubmission comes back to the queue.",
  },
};

const HISTORY_LABELS: Record<RegistrationDetail["decisions"][number]["decision"], string> = {
  approved: "Approved",
  rejected: "Rejected",
  changes_requested: "Changes requested",
  resubmitted: "Resubmitted by the applicant",
};

/** The audit log of the registration: who decided what, when and why; and the applicant's resubmissions. */
function DecisionHistory({ decisions }: { decisions: RegistrationDetail["decisions"] }) {
  if (decisions.length === 0) return null;
  return (
    <section aria-labelledby="decision-history">
      <h2 id="decision-history">History</h2>
      <ul>
        {decisions.map((decision) => (
          <li key={decision.id}>
            {decision.decision === "resubmitted"
              ? `${HISTORY_LABELS[decision.decision]} on `
              : `${HISTORY_LABELS[decision.decision]} by ${decision.staffEmail ?? "a former member of staff"} on `}
            <time dateTime={decision.createdAt.toISOString()}>{utcMinute(decision.createdAt.toISOString())}</time>
            {decision.reason ? (
              <>
                {decision.decision === "rejected" ? ". Reason: " : ". Message: "}
                <span className="preserve-lines">{decision.reason}</span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the organization changed after approval (profile, card), each field before and after. */
function OrganizationChangeLog({ changes }: { changes: RegistrationDetail["organizationChanges"] }) {
  if (changes.length === 0) return null;
  return (
    <section aria-labelledby="organization-changes">
      <h2 id="organization-changes">Changes by the organization</h2>
      <p>Newest first. What is shown below this log is the profile as it is now.</p>
      {changes.map((change) => (
        <div key={change.id} className="change-entry">
          <h3>
            {`${change.subject === "card" ? "Card replaced" : "Profile changed"} by ${change.userEmail ?? "a former user"} on `}
            <time dateTime={change.createdAt.toISOString()}>{utcMinute(change.createdAt.toISOString())}</time>
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {change.changes.map((field) => (
                <tr key={field.field}>
                  <th scope="row">{field.field}</th>
                  <td>{field.before === "" ? "(empty)" : field.before}</td>
                  <td>{field.after === "" ? "(empty)" : field.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}

type Confirmation =
  | { intent: "approve" }
  | { intent: "reject"; reason: string }
  | { intent: "request-changes"; message: string };

const CONFIRMATIONS = {
  approve: { question: "Approve this registration?", yes: "Yes, approve" },
  reject: { question: "Reject this registration?", yes: "Yes, reject" },
  "request-changes": { question: "Ask the applicant for these changes?", yes: "Yes, ask for changes" },
} as const;

function confirmationText(confirm: Confirmation, name: string) {
  switch (confirm.intent) {
    case "approve":
      return `Approving creates the account for ${name} and e-mails its contact a link to set it up. This cannot be undone.`;
    case "reject":
      return `Rejecting e-mails the applicant this reason: "${confirm.reason}". This cannot be undone.`;
    case "request-changes":
      return `The applicant is e-mailed this message and a link to change their registration: "${confirm.message}". The registration leaves the queue until they resubmit it.`;
  }
}

function Decisions({
  confirm,
  refused,
  name,
}: {
  confirm?: Confirmation;
  /** A refused decision: its field's message and what was typed, kept. */
  refused?: { reasonError?: string; messageError?: string; typedReason: string; typedMessage: string };
  name: string;
}) {
  if (confirm) {
    return (
      <section aria-labelledby="confirm-decision" className="card">
        <h2 id="confirm-decision">{CONFIRMATIONS[confirm.intent].question}</h2>
        <p className="preserve-lines">{confirmationText(confirm, name)}</p>
        <Form method="post" className="button-row">
          <input type="hidden" name="intent" value={confirm.intent} />
          {confirm.intent === "reject" ? <input type="hidden" name="reason" value={confirm.reason} /> : null}
          {confirm.intent === "request-changes" ? <input type="hidden" name="message" value={confirm.message} /> : null}
          <input type="hidden" name="confirm" value="yes" />
          <SubmitButton>{CONFIRMATIONS[confirm.intent].yes}</SubmitButton>
          <Link to=".">No, go back</Link>
        </Form>
      </section>
    );
  }
  const fieldErrors = [
    ...(refused?.reasonError ? [{ fieldId: "reject-reason", message: refused.reasonError }] : []),
    ...(refused?.messageError ? [{ fieldId: "changes-message", message: refused.messageError }] : []),
  ];
  return (
    <section aria-labelledby="decide" className="card">
      <h2 id="decide">Decide</h2>
      <ErrorSummary fieldErrors={fieldErrors} submissionKey={refused} />
      <Form method="post">
        <input type="hidden" name="intent" value="approve" />
        <SubmitButton>Approve</SubmitButton>
      </Form>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="request-changes" />
        <TextAreaInput
          id="changes-message"
          name="message"
          label="Changes the applicant should make"
          hint="The applicant is e-mailed this with a link to their form, filled in with what they sent."
          errors={refused?.messageError ? [refused.messageError] : undefined}
          defaultValue={refused?.typedMessage}
        />
        <SubmitButton secondary>Ask for changes</SubmitButton>
      </Form>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="reject" />
        <TextInput
          id="reject-reason"
          name="reason"
          label="Reason for rejecting"
          hint="The applicant is e-mailed this."
          errors={refused?.reasonError ? [refused.reasonError] : undefined}
          inputProps={{ defaultValue: refused?.typedReason }}
        />
        <SubmitButton secondary>Reject</SubmitButton>
      </Form>
    </section>
  );
}
