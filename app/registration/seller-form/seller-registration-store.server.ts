import { and, eq, inArray } from "drizzle-orm";
import type { ProviderRefusal } from "~/payments/ask-provider.server";
import {
  askToSaveCard,
  askToStartCheckout,
  type CheckoutUrls,
  cardHolder,
  savedCardColumns,
} from "~/payments/card-capture/card-capture.server";
import type { CardHolder } from "~/payments/payments";
import { logger } from "~/platform/logger.server";
import type { AppServices } from "~/server/app-context";
import { Role } from "~/shared/roles";
import type { Database, Transaction } from "~db/database.server";
import {
  certificationOptions,
  keyPersonCertifications,
  keyPersonEducation,
  keyPersonWorkExperiences,
  registrationContacts,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  services as servicesTable,
} from "~db/schema";
import {
  checkAccessTokenUsable,
  checkReferences,
  generalRegistrationColumns,
  notifyStaff,
  type RegisterOutcome,
  writeRegistration,
} from "../form/registration-store.server";
import { idSet, registrationAttemptKey, submissionHash } from "../form/registration-submission.server";
import {
  NO_SERVICE_CHOSEN,
  type SellerRegistrationData,
  sellerKeyPeople,
  sellerProfileValues,
  sellerWcbs,
} from "./seller-registration-schema";

const SELLER = Role.Seller;

export type SellerRegisterOutcome =
  | RegisterOutcome
  /** The provider refused the card or failed: nothing was written, the token is still usable. */
  | ProviderRefusal;

/** Services and certification options must exist; returns field errors and the certification ids by name. */
export async function checkSellerReferences(db: Database, data: SellerRegistrationData) {
  const errors = await checkReferences(db, data);
  const known = await db
    .select({ id: servicesTable.id })
    .from(servicesTable)
    .where(inArray(servicesTable.id, data.services));
  if (known.length !== data.services.length) errors.services = NO_SERVICE_CHOSEN;
  const options = await db.select().from(certificationOptions);
  return { errors, certificationIds: new Map(options.map((option) => [option.name, option.id])) };
}

type PaymentColumns = Pick<
  typeof sellerRegistrations.$inferInsert,
  | "paymentStatus"
  | "paymentProvider"
  | "paymentCustomerId"
  | "paymentMethodId"
  | "cardBrand"
  | "cardLast4"
  | "checkoutSessionId"
  | "cardSavedAt"
>;

/** The seller's own rows: details and payment, then services, WCB entries, key people and their items. */
async function writeSellerDetails(
  tx: Transaction,
  registrationId: number,
  data: SellerRegistrationData,
  certificationIds: Map<string, number>,
  payment: PaymentColumns,
) {
  await tx.insert(sellerRegistrations).values({ registrationId, ...sellerProfileValues(data), ...payment });
  await writeSellerLists(tx, registrationId, data, certificationIds);
}

/** Services, WCB entries, key people and their items (the rows a change of the registration replaces). */
export async function writeSellerLists(
  tx: Transaction,
  registrationId: number,
  data: SellerRegistrationData,
  certificationIds: Map<string, number>,
) {
  await tx.insert(registrationServices).values(data.services.map((serviceId) => ({ registrationId, serviceId })));
  const wcbs = sellerWcbs(data);
  if (wcbs.length > 0) await tx.insert(registrationWcbs).values(wcbs.map((wcb) => ({ registrationId, ...wcb })));
  for (const person of sellerKeyPeople(data)) {
    const [contact] = await tx
      .insert(registrationContacts)
      .values({ registrationId, ...person.contact })
      .returning({ id: registrationContacts.id });
    if (!contact) throw new Error("no contact row");
    const contactId = contact.id;
    if (person.workExperiences.length > 0) {
      await tx.insert(keyPersonWorkExperiences).values(person.workExperiences.map((item) => ({ contactId, ...item })));
    }
    if (person.certifications.length > 0) {
      await tx.insert(keyPersonCertifications).values(
        person.certifications.map(({ certificationName, ...item }) => {
          const certificationOptionId = certificationIds.get(certificationName);
          if (certificationOptionId === undefined) throw new Error(`unknown certification ${certificationName}`);
          return { contactId, certificationOptionId, ...item };
        }),
      );
    }
    if (person.education.length > 0) {
      await tx.insert(keyPersonEducation).values(person.education.map((item) => ({ contactId, ...item })));
    }
  }
}

/**
 * A seller's submission as it is stored, hashed (registration-submission.server.ts). The card is not
 * part of it: Stripe.js makes a new token for every submit, so a double submit differs only there.
 */
export const sellerSubmissionHash = (data: SellerRegistrationData) =>
  submissionHash(SELLER, {
    registration: generalRegistrationColumns(data),
    serviceAreas: idSet(data.serviceAreas),
    seller: sellerProfileValues(data),
    services: idSet(data.services),
    wcbs: sellerWcbs(data),
    keyPeople: sellerKeyPeople(data),
  });

/**
 * The registration was not written (another attempt spent the token first): the customer this
 * attempt made at the provider is deleted, unless the registration on file uses it (an identical
 * attempt, same idempotency key, same customer). Best effort: the answer does not depend on it.
 * A failed transaction (an outage) keeps the customer: the retry's idempotency key gets it back.
 */
async function discardUnusedCustomer(services: AppServices, outcome: RegisterOutcome, customerId: string) {
  if (outcome.kind === "created") return;
  if (outcome.kind === "already-submitted") {
    const stored = await sellerPaymentOf(services.db, outcome.registrationId);
    if (stored?.paymentCustomerId === customerId) return;
  }
  await services.payments.discardCustomer(customerId).catch((error: unknown) => {
    logger.error({ err: error }, `deleting the unused customer ${customerId} failed`);
  });
}

/**
 * Step 5 for sellers (spec sections 3 to 5): every check first (data, references, the token usable
 * for this data), then the provider is asked about the card (`card.ask`: no charge, idempotent per
 * attempt), then one transaction spends the token and writes the registration, the seller's details
 * with the payment columns `card.columns` makes of the provider's answer, key people and their items,
 * WCB entries, services and service areas. A refused card writes nothing; a refused request makes no
 * customer. Answers the outcome, and the provider's answer when it was asked.
 */
async function registerSellerWithCard<Answer extends { customerId: string }>(
  services: AppServices,
  data: SellerRegistrationData,
  card: {
    ask: (holder: CardHolder) => Promise<{ kind: "answer"; answer: Answer } | ProviderRefusal>;
    columns: (answer: Answer) => PaymentColumns;
    /** The card is saved with the registration: staff are told in its transaction (else at Checkout's return). */
    tellStaff: boolean;
  },
): Promise<{ outcome: SellerRegisterOutcome; answer?: Answer }> {
  const { db } = services;
  const { errors, certificationIds } = await checkSellerReferences(db, data);
  if (Object.keys(errors).length > 0) return { outcome: { kind: "invalid-fields", errors } };

  const hash = sellerSubmissionHash(data);
  const token = await checkAccessTokenUsable(db, data.reg_access_token, SELLER, hash);
  if ("kind" in token) return { outcome: token };

  const asked = await card.ask(cardHolder(data, `registration-token-${token.tokenId}`));
  if (asked.kind !== "answer") return { outcome: asked };
  const answer = asked.answer;

  const outcome = await writeRegistration(services, {
    organizationType: SELLER,
    data,
    submissionHash: hash,
    writeDetails: async (tx, registrationId) => {
      await writeSellerDetails(tx, registrationId, data, certificationIds, card.columns(answer));
      if (card.tellStaff) await notifyStaff(tx, services, registrationId, SELLER, data.name);
    },
  });
  await discardUnusedCustomer(services, outcome, answer.customerId);
  return { outcome, answer };
}

/** With a token (the test provider's, or Stripe.js's): the card is saved to a new customer, and staff are told. */
export async function registerSeller(
  services: AppServices,
  data: SellerRegistrationData,
  paymentToken: string,
): Promise<SellerRegisterOutcome> {
  const { payments } = services;
  const { outcome } = await registerSellerWithCard(services, data, {
    ask: (holder) =>
      askToSaveCard(payments, "saving a seller's card", {
        token: paymentToken,
        customer: { holder },
        idempotencyKey: registrationAttemptKey(data.reg_access_token, "card", { paymentToken, holder }),
      }),
    columns: (card) => savedCardColumns(card, payments.provider),
    tellStaff: true,
  });
  return outcome;
}

/**
 * Stripe configured, JavaScript off: the registration is written as awaiting payment and the
 * applicant is sent to a Stripe Checkout page in setup mode; completeSellerCheckout finishes it on
 * return. successUrl must contain {CHECKOUT_SESSION_ID} (Stripe fills it in).
 */
export async function registerSellerAwaitingPayment(
  services: AppServices,
  data: SellerRegistrationData,
  urls: CheckoutUrls,
): Promise<SellerRegisterOutcome | { kind: "checkout"; registrationId: number; checkoutUrl: string }> {
  const { payments } = services;
  if (payments.provider !== "stripe") throw new Error("Stripe Checkout needs Stripe to be configured");
  const { outcome, answer: checkout } = await registerSellerWithCard(services, data, {
    ask: (holder) =>
      askToStartCheckout(payments, "starting Stripe Checkout", {
        customer: { holder },
        urls,
        idempotencyKey: registrationAttemptKey(data.reg_access_token, "checkout", { holder, ...urls }),
      }),
    columns: (started) => ({
      paymentStatus: "awaiting_payment",
      paymentProvider: "stripe",
      paymentCustomerId: started.customerId,
      checkoutSessionId: started.sessionId,
    }),
    tellStaff: false,
  });
  if (outcome.kind !== "created" || !checkout) return outcome;
  return { kind: "checkout", registrationId: outcome.registrationId, checkoutUrl: checkout.url };
}

export type CheckoutReturn =
  | { kind: "complete"; registrationId: number }
  | { kind: "open" | "expired"; registrationId: number }
  | { kind: "unknown" };

/** The applicant is back from Stripe Checkout: once the card is saved the registration is complete and staff are told. */
export async function completeSellerCheckout(services: AppServices, sessionId: string): Promise<CheckoutReturn> {
  const { db, payments } = services;
  const [seller] = await db
    .select({
      registrationId: sellerRegistrations.registrationId,
      paymentStatus: sellerRegistrations.paymentStatus,
      name: registrations.name,
    })
    .from(sellerRegistrations)
    .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
    .where(eq(sellerRegistrations.checkoutSessionId, sessionId));
  if (!seller || payments.provider !== "stripe") return { kind: "unknown" };
  if (seller.paymentStatus === "card_saved") return { kind: "complete", registrationId: seller.registrationId };
  const result = await payments.readSetupCheckout(sessionId);
  if (result.status !== "complete") return { kind: result.status, registrationId: seller.registrationId };
  // Only the request that made the change tells staff (a reload of the return page does not), in its transaction.
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(sellerRegistrations)
      .set(savedCardColumns(result.card, payments.provider))
      .where(
        and(
          eq(sellerRegistrations.checkoutSessionId, sessionId),
          eq(sellerRegistrations.paymentStatus, "awaiting_payment"),
        ),
      )
      .returning({ registrationId: sellerRegistrations.registrationId });
    if (updated) await notifyStaff(tx, services, seller.registrationId, SELLER, seller.name);
  });
  return { kind: "complete", registrationId: seller.registrationId };
}

/** The seller's saved payment details, for staff and for tests (ids only; never card numbers). */
export async function sellerPaymentOf(db: Database, registrationId: number) {
  const [row] = await db
    .select({
      paymentStatus: sellerRegistrations.paymentStatus,
      paymentProvider: sellerRegistrations.paymentProvider,
      paymentCustomerId: sellerRegistrations.paymentCustomerId,
      paymentMethodId: sellerRegistrations.paymentMethodId,
    })
    .from(sellerRegistrations)
    .where(eq(sellerRegistrations.registrationId, registrationId));
  return row;
}
