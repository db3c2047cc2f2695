import { desc, eq } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { subscriptionEvents } from "~db/schema";

/** A seller subscription's provider events for staff, newest first (issue 19). */
export async function subscriptionHistoryOf(db: Database, organizationId: number) {
  const rows = await db
    .select({
      id: subscriptionEvents.id,
      eventId: subscriptionEvents.eventId,
      type: subscriptionEvents.type,
      occurredAt: subscriptionEvents.occurredAt,
      status: subscriptionEvents.status,
      summary: subscriptionEvents.summary,
    })
    .from(subscriptionEvents)
    .where(eq(subscriptionEvents.organizationId, organizationId))
    .orderBy(desc(subscriptionEvents.id))
    .limit(200);
  return rows.map((row) => ({ ...row, occurredAt: row.occurredAt.toISOString() }));
}
