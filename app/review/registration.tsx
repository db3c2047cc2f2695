import type { ReactNode } from "react";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { requireStaff } from "~/accounts/auth.server";
import { parseId } from "~/catalogue/catalogue-schemas";
import { Alert } from "~/forms/alert";
import { ErrorSummary } from "~/forms/error-summary";
import { SubmitButton } from "~/forms/submit-button";
import { TextInput } from "~/forms/text-input";
import { pageTitle } from "~/layout/page-title";
import { SubscriptionSummary } from "~/payments/subscription-summary";
import { appServicesContext } from "~/platform/app-context";
import type { Route } from "./+types/registration";
import {
  approveRegistration,
  type DecisionOutcome,
  loadRegistration,
  type RegistrationDetail,
  rejectRegistration,
  resendSetupLink,
} from "./review.server";
import { expiryState, statusLabelOf, typeLabelOf, utcMinute } from "./review-terms";

// /staff/registrations/{id}: everything the applicant sent, the decision history, and the decisions.
// Each decision is a plain form with a confirmation step: the first post answers with the question,
// the second (confirm=yes) decides.

const REASON_REQUIRED = "Please give the reason for rejecting this registration";
const decisionForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("reject"),
    reason: z
      .string({ error: REASON_REQUIRED })
      .trim()
      .min(1, REASON_REQUIRED)
      .max(2000, "Please use at most 2000 characters"),
    confirm: z.literal("yes").optional(),
  }),
]);

const today = () => new Date().toISOString().slice(0, 10);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const registration = id ? await loadRegistration(context.get(appServicesContext).db, id) : undefined;
  if (!registration) throw data(null, { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return { registration, today: today(), done: done === "approved" || done === "rejected" ? done : undefined };
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
  const submitted = Object.fromEntries(await request.formData());
  const parsed = decisionForm.safeParse(submitted);
  if (!parsed.success) {
    const reasonError = parsed.error.issues.find((issue) => issue.path[0] === "reason")?.message;
    const typedReason = typeof submitted.reason === "string" ? submitted.reason : "";
    return data({ reasonError: reasonError ?? "Please choose a decision", typedReason }, { status: 400 });
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
      : await rejectRegistration(services, id, staff.id, form.reason);
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
  const reasonError = actionData && "reasonError" in actionData ? actionData.reasonError : undefined;
  const typedReason = actionData && "typedReason" in actionData ? actionData.typedReason : undefined;
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
        <Alert title={done === "approved" ? "Registration approved" : "Registration rejected"} tone="success">
          <p>
            {done === "approved"
              ? "The account has been created and its contact e-mailed a link to set it up. A seller's subscription starts on the saved card after the free trial."
              : "The applicant has been e-mailed the reason."}
          </p>
        </Alert>
      ) : null}
      <DecisionHistory decisions={registration.decisions} />
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
        <Decisions confirm={confirm} reasonError={reasonError} typedReason={typedReason} name={registration.name} />
      ) : null}
      <RegistrationDetails registration={registration} today={day} />
    </div>
  );
}

function DecisionHistory({ decisions }: { decisions: RegistrationDetail["decisions"] }) {
  if (decisions.length === 0) return null;
  return (
    <section aria-labelledby="decision-history">
      <h2 id="decision-history">Decision</h2>
      <ul>
        {decisions.map((decision) => (
          <li key={decision.createdAt.toISOString()}>
            {`${statusLabelOf(decision.decision)} by ${decision.staffEmail ?? "a former member of staff"} on `}
            <time dateTime={decision.createdAt.toISOString()}>{utcMinute(decision.createdAt.toISOString())}</time>
            {decision.reason ? `. Reason: ${decision.reason}` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Decisions({
  confirm,
  reasonError,
  typedReason,
  name,
}: {
  confirm?: { intent: "approve" } | { intent: "reject"; reason: string };
  reasonError?: string;
  /** What was typed, kept after a refusal. */
  typedReason?: string;
  name: string;
}) {
  if (confirm) {
    return (
      <section aria-labelledby="confirm-decision" className="card">
        <h2 id="confirm-decision">
          {confirm.intent === "approve" ? "Approve this registration?" : "Reject this registration?"}
        </h2>
        <p>
          {confirm.intent === "approve"
            ? `Approving creates the account for ${name} and e-mails its contact a link to set it up. This cannot be undone.`
            : `Rejecting e-mails the applicant this reason: "${confirm.reason}". This cannot be undone.`}
        </p>
        <Form method="post" className="button-row">
          <input type="hidden" name="intent" value={confirm.intent} />
          {confirm.intent === "reject" ? <input type="hidden" name="reason" value={confirm.reason} /> : null}
          <input type="hidden" name="confirm" value="yes" />
          <SubmitButton>{confirm.intent === "approve" ? "Yes, approve" : "Yes, reject"}</SubmitButton>
          <Link to=".">No, go back</Link>
        </Form>
      </section>
    );
  }
  return (
    <section aria-labelledby="decide" className="card">
      <h2 id="decide">Decide</h2>
      <ErrorSummary fieldErrors={reasonError ? [{ fieldId: "reject-reason", message: reasonError }] : []} />
      <Form method="post">
        <input type="hidden" name="intent" value="approve" />
        <SubmitButton>Approve</SubmitButton>
      </Form>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="reject" />
        <TextInput
          id="reject-reason"
          name="reason"
          label="Reason for rejecting"
          hint="The applicant is e-mailed this."
          errors={reasonError ? [reasonError] : undefined}
          inputProps={{ defaultValue: typedReason }}
        />
        <SubmitButton secondary>Reject</SubmitButton>
      </Form>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children ?? "—"}</dd>
    </div>
  );
}

/** An expiry date with its state in words (not colour alone). */
function Expiry({ date, today }: { date: string | null; today: string }) {
  const state = expiryState(date, today);
  if (state === "none") return <>—</>;
  const note = state === "expired" ? "Expired" : state === "expiring" ? "Expires within 30 days" : null;
  return (
    <>
      {date}
      {note ? <strong className={`expiry expiry--${state}`}> {note}</strong> : null}
    </>
  );
}

function RegistrationDetails({ registration, today }: { registration: RegistrationDetail; today: string }) {
  const seller = registration.seller;
  return (
    <>
      <section aria-labelledby="general">
        <h2 id="general">General</h2>
        <dl className="summary-list">
          <Row label="Organization name">{registration.name}</Row>
          <Row label="Address">{`${registration.address}, ${registration.city}, ${registration.state} ${registration.postalZip}, ${registration.countryCode}`}</Row>
          <Row label="Phone">{registration.phone}</Row>
          <Row label="Fax">{registration.fax}</Row>
          <Row label="Email">{registration.email}</Row>
          <Row label="Primary industry">{registration.industry}</Row>
          {registration.billingPreference ? (
            <Row label="Billing preference">{registration.billingPreference}</Row>
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="contacts">
        <h2 id="contacts">Contacts</h2>
        {registration.contacts.map((contact) => (
          <div key={contact.id}>
            <h3>{`${contact.role[0]?.toUpperCase()}${contact.role.slice(1)} contact`}</h3>
            <dl className="summary-list">
              <Row label="Name">{`${contact.firstName} ${contact.lastName}`}</Row>
              <Row label="Phone">{contact.phone}</Row>
              <Row label="Email">{contact.email}</Row>
              {contact.experience ? <Row label="Experience">{contact.experience}</Row> : null}
              {contact.skills ? <Row label="Skills">{contact.skills}</Row> : null}
            </dl>
            {seller ? <KeyPersonItems contactId={contact.id} seller={seller} today={today} /> : null}
          </div>
        ))}
      </section>
      <section aria-labelledby="areas">
        <h2 id="areas">Service areas</h2>
        {registration.areas.length === 0 ? (
          <p>None chosen.</p>
        ) : (
          <p>{registration.areas.map((area) => `${area.city} (${area.province})`).join(", ")}</p>
        )}
      </section>
      {seller ? <SellerDetails seller={seller} today={today} /> : null}
    </>
  );
}

type Seller = NonNullable<RegistrationDetail["seller"]>;

function KeyPersonItems({ contactId, seller, today }: { contactId: number; seller: Seller; today: string }) {
  const work = seller.work.filter((item) => item.contactId === contactId);
  const certifications = seller.certifications.filter((item) => item.contactId === contactId);
  const education = seller.education.filter((item) => item.contactId === contactId);
  return (
    <ul>
      {work.map((item) => (
        <li key={`work-${item.id}`}>
          Work experience: {item.companyName}
          {item.position ? `, ${item.position}` : ""}
          {item.startYear ? ` (${item.startYear}–${item.endYear ?? ""})` : ""}
        </li>
      ))}
      {certifications.map((item) => (
        <li key={`certification-${item.name}`}>
          Certification: {item.name}, expires <Expiry date={item.expiresOn} today={today} />
        </li>
      ))}
      {education.map((item) => (
        <li key={`education-${item.id}`}>
          Training / education: {item.programName}
          {item.certDegree ? `, ${item.certDegree}` : ""}
        </li>
      ))}
    </ul>
  );
}

const yesNo = (value: boolean | null | undefined) => (value === true ? "Yes" : value === false ? "No" : "Not answered");

function SellerDetails({ seller, today }: { seller: Seller; today: string }) {
  const profile = seller.profile;
  if (!profile) return null;
  const insurance = [
    ["Commercial general liability", profile.inCommercialGeneral, profile.inCommercialGeneralExpiry],
    ["Third party automobile liability", profile.inThirdPartyAutomobile, profile.inThirdPartyAutomobileExpiry],
    ["Aircraft liability", profile.inAircraft, profile.inAircraftExpiry],
    ["Pollution liability", profile.inPollution, profile.inPollutionExpiry],
    ["Forest fire fighting expense", profile.inFire, profile.inFireExpiry],
    ["Errors and omissions", profile.inErrorsOmissions, profile.inErrorsOmissionsExpiry],
  ] as const;
  return (
    <>
      <section aria-labelledby="safety">
        <h2 id="safety">Safety program and certifications</h2>
        <dl className="summary-list">
          <Row label="Written safety program">{yesNo(profile.saWrittenSafetyProgram)}</Row>
          <Row label="Conducts hazard assessments">{yesNo(profile.saConductHazardAssessments)}</Row>
          <Row label="Safe work procedures">{yesNo(profile.saSafeWorkProcedures)}</Row>
          <Row label="One-person operation">{yesNo(profile.saOneManOp)}</Row>
          <Row label="Third-party subcontractors">{yesNo(profile.saThirdPartySub)}</Row>
          <Row label="ComplyWorks">
            <Expiry date={profile.scComplyWorksExpiry} today={today} />
          </Row>
          <Row label="ISNetworld">
            <Expiry date={profile.scIsnetWorldExpiry} today={today} />
          </Row>
          <Row label="SECOR">
            <Expiry date={profile.scSecorExpiry} today={today} />
          </Row>
        </dl>
      </section>
      <section aria-labelledby="insurance">
        <h2 id="insurance">Insurance and WCB</h2>
        <dl className="summary-list">
          {insurance.map(([label, coverage, expiry]) => (
            <Row key={label} label={label}>
              {coverage}
              {coverage !== "No" ? (
                <>
                  , expires <Expiry date={expiry} today={today} />
                </>
              ) : null}
            </Row>
          ))}
          <Row label="WCB coverage number">{profile.inWcbCoverageNumber}</Row>
          <Row label="WCB expiry">
            <Expiry date={profile.inWcbExpiry} today={today} />
          </Row>
          {seller.wcbs.map((wcb) => (
            <Row key={wcb.id} label={`WCB ${wcb.state}`}>
              {wcb.number}, expires <Expiry date={wcb.expiresOn} today={today} />
            </Row>
          ))}
        </dl>
      </section>
      <section aria-labelledby="categories">
        <h2 id="categories">Service categories</h2>
        <p>{seller.services.join(", ")}</p>
      </section>
      <section aria-labelledby="feedback">
        <h2 id="feedback">Feedback and payment</h2>
        <dl className="summary-list">
          <Row label="Feedback">{profile.feedback}</Row>
          <Row label="Card">
            {profile.paymentStatus === "card_saved"
              ? `${profile.cardBrand ?? "Card"} ending ${profile.cardLast4 ?? "…"} saved (${profile.paymentProvider})`
              : "Awaiting payment: the card was not saved on Stripe Checkout"}
          </Row>
        </dl>
      </section>
    </>
  );
}
