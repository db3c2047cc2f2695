import type { ReactNode } from "react";
import { expiryState } from "./document-expiry";
import type { RegistrationDetail } from "./registration-details.server";

// Everything an applicant sent, grouped as on the form, with expired or soon-to-expire documents
// flagged in words: for staff reviewing it, and for an organization's members reading its profile.

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

export function RegistrationDetails({ registration, today }: { registration: RegistrationDetail; today: string }) {
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
