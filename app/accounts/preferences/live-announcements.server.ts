import { eq } from "drizzle-orm";
import { announceSessionChange } from "~/sessions/signed-in-users.server";
import type { Database } from "~db/database.server";
import { users } from "~db/schema";

/** Keeps the user's choice of spoken updates on live auction pages (issue 32); every process forgets its copy. */
export async function setLiveAnnouncements(db: Database, userId: number, on: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ liveAnnouncements: on }).where(eq(users.id, userId));
    await announceSessionChange(tx, { userId });
  });
}

/** Only an auction's pages are gone back to; anything else goes to the account page. */
export function liveAnnouncementsReturn(value: FormDataEntryValue | null): string {
  return typeof value === "string" && /^\/auctions\/\d+(\/lots\/\d+\/bids?)?$/.test(value) ? value : "/account";
}
