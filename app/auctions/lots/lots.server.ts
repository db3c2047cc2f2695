import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { auctionLineItems, auctionLots, auctions } from "~db/schema";
import type { LineItem } from "./line-items";
import { QUANTITY_SCALE } from "./line-pricing";
import { bidAsOneAmount, shownAsLots } from "./one-amount";

// An auction's lots (issue 31, decision 027): what is bid on and awarded. The auction's row keeps
// what is true of all of them together (the sum of the reserves, the latest end, the bids and
// extensions in all), written with the lots in the same transaction.

export type LotRow = typeof auctionLots.$inferSelect;

/** A line item's columns as the pages and rules read them: the quantity in thousandths of a unit. */
export const lineItemColumns = {
  position: auctionLineItems.position,
  description: auctionLineItems.description,
  unit: auctionLineItems.unit,
  quantity: auctionLineItems.quantityThousandths,
  ceilingCents: auctionLineItems.ceilingCents,
};

/** A lot as the buyer sets it; no lines: one line of quantity 1 (an auction priced as one amount). */
export type LotTerms = {
  title: string;
  reserveCents: number;
  decrementKind: "amount" | "percent";
  decrementValue: number;
  lines?: LineItem[];
};

/** An auction's lots in order. */
export function lotsOf(db: Pick<Database, "select">, auctionId: number): Promise<LotRow[]> {
  return db.select().from(auctionLots).where(eq(auctionLots.auctionId, auctionId)).orderBy(asc(auctionLots.position));
}

/** The lots of several auctions, in order, by auction. */
export async function lotsByAuction(db: Pick<Database, "select">, auctionIds: number[]) {
  const byAuction = new Map<number, LotRow[]>();
  if (auctionIds.length === 0) return byAuction;
  const rows = await db
    .select()
    .from(auctionLots)
    .where(inArray(auctionLots.auctionId, auctionIds))
    .orderBy(asc(auctionLots.auctionId), asc(auctionLots.position));
  for (const row of rows) byAuction.set(row.auctionId, [...(byAuction.get(row.auctionId) ?? []), row]);
  return byAuction;
}

/** The first lot: an auction of one lot's whole bidding. Every auction has one. */
export async function firstLotOf(db: Pick<Database, "select">, auctionId: number): Promise<LotRow> {
  const [lot] = await db
    .select()
    .from(auctionLots)
    .where(eq(auctionLots.auctionId, auctionId))
    .orderBy(asc(auctionLots.position))
    .limit(1);
  if (!lot) throw new Error(`auction ${auctionId} has no lot`);
  return lot;
}

/** A lot's lines as rows of `auction_line_items`; none given: one line of quantity 1 (priced as one amount). */
function lineRows(lotId: number, lot: LotTerms, auctionTitle: string) {
  const sheet: LineItem[] = lot.lines?.length
    ? lot.lines
    : [{ description: lot.title || auctionTitle, unit: "lot", quantity: QUANTITY_SCALE, ceilingCents: null }];
  return sheet.map((line, index) => ({
    lotId,
    position: index + 1,
    description: line.description,
    unit: line.unit,
    quantityThousandths: line.quantity,
    ceilingCents: line.ceilingCents,
  }));
}

const lotColumns = (lot: LotTerms) => ({
  title: lot.title,
  reserveCents: lot.reserveCents,
  decrementKind: lot.decrementKind,
  decrementValue: lot.decrementValue,
});

/**
 * Sets an auction's lots (replacing any: only while nothing can have been bid) with their lines,
 * then their ends and the auction's sums (`rescheduleLots`).
 */
export async function saveLots(
  tx: Transaction | Database,
  auction: { id: number; title: string; scheduledEndsAt: Date },
  lots: LotTerms[],
) {
  if (lots.length === 0) throw new Error("an auction has at least one lot");
  await tx.delete(auctionLots).where(eq(auctionLots.auctionId, auction.id));
  const written = await tx
    .insert(auctionLots)
    .values(
      lots.map((lot, index) => ({
        auctionId: auction.id,
        position: index + 1,
        ...lotColumns(lot),
        // Placed by rescheduleLots below.
        scheduledEndsAt: auction.scheduledEndsAt,
        endsAt: auction.scheduledEndsAt,
      })),
    )
    .returning({ id: auctionLots.id, position: auctionLots.position });
  await tx
    .insert(auctionLineItems)
    .values(written.flatMap(({ id, position }) => lineRows(id, lots[position - 1] as LotTerms, auction.title)));
  await rescheduleLots(tx, auction.id);
}

/**
 * A lot's terms and lines (`lotId`), or a new lot after the others (null), then the ends and sums.
 * Only while nothing can have been bid. Answers the lot's id.
 */
export async function saveLot(
  tx: Transaction,
  auction: { id: number; title: string; scheduledEndsAt: Date },
  lotId: number | null,
  lot: LotTerms,
): Promise<number> {
  let id = lotId;
  if (id === null) {
    const [count] = await tx
      .select({ lots: sql<number>`count(*)::int` })
      .from(auctionLots)
      .where(eq(auctionLots.auctionId, auction.id));
    const [added] = await tx
      .insert(auctionLots)
      .values({
        auctionId: auction.id,
        position: (count?.lots ?? 0) + 1,
        ...lotColumns(lot),
        scheduledEndsAt: auction.scheduledEndsAt,
        endsAt: auction.scheduledEndsAt,
      })
      .returning({ id: auctionLots.id });
    id = added?.id ?? null;
    if (id === null) throw new Error("no lot row");
  } else {
    await tx.update(auctionLots).set(lotColumns(lot)).where(eq(auctionLots.id, id));
    await tx.delete(auctionLineItems).where(eq(auctionLineItems.lotId, id));
  }
  await tx.insert(auctionLineItems).values(lineRows(id, lot, auction.title));
  await rescheduleLots(tx, auction.id);
  return id;
}

/** Removes a lot (never the last one) and numbers the ones after it down; then the ends and sums. */
export async function removeLot(tx: Transaction, auctionId: number, lot: LotRow) {
  await tx.delete(auctionLots).where(eq(auctionLots.id, lot.id));
  // One at a time, from the first after it: each moves into the number just freed (the unique index
  // is checked row by row, so one statement moving them all could meet a number not yet freed).
  const after = await tx
    .select({ id: auctionLots.id, position: auctionLots.position })
    .from(auctionLots)
    .where(and(eq(auctionLots.auctionId, auctionId), gt(auctionLots.position, lot.position)))
    .orderBy(asc(auctionLots.position));
  for (const row of after) {
    await tx
      .update(auctionLots)
      .set({ position: row.position - 1 })
      .where(eq(auctionLots.id, row.id));
  }
  await rescheduleLots(tx, auctionId);
}

/**
 * Each lot's end from the auction's scheduled end and the gap between closings (lot n closes
 * (n − 1) × the gap after the first), and the auction's sum of reserves and latest end to match.
 * Only before bidding: afterwards each lot's end moves by its own soft close.
 */
export async function rescheduleLots(db: Transaction | Database, auctionId: number) {
  const end = sql`${auctions.scheduledEndsAt} + (${auctionLots.position} - 1) * ${auctions.lotCloseGapMinutes} * interval '1 minute'`;
  await db.execute(sql`
    update ${auctionLots} set scheduled_ends_at = ${end}, ends_at = ${end}
    from ${auctions} where ${auctions.id} = ${auctionLots.auctionId} and ${auctions.id} = ${auctionId}`);
  await db.execute(sql`
    update ${auctions} set
      reserve_cents = (select sum(reserve_cents) from ${auctionLots} where auction_id = ${auctionId}),
      ends_at = (select max(ends_at) from ${auctionLots} where auction_id = ${auctionId})
    where id = ${auctionId}`);
}

/**
 * Moves an auction's times, its lots' with it (each keeps its place after the first): the start, and
 * the scheduled end as the current end (only where nothing has moved them since: before bidding, or
 * to stand in for time passing in a test).
 */
export async function moveAuctionTimes(
  db: Transaction | Database,
  auctionId: number,
  times: { startsAt?: Date; endsAt?: Date },
) {
  const lastLot = sql`(select max(position) from ${auctionLots} where auction_id = ${auctionId})`;
  await db
    .update(auctions)
    .set({
      ...(times.startsAt ? { startsAt: times.startsAt } : {}),
      ...(times.endsAt
        ? {
            scheduledEndsAt: times.endsAt,
            endsAt: sql`${times.endsAt.toISOString()}::timestamptz + (${lastLot} - 1) * ${auctions.lotCloseGapMinutes} * interval '1 minute'`,
          }
        : {}),
    })
    .where(eq(auctions.id, auctionId));
  if (times.endsAt) await rescheduleLots(db, auctionId);
}

/** Whether the auction is priced by lots (`shownAsLots`), from its lots as the buyer set them. */
export const pricedByLots = (lots: readonly LotTerms[]): boolean =>
  shownAsLots(lots.map((lot) => ({ title: lot.title, oneAmount: bidAsOneAmount(lot.lines ?? []) })));

/** An auction's lots with their lines, in order, for the buyer's pages. */
export async function lotsWithLines(db: Pick<Database, "select">, auctionId: number) {
  const lots = await db
    .select()
    .from(auctionLots)
    .where(eq(auctionLots.auctionId, auctionId))
    .orderBy(asc(auctionLots.position));
  const lines = lots.length
    ? await db
        .select()
        .from(auctionLineItems)
        .where(
          inArray(
            auctionLineItems.lotId,
            lots.map((lot) => lot.id),
          ),
        )
        .orderBy(asc(auctionLineItems.lotId), asc(auctionLineItems.position))
    : [];
  return lots.map((lot) => ({ ...lot, lines: lines.filter((line) => line.lotId === lot.id) }));
}

/** An auction's lots as the buyer set them, with their lines (to copy them, or to edit them). */
export async function lotTermsOf(db: Pick<Database, "select">, auctionId: number): Promise<LotTerms[]> {
  return (await lotsWithLines(db, auctionId)).map((lot) => ({
    title: lot.title,
    reserveCents: lot.reserveCents,
    decrementKind: lot.decrementKind,
    decrementValue: lot.decrementValue,
    lines: lot.lines.map((line) => ({
      description: line.description,
      unit: line.unit,
      quantity: line.quantityThousandths,
      ceilingCents: line.ceilingCents,
    })),
  }));
}
