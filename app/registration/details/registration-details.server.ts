import { asc, eq } from "drizzle-orm";
import { toSubscriptionView } from "~/payments/subscription-summary";
import { sellerSubscriptionOf } from "~/payments/subscriptions/seller-subscription.server";
import { subscriptionHistoryOf } from "~/payments/subscriptions/subscription-history.server";
import { Role } from "~/shared/roles";
import type { Database } from "~db/database.server";
import {
  industries,
  provinces,
  registrationContacts,
  registrationDecisions,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  serviceAreas,
  services,
  users,
} from "~db/schema";
import { keyPersonItems } from "../changes/stored-registration.server";
import { listOrganizationChanges } from "../organization-profile/organization-profile.server";

// A registration as staff review it and as an organization's members read their profile: what the
// applicant sent, the decisions taken, the profile's saved changes and a seller's subscription.

/** Everything the applicant sent, grouped as on the form, and the decision taken, if any. */
export async function loadRegistration(db: Database, id: number) {
  const [registration] = await db
    .select({ registration: registrations, industry: industries.name })
    .from(registrations)
    .innerJoin(industries, eq(industries.id, registrations.primaryIndustryId))
    .where(eq(registrations.id, id));
  if (!registration) return undefined;
  const [contacts, areas, decisions] = await Promise.all([
    db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, id))
      .orderBy(asc(registrationContacts.id)),
    db
      .select({ city: serviceAreas.city, province: provinces.name })
      .from(registrationServiceAreas)
      .innerJoin(serviceAreas, eq(serviceAreas.id, registrationServiceAreas.serviceAreaId))
      .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
      .where(eq(registrationServiceAreas.registrationId, id))
      .orderBy(asc(provinces.name), asc(serviceAreas.city)),
    db
      .select({
        id: registrationDecisions.id,
        decision: registrationDecisions.decision,
        reason: registrationDecisions.reason,
        createdAt: registrationDecisions.createdAt,
        staffEmail: users.email,
      })
      .from(registrationDecisions)
      .leftJoin(users, eq(users.id, registrationDecisions.staffUserId))
      .where(eq(registrationDecisions.registrationId, id))
      .orderBy(asc(registrationDecisions.createdAt), asc(registrationDecisions.id)),
  ]);
  const isSeller = registration.registration.organizationType === Role.Seller;
  const seller = isSeller ? await loadSellerDetails(db, id, contacts) : null;
  const organizationId = registration.registration.organizationId;
  const [subscription, organizationChanges, subscriptionHistory] = await Promise.all([
    isSeller && organizationId ? sellerSubscriptionOf(db, organizationId) : undefined,
    organizationId ? listOrganizationChanges(db, organizationId) : [],
    isSeller && organizationId ? subscriptionHistoryOf(db, organizationId) : [],
  ]);
  return {
    organizationChanges,
    ...registration.registration,
    industry: registration.industry,
    contacts,
    areas,
    decisions,
    seller,
    subscription: subscription ? toSubscriptionView(subscription) : null,
    subscriptionHistory,
  };
}

async function loadSellerDetails(db: Database, id: number, contacts: { id: number }[]) {
  const contactIds = contacts.map((contact) => contact.id);
  const [[profile], wcbs, chosenServices, { work, certifications, education }] = await Promise.all([
    db.select().from(sellerRegistrations).where(eq(sellerRegistrations.registrationId, id)),
    db
      .select()
      .from(registrationWcbs)
      .where(eq(registrationWcbs.registrationId, id))
      .orderBy(asc(registrationWcbs.sortOrder)),
    db
      .select({ name: services.name })
      .from(registrationServices)
      .innerJoin(services, eq(services.id, registrationServices.serviceId))
      .where(eq(registrationServices.registrationId, id))
      .orderBy(asc(services.name)),
    keyPersonItems(db, contactIds),
  ]);
  return { profile, wcbs, services: chosenServices.map((row) => row.name), work, certifications, education };
}

export type RegistrationDetail = NonNullable<Awaited<ReturnType<typeof loadRegistration>>>;
