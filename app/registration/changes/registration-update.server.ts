import { eq } from "drizzle-orm";
import { type BuyerSideCode, Role } from "~/shared/roles";
import type { Database, Transaction } from "~db/database.server";
import {
  registrationContacts,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
} from "~db/schema";
import type { BuyerRegistrationData } from "../form/registration-data";
import {
  checkReferences,
  generalRegistrationColumns,
  writeBuyerContacts,
  writeServiceAreas,
} from "../form/registration-store.server";
import { type SellerRegistrationData, sellerProfileValues } from "../seller-form/seller-registration-schema";
import { checkSellerReferences, writeSellerLists } from "../seller-form/seller-registration-store.server";

// A registration's data written again in place: by the applicant after staff asked for changes, and
// by the organization editing its profile after approval (the approved registration is the
// organization's profile). The caller runs it inside its own transaction; the card is never touched.

export type RegistrationUpdate =
  | { organizationType: BuyerSideCode; data: BuyerRegistrationData }
  | {
      organizationType: typeof Role.Seller;
      data: SellerRegistrationData;
      /** The profile form has no feedback field: the answer given at registration stays. */
      keepFeedback: boolean;
    };

/** Reference checks (country, state, industry, areas; services and certifications for sellers), as field errors. */
export async function checkUpdateReferences(db: Database, update: RegistrationUpdate) {
  if (update.organizationType === Role.Seller) return checkSellerReferences(db, update.data);
  return { errors: await checkReferences(db, update.data), certificationIds: new Map<string, number>() };
}

/** Replaces the general columns, areas, contacts and (seller) details and lists of one registration. */
export async function replaceRegistrationData(
  tx: Transaction,
  registrationId: number,
  update: RegistrationUpdate,
  certificationIds: Map<string, number>,
) {
  const { data } = update;
  await tx
    .update(registrations)
    .set(
      generalRegistrationColumns(
        data,
        update.organizationType === Role.Seller ? undefined : update.data.billing_preference,
      ),
    )
    .where(eq(registrations.id, registrationId));
  await tx.delete(registrationServiceAreas).where(eq(registrationServiceAreas.registrationId, registrationId));
  await writeServiceAreas(tx, registrationId, data.serviceAreas);
  // Contacts go with their work experience, certifications and education (on delete cascade).
  await tx.delete(registrationContacts).where(eq(registrationContacts.registrationId, registrationId));
  if (update.organizationType !== Role.Seller) {
    await writeBuyerContacts(tx, registrationId, update.data);
    return;
  }
  const { feedback, ...profile } = sellerProfileValues(update.data);
  await tx
    .update(sellerRegistrations)
    .set(update.keepFeedback ? profile : { ...profile, feedback })
    .where(eq(sellerRegistrations.registrationId, registrationId));
  await tx.delete(registrationServices).where(eq(registrationServices.registrationId, registrationId));
  await tx.delete(registrationWcbs).where(eq(registrationWcbs.registrationId, registrationId));
  await writeSellerLists(tx, registrationId, update.data, certificationIds);
}
