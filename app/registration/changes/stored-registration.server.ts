import { asc, eq, inArray } from "drizzle-orm";
import { cardLabel } from "~/payments/card-label";
import { type OrganizationTypeCode, Role } from "~/shared/roles";
import type { Database, Transaction } from "~db/database.server";
import {
  certificationOptions,
  keyPersonCertifications,
  keyPersonEducation,
  keyPersonWorkExperiences,
  registrationContacts,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
} from "~db/schema";
import { stateControlFor } from "../form/registration-data";
import { OPERATIONS_CONTACT_ADDED } from "../seller-form/seller-registration-schema";

// A stored registration read back as the values its form sends, so the same form can be shown again
// pre-filled: to the applicant asked for changes, and to the organization editing its profile.

/** Form values: strings, lists of strings, nested objects of them (Conform's defaultValue). */
export type FormValues = { [name: string]: string | string[] | FormValues | FormValues[] };

export type StoredRegistration = {
  registrationId: number;
  organizationType: OrganizationTypeCode;
  status: string;
  values: FormValues;
  serviceAreaIds: number[];
  serviceIds: number[];
  /** The seller's saved card in words ("Visa ending 4242"), or null. */
  card: string | null;
};

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? "" : String(value);
const yesNo = (value: boolean | null) => (value === true ? "Yes" : value === false ? "No" : "");

export async function readStoredRegistration(
  db: Database | Transaction,
  registrationId: number,
): Promise<StoredRegistration | undefined> {
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId));
  if (!registration) return undefined;
  const [contacts, areas] = await Promise.all([
    db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, registrationId))
      .orderBy(asc(registrationContacts.id)),
    db
      .select({ id: registrationServiceAreas.serviceAreaId })
      .from(registrationServiceAreas)
      .where(eq(registrationServiceAreas.registrationId, registrationId))
      .orderBy(asc(registrationServiceAreas.serviceAreaId)),
  ]);
  const values: FormValues = {
    name: registration.name,
    address: registration.address,
    city: registration.city,
    country: registration.countryCode,
    [stateControlFor(registration.countryCode)]: registration.state,
    postal_zip: registration.postalZip,
    phone: registration.phone,
    fax: text(registration.fax),
    email: registration.email,
    primary_industry: String(registration.primaryIndustryId),
    serviceAreas: areas.map((area) => String(area.id)),
  };
  const serviceAreaIds = areas.map((area) => area.id);
  const organizationType = registration.organizationType as OrganizationTypeCode;
  const base = { registrationId, organizationType, status: registration.status, serviceAreaIds };

  if (organizationType !== Role.Seller) {
    const contact = (role: string): FormValues => {
      const found = contacts.find((row) => row.role === role);
      return found
        ? { first_name: found.firstName, last_name: found.lastName, phone: found.phone, email: found.email }
        : {};
    };
    values.primaryContact = contact("primary");
    values.alternateContact = contact("alternate");
    values.accountingContact = contact("accounting");
    values.billing_preference = text(registration.billingPreference);
    return { ...base, values, serviceIds: [], card: null };
  }

  const contactIds = contacts.map((contact) => contact.id);
  const [[seller], wcbs, chosenServices, { work, certifications, education }] = await Promise.all([
    db.select().from(sellerRegistrations).where(eq(sellerRegistrations.registrationId, registrationId)),
    db
      .select()
      .from(registrationWcbs)
      .where(eq(registrationWcbs.registrationId, registrationId))
      .orderBy(asc(registrationWcbs.sortOrder)),
    db
      .select({ id: registrationServices.serviceId })
      .from(registrationServices)
      .where(eq(registrationServices.registrationId, registrationId))
      .orderBy(asc(registrationServices.serviceId)),
    keyPersonItems(db, contactIds),
  ]);
  if (!seller) throw new Error(`seller registration ${registrationId} has no seller row`);

  /** Each repeatable group shows at least one block, as on a new form. */
  const atLeastOne = (blocks: FormValues[]) => (blocks.length > 0 ? blocks : [{}]);
  const keyPerson = (role: "sales" | "operations"): FormValues | undefined => {
    const contact = contacts.find((row) => row.role === role);
    if (!contact) return undefined;
    return {
      first_name: contact.firstName,
      last_name: contact.lastName,
      phone: contact.phone,
      email: contact.email,
      confirm_email: contact.email,
      experience: text(contact.experience),
      skills: text(contact.skills),
      workExperiences: atLeastOne(
        work
          .filter((item) => item.contactId === contact.id)
          .map((item) => ({
            company_name: item.companyName,
            position: text(item.position),
            start_year: text(item.startYear),
            end_year: text(item.endYear),
            responsibilities: text(item.responsibilities),
          })),
      ),
      certifications: atLeastOne(
        certifications
          .filter((item) => item.contactId === contact.id)
          .map((item) => ({ certification_name: item.name, expires_on: text(item.expiresOn) })),
      ),
      education: atLeastOne(
        education
          .filter((item) => item.contactId === contact.id)
          .map((item) => ({
            program_name: item.programName,
            cert_degree: text(item.certDegree),
            start_year: text(item.startYear),
            end_year: text(item.endYear),
          })),
      ),
    };
  };
  const certification = (expiry: string | null) => (expiry ? "yes" : "");
  Object.assign(values, {
    sa_written_safety_program: yesNo(seller.saWrittenSafetyProgram),
    sa_conduct_hazard_assessments: yesNo(seller.saConductHazardAssessments),
    sa_safe_work_procedures: yesNo(seller.saSafeWorkProcedures),
    sa_one_man_op: yesNo(seller.saOneManOp),
    sa_third_party_sub: yesNo(seller.saThirdPartySub),
    sc_comply_works: certification(seller.scComplyWorksExpiry),
    sc_comply_works_expiry: text(seller.scComplyWorksExpiry),
    sc_isnet_world: certification(seller.scIsnetWorldExpiry),
    sc_isnet_world_expiry: text(seller.scIsnetWorldExpiry),
    sc_secor: certification(seller.scSecorExpiry),
    sc_secor_expiry: text(seller.scSecorExpiry),
    in_commercial_general: seller.inCommercialGeneral,
    in_commercial_general_expiry: seller.inCommercialGeneralExpiry,
    in_third_party_automobile: seller.inThirdPartyAutomobile,
    in_third_party_automobile_expiry: seller.inThirdPartyAutomobileExpiry,
    // 'No' is the optional coverages' empty choice.
    in_aircraft: seller.inAircraft === "No" ? "" : seller.inAircraft,
    in_aircraft_expiry: text(seller.inAircraftExpiry),
    in_pollution: seller.inPollution === "No" ? "" : seller.inPollution,
    in_pollution_expiry: text(seller.inPollutionExpiry),
    in_fire: seller.inFire === "No" ? "" : seller.inFire,
    in_fire_expiry: text(seller.inFireExpiry),
    in_errors_omissions: seller.inErrorsOmissions === "No" ? "" : seller.inErrorsOmissions,
    in_errors_omissions_expiry: text(seller.inErrorsOmissionsExpiry),
    in_wcb_coverage_number: text(seller.inWcbCoverageNumber),
    in_wcb_expiry: text(seller.inWcbExpiry),
    wcbs: atLeastOne(wcbs.map((wcb) => ({ state: wcb.state, number: wcb.number, expire_at: wcb.expiresOn }))),
    services: chosenServices.map((service) => String(service.id)),
    feedback: text(seller.feedback),
  });
  const sales = keyPerson("sales");
  if (sales) values.salesContact = sales;
  const operations = keyPerson("operations");
  values[OPERATIONS_CONTACT_ADDED] = operations ? "yes" : "";
  if (operations) values.operationsContact = operations;
  return {
    ...base,
    values,
    serviceIds: chosenServices.map((service) => service.id),
    card:
      seller.paymentStatus === "card_saved" ? (cardLabel(seller.cardBrand, seller.cardLast4) ?? "Card ending …") : null,
  };
}

/** The key people's work experience, certifications (with their names) and education, in the order entered. */
export async function keyPersonItems(db: Database | Transaction, contactIds: number[]) {
  if (contactIds.length === 0) return { work: [], certifications: [], education: [] };
  const [work, certifications, education] = await Promise.all([
    db
      .select()
      .from(keyPersonWorkExperiences)
      .where(inArray(keyPersonWorkExperiences.contactId, contactIds))
      .orderBy(asc(keyPersonWorkExperiences.sortOrder)),
    db
      .select({
        contactId: keyPersonCertifications.contactId,
        name: certificationOptions.name,
        expiresOn: keyPersonCertifications.expiresOn,
      })
      .from(keyPersonCertifications)
      .innerJoin(certificationOptions, eq(certificationOptions.id, keyPersonCertifications.certificationOptionId))
      .where(inArray(keyPersonCertifications.contactId, contactIds))
      .orderBy(asc(keyPersonCertifications.sortOrder)),
    db
      .select()
      .from(keyPersonEducation)
      .where(inArray(keyPersonEducation.contactId, contactIds))
      .orderBy(asc(keyPersonEducation.sortOrder)),
  ]);
  return { work, certifications, education };
}

/** Every date the stored registration holds: accepted again unchanged even once past (the profile form). */
export function storedDates(values: FormValues): string[] {
  const dates = new Set<string>();
  const visit = (value: FormValues[string]) => {
    if (typeof value === "string") {
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) dates.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(values);
  return [...dates].sort();
}
