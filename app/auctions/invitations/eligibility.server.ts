import { and, asc, eq, gte, inArray, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { Role } from "~/shared/roles";
import type { Database } from "~db/database.server";
import {
  type auctions,
  organizations,
  registrationServiceAreas,
  registrationServices,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  services,
} from "~db/schema";

// Which sellers an auction may invite (issue 9): approved sellers offering its category in its area,
// insured and covered through the latest moment it can end.

/** The latest the auction can end (every extension taken), as a date: documents must be valid through it. */
export function latestEndDate(auction: { scheduledEndsAt: Date; softCloseCapMinutes: number }): string {
  return new Date(auction.scheduledEndsAt.getTime() + auction.softCloseCapMinutes * 60_000).toISOString().slice(0, 10);
}

/** The category and every category under it (a seller offering a sub-service qualifies for its group). */
async function categoryWithDescendants(db: Database, serviceId: number): Promise<number[]> {
  const rows = await db.select({ id: services.id, parentId: services.parentId }).from(services);
  const ids = [serviceId];
  for (let index = 0; index < ids.length; index += 1) {
    for (const row of rows) if (row.parentId === ids[index]) ids.push(row.id);
  }
  return ids;
}

export type EligibleSeller = { organizationId: number; name: string; city: string };

/**
 * Approved sellers that offer the category (or one under it) in the area, whose insurance (the
 * required coverages and every one they hold) and WCB are valid through the latest possible end.
 */
export async function eligibleSellers(
  db: Database,
  auction: Pick<
    typeof auctions.$inferSelect,
    "serviceId" | "serviceAreaId" | "scheduledEndsAt" | "softCloseCapMinutes"
  >,
): Promise<EligibleSeller[]> {
  const through = latestEndDate(auction);
  const categories = await categoryWithDescendants(db, auction.serviceId);
  const heldThrough = (coverage: AnyPgColumn, expiry: AnyPgColumn) => or(eq(coverage, "No"), gte(expiry, through));
  const validWcb = db
    .select({ id: registrationWcbs.id })
    .from(registrationWcbs)
    .where(and(eq(registrationWcbs.registrationId, registrations.id), gte(registrationWcbs.expiresOn, through)));
  const offersCategory = db
    .select({ id: registrationServices.serviceId })
    .from(registrationServices)
    .where(
      and(
        eq(registrationServices.registrationId, registrations.id),
        inArray(registrationServices.serviceId, categories),
      ),
    );
  const coversArea = db
    .select({ id: registrationServiceAreas.serviceAreaId })
    .from(registrationServiceAreas)
    .where(
      and(
        eq(registrationServiceAreas.registrationId, registrations.id),
        eq(registrationServiceAreas.serviceAreaId, auction.serviceAreaId),
      ),
    );
  const rows = await db
    .select({ organizationId: organizations.id, name: organizations.name, city: registrations.city })
    .from(registrations)
    .innerJoin(organizations, eq(organizations.id, registrations.organizationId))
    .innerJoin(sellerRegistrations, eq(sellerRegistrations.registrationId, registrations.id))
    .where(
      and(
        eq(registrations.status, "approved"),
        eq(organizations.organizationType, Role.Seller),
        sql`exists (${offersCategory})`,
        sql`exists (${coversArea})`,
        gte(sellerRegistrations.inCommercialGeneralExpiry, through),
        gte(sellerRegistrations.inThirdPartyAutomobileExpiry, through),
        heldThrough(sellerRegistrations.inAircraft, sellerRegistrations.inAircraftExpiry),
        heldThrough(sellerRegistrations.inPollution, sellerRegistrations.inPollutionExpiry),
        heldThrough(sellerRegistrations.inFire, sellerRegistrations.inFireExpiry),
        heldThrough(sellerRegistrations.inErrorsOmissions, sellerRegistrations.inErrorsOmissionsExpiry),
        or(gte(sellerRegistrations.inWcbExpiry, through), sql`exists (${validWcb})`),
      ),
    )
    .orderBy(asc(organizations.name));
  return rows;
}
