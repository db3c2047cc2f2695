import { eq, inArray } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { sellerSubscriptions } from "~db/schema";
import { type Standing, standingOf } from "./standing";

// The one check behind every place a seller bids or accepts an invitation (issue 19): the live
// bid, the secret minimum, the sealed bid and the terms of a new auction. A bid already placed stands.

/** Whether the seller organization may place a bid or accept a new invitation at `now`. */
export async function sellerMayBid(
  db: Database | Transaction,
  organizationId: number,
  now = new Date(),
): Promise<Standing> {
  const [row] = await db
    .select({ status: sellerSubscriptions.status, graceEndsAt: sellerSubscriptions.graceEndsAt })
    .from(sellerSubscriptions)
    .where(eq(sellerSubscriptions.organizationId, organizationId));
  return standingOf(row, now);
}

/**
 * The same check for several sellers in one query (a round of bids on one auction): the ones held
 * back, with the reason.
 */
export async function blockedSellers(
  db: Database | Transaction,
  organizationIds: number[],
  now = new Date(),
): Promise<Map<number, "overdue" | "cancelled">> {
  const blocked = new Map<number, "overdue" | "cancelled">();
  if (organizationIds.length === 0) return blocked;
  const rows = await db
    .select({
      organizationId: sellerSubscriptions.organizationId,
      status: sellerSubscriptions.status,
      graceEndsAt: sellerSubscriptions.graceEndsAt,
    })
    .from(sellerSubscriptions)
    .where(inArray(sellerSubscriptions.organizationId, organizationIds));
  for (const row of rows) {
    const standing = standingOf(row, now);
    if (!standing.mayBid) blocked.set(row.organizationId, standing.reason);
  }
  return blocked;
}
