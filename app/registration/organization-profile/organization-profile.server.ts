import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { EditSubmission } from "~/registration/changes/registration-edit.server";
import { replaceRegistrationData } from "~/registration/changes/registration-update.server";
import { readStoredRegistration } from "~/registration/changes/stored-registration.server";
import type { AppServices } from "~/server/app-context";
import { announceSessionChange } from "~/sessions/signed-in-users.server";
import type { Database, Transaction } from "~db/database.server";
import {
  countries,
  industries,
  organizationChanges,
  organizations,
  provinces,
  registrationContacts,
  registrations,
  serviceAreas,
  services,
  users,
} from "~db/schema";
import { describeProfile, diffProfiles, type FieldChange } from "./profile-changes";

// An approved organization's profile (issue 8) is its approved registration: the organization edits
// it with the registration form's sections, and each save that changes something is recorded for
// staff with every changed field before and after.

/** The organization's approved registration, or undefined (an organization made without one). */
export async function organizationRegistrationId(db: Database | Transaction, organizationId: number) {
  const [row] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(and(eq(registrations.organizationId, organizationId), eq(registrations.status, "approved")));
  return row?.id;
}

/** The profile in words: ids of the industry, country, areas and services turned into their names. */
async function describeStoredProfile(tx: Transaction, registrationId: number) {
  const stored = await readStoredRegistration(tx, registrationId);
  if (!stored) throw new Error(`registration ${registrationId} disappeared`);
  const [industryRows, countryRows, areaRows, serviceRows] = await Promise.all([
    tx.select({ id: industries.id, name: industries.name }).from(industries),
    tx.select({ code: countries.code, name: countries.name }).from(countries),
    stored.serviceAreaIds.length > 0
      ? tx
          .select({ id: serviceAreas.id, city: serviceAreas.city, province: provinces.name })
          .from(serviceAreas)
          .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
          .where(inArray(serviceAreas.id, stored.serviceAreaIds))
      : [],
    stored.serviceIds.length > 0
      ? tx
          .select({ id: services.id, name: services.name })
          .from(services)
          .where(inArray(services.id, stored.serviceIds))
      : [],
  ]);
  const industryNames = new Map(industryRows.map((row) => [String(row.id), row.name]));
  const countryNames = new Map(countryRows.map((row) => [row.code, row.name]));
  const areaNames = new Map(areaRows.map((row) => [String(row.id), `${row.city} (${row.province})`]));
  const serviceNames = new Map(serviceRows.map((row) => [String(row.id), row.name]));
  const listOf = (ids: string | string[], names: Map<string, string>) =>
    [...(Array.isArray(ids) ? ids : [ids])]
      .map((id) => names.get(id) ?? id)
      .sort()
      .join("; ");
  return describeProfile(stored.values, (field, value) => {
    if (field === "primary_industry") return listOf(value, industryNames);
    if (field === "country") return listOf(value, countryNames);
    if (field === "serviceAreas") return listOf(value, areaNames);
    if (field === "services") return listOf(value, serviceNames);
    return Array.isArray(value) ? value.join("; ") : value;
  });
}

export type ProfileSaveOutcome = { kind: "saved"; changes: number } | { kind: "not-found" };

/**
 * One transaction: the profile as it was, the new data written in place (the card untouched), the
 * organization renamed with it, and the changed fields recorded for staff (nothing when nothing changed).
 */
export async function saveOrganizationProfile(
  services: AppServices,
  organizationId: number,
  userId: number,
  submission: Extract<EditSubmission, { kind: "valid" }>,
): Promise<ProfileSaveOutcome> {
  return services.db.transaction(async (tx) => {
    const registrationId = await organizationRegistrationId(tx, organizationId);
    if (!registrationId) return { kind: "not-found" as const };
    // Saves of one organization's profile happen one after the other, so each diff is against the last.
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    const before = await describeStoredProfile(tx, registrationId);
    await replaceRegistrationData(tx, registrationId, submission.update, submission.certificationIds);
    await tx
      .update(organizations)
      .set({ name: submission.update.data.name })
      .where(eq(organizations.id, organizationId));
    await announceSessionChange(tx, { organizationId }); // its users' pages show the new name
    const after = await describeStoredProfile(tx, registrationId);
    const changes = diffProfiles(before, after);
    if (changes.length > 0) {
      await tx.insert(organizationChanges).values({ organizationId, userId, subject: "profile", changes });
    }
    return { kind: "saved" as const, changes: changes.length };
  });
}

export type OrganizationChange = {
  id: number;
  subject: string;
  changes: FieldChange[];
  createdAt: Date;
  userEmail: string | null;
};

/** The organization's recorded changes, newest first, for staff. */
export async function listOrganizationChanges(db: Database, organizationId: number): Promise<OrganizationChange[]> {
  return db
    .select({
      id: organizationChanges.id,
      subject: organizationChanges.subject,
      changes: organizationChanges.changes,
      createdAt: organizationChanges.createdAt,
      userEmail: users.email,
    })
    .from(organizationChanges)
    .leftJoin(users, eq(users.id, organizationChanges.userId))
    .where(eq(organizationChanges.organizationId, organizationId))
    .orderBy(desc(organizationChanges.createdAt), desc(organizationChanges.id))
    .limit(200);
}

const CONTACT_LABELS: Record<string, string> = {
  primary: "Primary contact",
  alternate: "Alternate contact",
  accounting: "Accounting contact",
  sales: "Sales contact",
  operations: "Operations contact",
};

/** What /account shows of the organization: address, phone, e-mail and contacts; null without a profile. */
export async function organizationSummary(db: Database, organizationId: number) {
  const registrationId = await organizationRegistrationId(db, organizationId);
  if (!registrationId) return null;
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId));
  if (!registration) return null;
  const contacts = await db
    .select()
    .from(registrationContacts)
    .where(eq(registrationContacts.registrationId, registrationId))
    .orderBy(asc(registrationContacts.id));
  return {
    address: `${registration.address}, ${registration.city}, ${registration.state} ${registration.postalZip}, ${registration.countryCode}`,
    phone: registration.phone,
    email: registration.email,
    contacts: contacts.map((contact) => ({
      role: contact.role,
      label: CONTACT_LABELS[contact.role] ?? contact.role,
      name: `${contact.firstName} ${contact.lastName}`,
      email: contact.email,
      phone: contact.phone,
    })),
  };
}
