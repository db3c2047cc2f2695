import { and, eq, gt, inArray, isNotNull, isNull } from "drizzle-orm";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import type { Executor } from "~/messaging/messaging.server";
import type { AppServices } from "~/server/app-context";
import { type BuyerSideCode, ORGANIZATION_TYPES, type OrganizationTypeCode, Role } from "~/shared/roles";
import { hashToken } from "~/shared/secret-tokens.server";
import type { Database, Transaction } from "~db/database.server";
import {
  countries,
  industries,
  provinces,
  registrationAccessTokens,
  registrationContacts,
  registrationRequests,
  registrationServiceAreas,
  registrations,
  serviceAreas,
  users,
  usStates,
} from "~db/schema";
import { INVALID_ACCESS_TOKEN } from "../registration-texts";
import type { BuyerRegistrationData, Contact } from "./registration-data";
import { idSet, submissionHash } from "./registration-submission.server";

export const ACCEPT_LEGAL_FIRST = "Please accept the privacy policy and the terms and conditions before registering.";

export type RegisterOutcome =
  | { kind: "created"; registrationId: number }
  /**
   * The same token was already spent by a registration of the same data: a double submit or a retry.
   * Nothing new is written. (The same token with other data is refused: 409, Invalid access token.)
   */
  | { kind: "already-submitted"; registrationId: number }
  | { kind: "invalid-fields"; errors: Record<string, string> }
  | { kind: "refused"; status: 404 | 409; message: string };

const STATE_REQUIRED = "Please select a state or province";

/** The checks that need the reference tables: country, state/province, industry, service areas. */
export async function checkReferences(
  db: Database,
  data: Pick<BuyerRegistrationData, "country" | "state" | "primary_industry" | "serviceAreas">,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const [country] = await db.select().from(countries).where(eq(countries.code, data.country));
  if (!country) errors.country = "Please select a country";
  if (data.country === "CA") {
    const [province] = await db.select().from(provinces).where(eq(provinces.code, data.state.toUpperCase()));
    if (!province) errors.state = STATE_REQUIRED;
  } else if (data.country === "US") {
    const [state] = await db.select().from(usStates).where(eq(usStates.code, data.state.toUpperCase()));
    if (!state) errors.state = STATE_REQUIRED;
  }
  const [industry] = await db.select().from(industries).where(eq(industries.id, data.primary_industry));
  if (!industry) errors.primary_industry = "Please select a primary industry";
  if (data.serviceAreas.length > 0) {
    const known = await db
      .select({ id: serviceAreas.id })
      .from(serviceAreas)
      .where(inArray(serviceAreas.id, data.serviceAreas));
    if (known.length !== data.serviceAreas.length) errors.serviceAreas = "Please select service areas from the list";
  }
  return errors;
}

const typeLabel = (code: number) => ORGANIZATION_TYPES.find((type) => type.code === code)?.slug ?? "other";

/** Company general information every type shares (spec section 3). */
export type GeneralRegistrationData = Pick<
  BuyerRegistrationData,
  | "reg_access_token"
  | "name"
  | "address"
  | "city"
  | "state"
  | "country"
  | "postal_zip"
  | "phone"
  | "fax"
  | "email"
  | "primary_industry"
  | "serviceAreas"
>;

export type RegistrationWrite = {
  organizationType: OrganizationTypeCode;
  data: GeneralRegistrationData;
  billingPreference?: BuyerRegistrationData["billing_preference"];
  /** Of the normalized data (registration-submission.server.ts), kept to tell a replay from other data. */
  submissionHash: string;
  /** The type's own rows (contacts, seller details), written in the same transaction. */
  writeDetails(tx: Transaction, registrationId: number): Promise<void>;
};

/** The registrations row's columns from the general information (codes upper-cased, email lower-cased). */
export function generalRegistrationColumns(
  data: Omit<GeneralRegistrationData, "reg_access_token" | "serviceAreas">,
  billingPreference?: BuyerRegistrationData["billing_preference"],
) {
  return {
    name: data.name,
    address: data.address,
    city: data.city,
    state: data.country === "CA" || data.country === "US" ? data.state.toUpperCase() : data.state,
    countryCode: data.country,
    postalZip: data.country === "CA" ? data.postal_zip.toUpperCase() : data.postal_zip,
    phone: data.phone,
    fax: data.fax ?? null,
    email: data.email.toLowerCase(),
    primaryIndustryId: data.primary_industry,
    billingPreference: billingPreference ?? null,
  };
}

export async function writeServiceAreas(tx: Transaction, registrationId: number, serviceAreaIds: number[]) {
  if (serviceAreaIds.length === 0) return;
  await tx
    .insert(registrationServiceAreas)
    .values(serviceAreaIds.map((serviceAreaId) => ({ registrationId, serviceAreaId })));
}

/** The buyer's or consultant's contacts as rows: primary, alternate (when given) and accounting. */
function buyerContactRows(data: BuyerRegistrationData) {
  const contacts: { role: "primary" | "alternate" | "accounting"; contact: Contact | undefined }[] = [
    { role: "primary", contact: data.primaryContact },
    { role: "alternate", contact: data.alternateContact },
    { role: "accounting", contact: data.accountingContact },
  ];
  return contacts.flatMap(({ role, contact }) =>
    contact
      ? [
          {
            role,
            firstName: contact.first_name,
            lastName: contact.last_name,
            phone: contact.phone,
            email: contact.email.toLowerCase(),
          },
        ]
      : [],
  );
}

export async function writeBuyerContacts(tx: Transaction, registrationId: number, data: BuyerRegistrationData) {
  await tx.insert(registrationContacts).values(buyerContactRows(data).map((row) => ({ registrationId, ...row })));
}

/** A buyer's or consultant's submission as it is stored, hashed (registration-submission.server.ts). */
export const buyerSubmissionHash = (organizationType: BuyerSideCode, data: BuyerRegistrationData) =>
  submissionHash(organizationType, {
    registration: generalRegistrationColumns(data, data.billing_preference),
    serviceAreas: idSet(data.serviceAreas),
    contacts: buyerContactRows(data),
  });

/**
 * Step 5 for every type: in one transaction the token is spent and the registration, its service
 * areas and the type's own rows are written with status submitted. Of any number of submissions
 * with one token exactly one registration results; the others are told it exists.
 */
export async function writeRegistration(services: AppServices, write: RegistrationWrite): Promise<RegisterOutcome> {
  const { data, organizationType } = write;
  return services.db
    .transaction(async (tx): Promise<RegisterOutcome> => {
      const now = new Date();
      const tokenHash = hashToken(data.reg_access_token);
      const [spent] = await tx
        .update(registrationAccessTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(registrationAccessTokens.tokenHash, tokenHash),
            isNull(registrationAccessTokens.usedAt),
            gt(registrationAccessTokens.expiresAt, now),
            isNotNull(registrationAccessTokens.privacyPolicyAcceptedAt),
            isNotNull(registrationAccessTokens.termsAcceptedAt),
          ),
        )
        .returning({
          id: registrationAccessTokens.id,
          registrationRequestId: registrationAccessTokens.registrationRequestId,
        });
      if (!spent) return explainRefusal(tx, tokenHash, now, organizationType, write.submissionHash);

      const [request] = await tx
        .select({ organizationType: registrationRequests.organizationType })
        .from(registrationRequests)
        .where(eq(registrationRequests.id, spent.registrationRequestId));
      if (request?.organizationType !== organizationType) {
        // Rolls the spending back: the applicant can still use the right form.
        throw new WrongType(request?.organizationType ?? 0);
      }

      const [registration] = await tx
        .insert(registrations)
        .values({
          accessTokenId: spent.id,
          organizationType,
          status: "submitted",
          ...generalRegistrationColumns(data, write.billingPreference),
          submittedAt: now,
          submissionHash: write.submissionHash,
        })
        .returning({ id: registrations.id });
      if (!registration) throw new Error("no registration row");

      await writeServiceAreas(tx, registration.id, data.serviceAreas);
      await write.writeDetails(tx, registration.id);
      return { kind: "created", registrationId: registration.id };
    })
    .catch((error: unknown) => {
      if (error instanceof WrongType) return wrongTypeOutcome(error.actualType);
      throw error;
    });
}

const wrongTypeOutcome = (actualType: number): RegisterOutcome => ({
  kind: "refused",
  status: 409,
  message: `This registration link is for a ${typeLabel(actualType)} registration.`,
});

/**
 * Whether the token could be spent for this type right now, without spending it: for work that must
 * happen before the transaction (saving a card). Null when usable, otherwise the outcome to answer.
 */
export async function checkAccessTokenUsable(
  db: Database,
  accessToken: string,
  organizationType: OrganizationTypeCode,
  submissionHash: string,
): Promise<{ tokenId: number } | RegisterOutcome> {
  const now = new Date();
  const tokenHash = hashToken(accessToken);
  const [token] = await db
    .select({
      id: registrationAccessTokens.id,
      usedAt: registrationAccessTokens.usedAt,
      expiresAt: registrationAccessTokens.expiresAt,
      privacyPolicyAcceptedAt: registrationAccessTokens.privacyPolicyAcceptedAt,
      termsAcceptedAt: registrationAccessTokens.termsAcceptedAt,
      organizationType: registrationRequests.organizationType,
    })
    .from(registrationAccessTokens)
    .innerJoin(registrationRequests, eq(registrationRequests.id, registrationAccessTokens.registrationRequestId))
    .where(eq(registrationAccessTokens.tokenHash, tokenHash));
  const usable =
    token && !token.usedAt && token.expiresAt > now && token.privacyPolicyAcceptedAt && token.termsAcceptedAt;
  if (!usable) return explainRefusal(db, tokenHash, now, organizationType, submissionHash);
  if (token.organizationType !== organizationType) return wrongTypeOutcome(token.organizationType);
  return { tokenId: token.id };
}

/** Step 5 for buyers and consultants: the registration with its contacts and service areas. */
export async function registerBuyerOrConsultant(
  services: AppServices,
  organizationType: BuyerSideCode,
  data: BuyerRegistrationData,
): Promise<RegisterOutcome> {
  const referenceErrors = await checkReferences(services.db, data);
  if (Object.keys(referenceErrors).length > 0) return { kind: "invalid-fields", errors: referenceErrors };

  const outcome = await writeRegistration(services, {
    organizationType,
    data,
    billingPreference: data.billing_preference,
    submissionHash: buyerSubmissionHash(organizationType, data),
    writeDetails: async (tx, registrationId) => {
      await writeBuyerContacts(tx, registrationId, data);
      await notifyStaff(tx, services, registrationId, organizationType, data.name);
    },
  });
  return outcome;
}

class WrongType extends Error {
  constructor(readonly actualType: number) {
    super("wrong organization type");
  }
}

/**
 * Why a token could not be spent: already spent by a registration of the same data (a resubmission),
 * spent by other data (a different request with a used link: refused, nothing changes), steps
 * skipped, or unusable.
 */
async function explainRefusal(
  tx: Pick<Database, "select">,
  tokenHash: string,
  now: Date,
  organizationType: number,
  submissionHash: string,
): Promise<RegisterOutcome> {
  const [token] = await tx
    .select({
      id: registrationAccessTokens.id,
      usedAt: registrationAccessTokens.usedAt,
      expiresAt: registrationAccessTokens.expiresAt,
      privacyPolicyAcceptedAt: registrationAccessTokens.privacyPolicyAcceptedAt,
      termsAcceptedAt: registrationAccessTokens.termsAcceptedAt,
    })
    .from(registrationAccessTokens)
    .where(eq(registrationAccessTokens.tokenHash, tokenHash));
  if (!token || token.expiresAt <= now) return { kind: "refused", status: 404, message: INVALID_ACCESS_TOKEN };
  if (token.usedAt) {
    const [existing] = await tx
      .select({
        id: registrations.id,
        organizationType: registrations.organizationType,
        submissionHash: registrations.submissionHash,
      })
      .from(registrations)
      .where(eq(registrations.accessTokenId, token.id));
    if (!existing) return { kind: "refused", status: 404, message: INVALID_ACCESS_TOKEN };
    // Registrations from before the hash was kept have none: a replay of those cannot be told apart, so it is refused.
    if (existing.organizationType === organizationType && existing.submissionHash === submissionHash) {
      return { kind: "already-submitted", registrationId: existing.id };
    }
    return { kind: "refused", status: 409, message: INVALID_ACCESS_TOKEN };
  }
  return { kind: "refused", status: 409, message: ACCEPT_LEGAL_FIRST };
}

/** Staff get an e-mail that a registration awaits review, queued in the transaction that submits it. */
export async function notifyStaff(
  executor: Executor,
  services: AppServices,
  registrationId: number,
  organizationType: number,
  name: string,
) {
  const staff = await executor.select({ email: users.email }).from(users).where(eq(users.role, Role.Staff));
  for (const { email } of staff) {
    await queueMessage(executor, services.messaging, {
      channel: "email",
      kind: "registration notice to staff",
      to: email,
      subject: `New ${typeLabel(organizationType)} registration awaiting review: ${name}`,
      text: [
        `${name} has registered as a ${typeLabel(organizationType)} (registration ${registrationId}).`,
        "",
        "Review it here:",
        `${services.env.APP_URL}/staff/registrations/${registrationId}`,
      ].join("\n"),
    });
  }
}
