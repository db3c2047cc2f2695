import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import type { Messaging } from "~/messaging/messaging.server";
import type { Environment } from "~/platform/env.server";
import { Role } from "~/shared/roles";
import { inDays } from "~/shared/words";
import type { Database } from "~db/database.server";
import {
  certificationOptions,
  expiryReminders,
  keyPersonCertifications,
  registrationContacts,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  users,
} from "~db/schema";

// The daily expiry reminders (issue 8): approved sellers and staff are e-mailed 30 days and 7 days
// before an insurance, WCB or certification expires. Each reminder is recorded, under a key of
// organization, document, expiry date and threshold, in the transaction that queues its e-mails, so a
// second run the same day, or two runs at once, send nothing twice, and a crash loses none.

type Document = { organizationId: number; organizationName: string; key: string; label: string; expiresOn: string };

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The threshold a document has reached today: 7 within a week, 30 within a month, else none. */
export function thresholdReached(expiresOn: string, today: string): 30 | 7 | undefined {
  const left = daysBetween(today, expiresOn);
  if (left < 0) return undefined;
  if (left <= 7) return 7;
  if (left <= 30) return 30;
  return undefined;
}

type SellerProfile = typeof sellerRegistrations.$inferSelect;

/** The seller's own dated documents: expiry column, label, and the coverage that must be held (not 'No'). */
const SELLER_DATES: [keyof SellerProfile, string, (keyof SellerProfile)?][] = [
  ["scComplyWorksExpiry", "ComplyWorks certification"],
  ["scIsnetWorldExpiry", "ISNetworld certification"],
  ["scSecorExpiry", "SECOR certification"],
  ["inCommercialGeneralExpiry", "Commercial general liability insurance"],
  ["inThirdPartyAutomobileExpiry", "Third party automobile liability insurance"],
  ["inAircraftExpiry", "Aircraft liability insurance", "inAircraft"],
  ["inPollutionExpiry", "Pollution liability insurance", "inPollution"],
  ["inFireExpiry", "Forest fire fighting expense insurance", "inFire"],
  ["inErrorsOmissionsExpiry", "Errors and omissions insurance", "inErrorsOmissions"],
  ["inWcbExpiry", "WCB coverage"],
];

/** Every dated document of the approved sellers. */
async function sellerDocuments(db: Database): Promise<Document[]> {
  const sellers = await db
    .select({
      registrationId: registrations.id,
      organizationId: registrations.organizationId,
      name: registrations.name,
      profile: sellerRegistrations,
    })
    .from(registrations)
    .innerJoin(sellerRegistrations, eq(sellerRegistrations.registrationId, registrations.id))
    .where(and(eq(registrations.status, "approved"), isNotNull(registrations.organizationId)));
  if (sellers.length === 0) return [];
  const byRegistration = new Map(sellers.map((seller) => [seller.registrationId, seller]));
  const registrationIds = [...byRegistration.keys()];
  const [wcbs, certifications] = await Promise.all([
    db.select().from(registrationWcbs).where(inArray(registrationWcbs.registrationId, registrationIds)),
    db
      .select({
        id: keyPersonCertifications.id,
        registrationId: registrationContacts.registrationId,
        person: registrationContacts.firstName,
        name: certificationOptions.name,
        expiresOn: keyPersonCertifications.expiresOn,
      })
      .from(keyPersonCertifications)
      .innerJoin(registrationContacts, eq(registrationContacts.id, keyPersonCertifications.contactId))
      .innerJoin(certificationOptions, eq(certificationOptions.id, keyPersonCertifications.certificationOptionId))
      .where(inArray(registrationContacts.registrationId, registrationIds)),
  ]);
  const documents: Document[] = [];
  const add = (registrationId: number, key: string, label: string, expiresOn: string | null) => {
    const seller = byRegistration.get(registrationId);
    if (!seller?.organizationId || !expiresOn) return;
    documents.push({ organizationId: seller.organizationId, organizationName: seller.name, key, label, expiresOn });
  };
  for (const seller of sellers) {
    for (const [column, label, coverage] of SELLER_DATES) {
      if (coverage && seller.profile[coverage] === "No") continue;
      const expiresOn = seller.profile[column];
      add(seller.registrationId, column, label, typeof expiresOn === "string" ? expiresOn : null);
    }
  }
  for (const wcb of wcbs) add(wcb.registrationId, `wcb:${wcb.id}`, `WCB ${wcb.state} ${wcb.number}`, wcb.expiresOn);
  for (const item of certifications) {
    add(item.registrationId, `certification:${item.id}`, `${item.name} (${item.person})`, item.expiresOn);
  }
  return documents;
}

export type ReminderServices = { db: Database; messaging: Messaging; env: Environment };

/**
 * Queues today's reminders; answers how many documents were reminded of. Each organization's
 * "already reminded" rows and its e-mails are written in one transaction.
 */
export async function sendExpiryReminders(services: ReminderServices, today: string): Promise<{ reminded: number }> {
  const { db } = services;
  const byOrganization = new Map<number, (Document & { daysBefore: 30 | 7 })[]>();
  for (const document of await sellerDocuments(db)) {
    const daysBefore = thresholdReached(document.expiresOn, today);
    if (!daysBefore) continue;
    byOrganization.set(document.organizationId, [
      ...(byOrganization.get(document.organizationId) ?? []),
      { ...document, daysBefore },
    ]);
  }
  if (byOrganization.size === 0) return { reminded: 0 };
  const staff = await db.select({ email: users.email }).from(users).where(eq(users.role, Role.Staff));
  let reminded = 0;
  for (const [organizationId, candidates] of byOrganization) {
    reminded += await db.transaction(async (tx) => {
      const documents: typeof candidates = [];
      for (const document of candidates) {
        const [recorded] = await tx
          .insert(expiryReminders)
          .values({
            organizationId: document.organizationId,
            document: document.key,
            expiresOn: document.expiresOn,
            daysBefore: document.daysBefore,
          })
          .onConflictDoNothing()
          .returning({ document: expiryReminders.document });
        if (recorded) documents.push(document);
      }
      if (documents.length === 0) return 0;
      const sellerUsers = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.organizationId, organizationId));
      const name = documents[0]?.organizationName ?? "Your organization";
      const lines = documents.map(
        (document) =>
          `- ${document.label}: expires ${document.expiresOn} (${inDays(daysBetween(today, document.expiresOn))})`,
      );
      for (const { email } of [...sellerUsers, ...staff]) {
        await queueMessage(tx, services.messaging, {
          channel: "email",
          kind: "expiry reminder",
          to: email,
          subject: `Documents expiring soon: ${name}`,
          text: [
            `These documents of ${name} expire soon:`,
            ...lines,
            "",
            "Please send us the renewed documents so that preference in auctions is not affected.",
            `${services.env.APP_URL}/account`,
          ].join("\n"),
        });
      }
      return documents.length;
    });
  }
  return { reminded };
}
