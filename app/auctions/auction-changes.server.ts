import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionEvents, auctions } from "~db/schema";

// How every change to an auction is made (issue 9): refused with a status and a message, or done
// under the auction's row lock, with an entry in its event log and a notification that every app
// machine's listeners receive when the transaction commits.

export type Actor = { userId: number; organizationId: number };

export type AuctionChange =
  | { kind: "done"; auctionId: number }
  | { kind: "refused"; status: 400 | 403 | 404 | 409; message: string; field?: string };

export const refused = (status: 400 | 403 | 404 | 409, message: string, field?: string): AuctionChange => ({
  kind: "refused",
  status,
  message,
  field,
});

export async function logEvent(
  tx: Pick<Database, "insert">,
  auctionId: number,
  kind: string,
  actor: Partial<Actor> | null,
  data: Record<string, unknown> = {},
) {
  await tx.insert(auctionEvents).values({
    auctionId,
    kind,
    userId: actor?.userId ?? null,
    organizationId: actor?.organizationId ?? null,
    data,
  });
}

/** The auction of the actor's organization, locked; or why not. */
export async function lockOwned(tx: Transaction, auctionId: number, actor: Actor) {
  const [auction] = await tx.select().from(auctions).where(eq(auctions.id, auctionId)).for("update");
  // Nobody runs a practice auction (issue 21): no award, fee, invoice, publication or cancellation.
  if (!auction || auction.practice || auction.organizationId !== actor.organizationId) return undefined;
  return auction;
}

export const NOT_FOUND = "This auction does not exist.";
export const TERMS_LOCKED = "Bidding has started: the terms of this auction can no longer change.";

export const AUCTION_CHANNEL = "auction_events";

/** Tells every app machine's listeners that the auction changed (sent when the transaction commits). */
export async function notifyAuction(tx: Pick<Database, "execute">, auctionId: number) {
  await tx.execute(sql`select pg_notify(${AUCTION_CHANNEL}, ${String(auctionId)})`);
}
