import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { TextAreaField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { parseSubmission } from "~/forms/parse-submission.server";
import { SubmitButton } from "~/forms/submit-button";
import { pageTitle } from "~/layout/page-title";
import { TableRegion } from "~/layout/table-region";
import { ProviderReferences } from "~/payments/provider-references";
import { sellerProviderReferences } from "~/payments/provider-references.server";
import { SubscriptionSummary } from "~/payments/subscription-summary";
import { STATUS_LABELS } from "~/payments/subscriptions/standing";
import { moveTestSubscription, testSubscriptionOf } from "~/payments/subscriptions/test-lifecycle.server";
import {
  CHOOSE_A_STEP,
  isTestStep,
  TEST_LIFECYCLE_STEPS,
  TEST_STEP_DONE,
  TEST_STEP_LABELS,
  testLifecycleSchema,
} from "~/payments/subscriptions/test-lifecycle-schema";
import { readFormBody } from "~/platform/request-body.server";
import { RegistrationDetails } from "~/registration/details/registration-details";
import { loadRegistration, type RegistrationDetail } from "~/registration/details/registration-details.server";
import { appServicesContext } from "~/server/app-context";
import { requireStaff } from "~/sessions/auth.server";
import { utcDay, utcMinute } from "~/shared/dates";
import { parseId } from "~/shared/ids";
import { Role } from "~/shared/roles";
import type { Route } from "./+types/registration";
import { CHOOSE_A_DECISION, type Decision, decisionSchema } from "./decision-schema";
import {
  approveRegistration,
  type DecisionOutcome,
  rejectRegistration,
  requestChanges,
  resendSetupLink,
} from "./review.server";
import { statusLabelOf, typeLabelOf } from "./review-terms";

// /staff/registrations/{id}: everything the applicant sent, the decision history, and the decisions.
// Each decision is a form with a confirmation step: the first post answers with the question, the
// second (confirm=yes) decides. A refused decision answers a Conform reply: `result` for what was
// sent (at its field), `refusal` for what the registration's state refuses (in the page's summary).

const DONE = ["approved", "rejected", "changes_requested"] as const;
type Done = (typeof DONE)[number];
const isDone = (value: string | null): value is Done => (DONE as readonly (string | null)[]).includes(value);

const today = () => utcDay(new Date());

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const registration = id ? await loadRegistration(context.get(appServicesContext).db, id) : undefined;
  if (!registration) throw data(null, { status: 404 });
  const query = new URL(request.url).searchParams;
  const done = query.get("done");
  const moved = done === "moved" ? query.get("step") : null;
  const services = context.get(appServicesContext);
  // Staff may move a subscription on the test provider, while that provider is in use (issue 19).
  const testLifecycle = Boolean(
    registration.organizationId &&
      registration.subscription &&
      (await testSubscriptionOf(services, registration.organizationId)),
  );
  // A seller's customer and subscription at the card provider, linked to Stripe's dashboard.
  const providerReferences =
    registration.organizationType === Role.Seller
      ? await sellerProviderReferences(services, registration.id, registration.organizationId)
      : null;
  return {
    registration,
    providerReferences,
    today: today(),
    done: isDone(done) ? done : undefined,
    moved: isTestStep(moved) ? moved : undefined,
    testLifecycle,
  };
}

/** A test subscription moved one step (the test card provider's lifecycle), or why not. */
async function moveSubscription(context: Route.ActionArgs["context"], id: number, form: FormData) {
  const services = context.get(appServicesContext);
  const submission = parseSubmission(form, { schema: testLifecycleSchema });
  if (submission.status !== "success") {
    return data({ testResult: submission.reply({ formErrors: [CHOOSE_A_STEP] }) }, { status: 400 });
  }
  const registration = await loadRegistration(services.db, id);
  if (!registration) throw data(null, { status: 404 });
  const moved =
    registration.organizationId &&
    (await moveTestSubscription(services, registration.organizationId, submission.value.step));
  if (!moved) {
    return data(
      {
        testResult: submission.reply({
          formErrors: [
            "Only a running subscription on the test card provider can be moved, while that provider is in use.",
          ],
        }),
      },
      { status: 409 },
    );
  }
  return redirect(`/staff/registrations/${id}?done=moved&step=${submission.value.step}#subscription`);
}

const ALREADY_DECIDED = (status: string) =>
  `This registration has already been decided (${statusLabelOf(status).toLowerCase()}); nothing was changed.`;

function refusalMessage(outcome: Exclude<DecisionOutcome, { kind: "decided" }>) {
  switch (outcome.kind) {
    case "not-found":
      throw data(null, { status: 404 });
    case "already-decided":
      return ALREADY_DECIDED(outcome.status);
    case "email-in-use":
      return `An account for ${outcome.email} already exists, so this registration cannot be approved. Ask the applicant to use another contact email.`;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = requireStaff(request, context);
  const services = context.get(appServicesContext);
  const id = parseId(params.id);
  if (!id) throw data(null, { status: 404 });
  const body = await readFormBody(request);
  if (body.get("intent") === "subscription-test") return moveSubscription(context, id, body);
  const submission = parseSubmission(body, { schema: decisionSchema });
  if (submission.status !== "success") {
    // Only the reason or the message is shown; anything else wrong is a post none of the forms sends.
    const atAField = Boolean(submission.error?.reason || submission.error?.message);
    return data(
      {
        result: submission.reply({
          formErrors: [],
          fieldErrors: atAField ? {} : { reason: [CHOOSE_A_DECISION] },
        }),
      },
      { status: 400 },
    );
  }
  const refuse = (message: string) => data({ refusal: submission.reply({ formErrors: [message] }) }, { status: 409 });
  const form = submission.value;
  if (form.intent === "resend") {
    const resent = await resendSetupLink(services, id);
    if (resent.kind === "sent") return { resent: resent.email };
    return refuse(
      resent.kind === "already-set-up"
        ? "The account is already set up: its user can reset the password from the sign-in page."
        : "Only an approved registration has a setup link to send.",
    );
  }
  if (form.confirm !== "yes") return { confirm: form };
  const outcome =
    form.intent === "approve"
      ? await approveRegistration(services, id, staff.id)
      : form.intent === "reject"
        ? await rejectRegistration(services, id, staff.id, form.reason)
        : await requestChanges(services, id, staff.id, form.message);
  if (outcome.kind !== "decided") return refuse(refusalMessage(outcome));
  return redirect(`/staff/registrations/${id}?done=${outcome.decision}`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Registration: ${loaderData.registration.name}` : "Registration") }];
}

export default function Registration(props: Route.ComponentProps) {
  // Each answer starts the forms afresh, as a page load does without JavaScript: a refusal does not
  // linger on a form the next answer is not about.
  return <RegistrationPage key={useLocation().key} {...props} />;
}

function RegistrationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { registration, providerReferences, today: day, done, moved, testLifecycle } = loaderData;
  const testResult = actionData && "testResult" in actionData ? actionData.testResult : undefined;
  const confirm = actionData && "confirm" in actionData ? actionData.confirm : undefined;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const resent = actionData && "resent" in actionData ? actionData.resent : undefined;
  // The registration's state refused the decision: said in the summary, no field to point at.
  const [refusal] = useForm({
    id: "decision",
    lastResult: actionData && "refusal" in actionData ? actionData.refusal : undefined,
  });
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
      <ErrorSummary formErrors={refusal.errors} submissionKey={actionData} />
      {done ? (
        <Alert title={DONE_TEXTS[done].title} tone="success" focus>
          <p>{DONE_TEXTS[done].text}</p>
        </Alert>
      ) : null}
      <DecisionHistory decisions={registration.decisions} />
      <OrganizationChangeLog changes={registration.organizationChanges} />
      {registration.subscription ? (
        <section aria-labelledby="subscription">
          <h2 id="subscription">Subscription</h2>
          {moved ? (
            <Alert title="Test subscription moved" tone="success" focus>
              <p>{TEST_STEP_DONE[moved]}</p>
            </Alert>
          ) : null}
          <SubscriptionSummary subscription={registration.subscription} audience="staff" />
          {testLifecycle ? <TestLifecycleForm lastResult={testResult} /> : null}
          <SubscriptionHistory events={registration.subscriptionHistory} />
        </section>
      ) : null}
      {providerReferences ? <ProviderReferences references={providerReferences} /> : null}
      {resent ? (
        <Alert title="Setup link sent" tone="success" focus>
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
        <Decisions confirm={confirm} lastResult={result} name={registration.name} />
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

type Confirmation = Exclude<Decision, { intent: "resend" }>;

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
  lastResult,
  name,
}: {
  confirm?: Confirmation;
  /** A refused decision: its field's message, and what was typed, kept. */
  lastResult?: SubmissionResult<string[]>;
  name: string;
}) {
  // Checked on the server only: each decision goes there, then to its confirmation.
  const [changesForm, changesFields] = useForm<{ message: string }>({ id: "changes", lastResult });
  const [rejectForm, rejectFields] = useForm<{ reason: string }>({ id: "reject", lastResult });
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
  return (
    <section aria-labelledby="decide" className="card">
      <h2 id="decide">Decide</h2>
      <ErrorSummary
        fieldErrors={summaryLinks([rejectFields.reason, changesFields.message])}
        submissionKey={lastResult}
      />
      <Form method="post">
        <input type="hidden" name="intent" value="approve" />
        <SubmitButton>Approve</SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(changesForm)} className="stack">
        <input type="hidden" name="intent" value="request-changes" />
        <TextAreaField
          field={changesFields.message}
          label="Changes the applicant should make"
          hint="The applicant is e-mailed this with a link to their form, filled in with what they sent."
        />
        <SubmitButton secondary>Ask for changes</SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(rejectForm)} className="stack">
        <input type="hidden" name="intent" value="reject" />
        <TextField field={rejectFields.reason} label="Reason for rejecting" hint="The applicant is e-mailed this." />
        <SubmitButton secondary>Reject</SubmitButton>
      </Form>
    </section>
  );
}

/** The subscription's provider events, newest first: when, which, and the status it left. */
function SubscriptionHistory({ events }: { events: RegistrationDetail["subscriptionHistory"] }) {
  return (
    <>
      <h3 id="subscription-history">Subscription events</h3>
      {events.length === 0 ? (
        <p>No events from the card provider yet.</p>
      ) : (
        <TableRegion label="Subscription events">
          <table className="data-table">
            <caption className="visually-hidden">Subscription events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Event</th>
                <th scope="col">What it did</th>
                <th scope="col">Status after</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td>
                    <time dateTime={event.occurredAt}>{utcMinute(event.occurredAt)}</time>
                  </td>
                  <td>
                    <code>{event.type}</code>
                  </td>
                  <td>{event.summary}</td>
                  <td>{STATUS_LABELS[event.status]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}

/** Test card provider only: move the subscription as Stripe's events would (one button per step). */
function TestLifecycleForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form] = useForm({ id: "subscription-test", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} aria-describedby="subscription-test-hint">
      <ErrorSummary formErrors={form.errors} submissionKey={lastResult} />
      <fieldset>
        <legend>Test subscription (test card provider)</legend>
        <p id="subscription-test-hint" className="field__hint">
          Sends the card provider's events for the step, as Stripe would, through the same processing as Stripe's
          webhook.
        </p>
        <input type="hidden" name="intent" value="subscription-test" />
        <div className="button-row">
          {TEST_LIFECYCLE_STEPS.map((step) => (
            <button key={step} type="submit" name="step" value={step} className="button button--secondary">
              {TEST_STEP_LABELS[step]}
            </button>
          ))}
        </div>
      </fieldset>
    </Form>
  );
}
