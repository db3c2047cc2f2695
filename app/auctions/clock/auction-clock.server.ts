import { and, eq, inArray, lte, or } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { startPeriodic } from "~/platform/periodic.server";
import { auctions } from "~db/schema";
import { logEvent, notifyAuction } from "../auction-changes.server";
import { statusAt } from "../auction-rules";
import { tellClosed, tellOpened } from "./clock-notices.server";

// The auction clock (issue 9): opening and closing auctions on time. The status at any moment follows
// from the times (auction-rules.ts, `statusAt`); this records it, each change a conditional update
// under the auction's row lock, and tells the parties.

/**
 * Persists what the clock has decided: scheduled auctions past their start are open, those past
 * their end closed (the buyer side and the bidders are e-mailed once). Run by the worker every few
 * seconds, and safe to run on several machines at once: each change is conditional, under the lock.
 */
export async function advanceAuctions(services: MessageServices, now = new Date()) {
  const { db } = services;
  const due = await db
    .select({ id: auctions.id })
    .from(auctions)
    .where(
      or(
        and(inArray(auctions.status, ["scheduled", "open"]), lte(auctions.endsAt, now)),
        and(eq(auctions.status, "scheduled"), lte(auctions.startsAt, now)),
      ),
    )
    .limit(200);
  let opened = 0;
  let closed = 0;
  for (const { id } of due) {
    const change = await db.transaction(async (tx) => {
      const [auction] = await tx.select().from(auctions).where(eq(auctions.id, id)).for("update");
      if (!auction) return null;
      const status = statusAt(auction, now);
      if (status === auction.status || (status !== "open" && status !== "closed")) return null;
      await tx
        .update(auctions)
        .set({ status, ...(status === "closed" ? { closedAt: auction.endsAt } : {}), updatedAt: now })
        .where(and(eq(auctions.id, id), eq(auctions.status, auction.status)));
      await logEvent(tx, id, status === "open" ? "opened" : "closed", null);
      await notifyAuction(tx, id);
      // The notices are part of the change.
      if (status === "open") await tellOpened(services, auction, tx);
      else await tellClosed(services, auction, tx);
      return { status };
    });
    if (!change) continue;
    if (change.status === "open") opened += 1;
    else closed += 1;
  }
  return { opened, closed };
}

/**
 * Opens and closes auctions on time: `advanceAuctions` every few seconds. Runs in the worker process
 * (`npm run worker`); on the embedded database, which has no worker, in the one app process.
 */
export function startAuctionClock(services: MessageServices, intervalMs = 5_000) {
  return startPeriodic("auction clock", () => advanceAuctions(services), intervalMs);
}
