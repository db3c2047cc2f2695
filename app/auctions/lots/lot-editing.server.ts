import { eq, sql } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import type { Transaction } from "~db/database.server";
import { auctionLots, auctions } from "~db/schema";
import {
  type Actor,
  type AuctionChange,
  lockOwned,
  logEvent,
  NOT_FOUND,
  notifyAuction,
  refused,
  TERMS_LOCKED,
} from "../auction-changes.server";
import { termsOpenForChange } from "../auction-rules";
import { tellInvitedOfChanges } from "../questions/terms-changed.server";
import { type LineItem, MAX_LOTS, SEALED_NO_GAP } from "./line-items";
import { lotName } from "./lot-words";
import { type LotRow, type LotTerms, removeLot, rescheduleLots, saveLot } from "./lots.server";

// A buyer sets up a lotted auction (issue 31): lots with their line items, the gap between lots'
// closings and what sellers see. Like the rest of the terms, only while nothing has been bid and
// bidding has not opened; each change under the auction's row lock, logged, and told to invited
// sellers once the auction is published.

export const TOO_MANY_LOTS = `An auction has at most ${MAX_LOTS} lots.`;
export const LAST_LOT = "An auction keeps at least one lot.";

type Editable = { auction: NonNullable<Awaited<ReturnType<typeof lockOwned>>> } | { change: AuctionChange };

/**
 * The actor's auction, locked, if its lots may change now. A sealed auction's lots take line items
 * (their price schedules, issue 31) and may be several, but all close at its deadline: no gap.
 */
async function lockEditable(
  tx: Transaction,
  auctionId: number,
  actor: Actor,
  now: Date,
  { sealedToo = true } = {},
): Promise<Editable> {
  const auction = await lockOwned(tx, auctionId, actor);
  if (!auction) return { change: refused(404, NOT_FOUND) };
  if (!termsOpenForChange(auction, now)) return { change: refused(409, TERMS_LOCKED) };
  if (auction.kind === "sealed" && !sealedToo) return { change: refused(409, SEALED_NO_GAP) };
  return { auction };
}

/** Tells the invited sellers of a published auction that its lots changed (before bidding opens). */
async function tellLotsChanged(
  services: MessageServices,
  tx: Transaction,
  auction: { id: number; title: string; status: string; kind: "reverse" | "sealed" },
  what: string[],
) {
  if (auction.status === "scheduled") await tellInvitedOfChanges(services, tx, auction, what);
}

/** A lot's terms and line items (`lotId`), or a new lot after the others (null). */
export async function saveLotTerms(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  lotId: number | null,
  terms: LotTerms & { lines: LineItem[] },
  now = new Date(),
): Promise<AuctionChange> {
  return services.db.transaction(async (tx) => {
    const editable = await lockEditable(tx, auctionId, actor, now);
    if ("change" in editable) return editable.change;
    const { auction } = editable;
    const lots = await tx.select().from(auctionLots).where(eq(auctionLots.auctionId, auctionId));
    const lot = lotId === null ? undefined : lots.find((row) => row.id === lotId);
    if (lotId !== null && !lot) return refused(404, NOT_FOUND);
    if (lotId === null && lots.length >= MAX_LOTS) return refused(409, TOO_MANY_LOTS);
    const id = await saveLot(tx, auction, lotId, terms);
    const position = lot?.position ?? lots.length + 1;
    await logEvent(tx, auctionId, lot ? "lot-changed" : "lot-added", actor, {
      lotId: id,
      position,
      title: terms.title,
      lines: terms.lines.length,
    });
    await tellLotsChanged(services, tx, auction, [
      `${lotName({ position, title: terms.title })}: ${lot ? "changed" : "added"} (read it on the auction's page)`,
    ]);
    await notifyAuction(tx, auctionId);
    return { kind: "done", auctionId };
  });
}

/** Removes a lot (never the last), numbering the ones after it down. */
export async function deleteLot(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  lotId: number,
  now = new Date(),
): Promise<AuctionChange> {
  return services.db.transaction(async (tx) => {
    const editable = await lockEditable(tx, auctionId, actor, now);
    if ("change" in editable) return editable.change;
    const lots = await tx.select().from(auctionLots).where(eq(auctionLots.auctionId, auctionId));
    const lot = lots.find((row) => row.id === lotId);
    if (!lot) return refused(404, NOT_FOUND);
    if (lots.length === 1) return refused(409, LAST_LOT);
    await removeLot(tx, auctionId, lot as LotRow);
    await logEvent(tx, auctionId, "lot-removed", actor, { lotId, position: lot.position, title: lot.title });
    await tellLotsChanged(services, tx, editable.auction, [`${lotName(lot)}: removed`]);
    await notifyAuction(tx, auctionId);
    return { kind: "done", auctionId };
  });
}

/** How far apart the lots close. */
export async function saveLotSettings(
  services: MessageServices,
  auctionId: number,
  actor: Actor,
  settings: { gapMinutes: number },
  now = new Date(),
): Promise<AuctionChange> {
  return services.db.transaction(async (tx) => {
    const editable = await lockEditable(tx, auctionId, actor, now, { sealedToo: false });
    if ("change" in editable) return editable.change;
    const { auction } = editable;
    await tx
      .update(auctions)
      .set({
        lotCloseGapMinutes: settings.gapMinutes,
        // The latest end follows the gap; set with it, so the row's times stay in order meanwhile.
        endsAt: sql`${auctions.scheduledEndsAt} + ((select max(position) from ${auctionLots} where auction_id = ${auctionId}) - 1) * ${settings.gapMinutes} * interval '1 minute'`,
        updatedAt: now,
      })
      .where(eq(auctions.id, auctionId));
    await rescheduleLots(tx, auctionId);
    await logEvent(tx, auctionId, "lot-settings-changed", actor, settings);
    const changed: string[] = [];
    if (settings.gapMinutes !== auction.lotCloseGapMinutes) {
      changed.push(`Minutes between lots' closings: ${auction.lotCloseGapMinutes} → ${settings.gapMinutes}`);
    }
    await tellLotsChanged(services, tx, auction, changed);
    await notifyAuction(tx, auctionId);
    return { kind: "done", auctionId };
  });
}
