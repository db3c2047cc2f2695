import { and, asc, count, eq, inArray } from "drizzle-orm";
import { blockedMessage } from "~/payments/subscriptions/standing";
import { sellerMayBid } from "~/payments/subscriptions/standing.server";
import { metricsOf } from "~/platform/metrics.server";
import type { Database } from "~db/database.server";
import {
  auctionEvents,
  auctionInvitations,
  auctionLineItems,
  auctionLots,
  auctions,
  organizations,
  sealedBidDocuments,
  sealedBidLots,
  sealedBids,
} from "~db/schema";
import { notifyAuction } from "../auction-changes.server";
import { type AuctionRow, sealedBidsReadable, statusAt } from "../auction-rules";
import { inspectDocument } from "../documents/document-content.server";
import { bidRequirements } from "../lifecycle/auction-terms.server";
import { lotTotalCents, quantityText } from "../lots/line-pricing";
import { unitPriceRefusal } from "../lots/lot-bidding";
import { lineRefusalMessage } from "../lots/lot-messages";
import { lotName } from "../lots/lot-words";
import { lineItemColumns } from "../lots/lots.server";
import { bidAsOneAmount } from "../lots/one-amount";
import type { PricedLine } from "../lots/unit-price-table";
import { priceField } from "../lots/unit-prices";
import {
  lotFieldName,
  lotOverReserveMessage,
  overReserveMessage,
  requirementField,
  SEALED_MESSAGES,
} from "./sealed-bid-messages";

// Sealed bids (issue 10): each invited seller who accepted the terms sends one bid, an amount and one
// document per requirement, and may replace it (whole or document by document) until the deadline.
// Nobody else reads a bid before the deadline, staff included: the only readers of other sellers'
// bids are `readableSealedBids` and `sealedDocumentForDownload`, and both check the deadline first.

/** One uploaded file for one requirement, as read from the form. */
export type SealedBidFile = { requirementId: number; name: string; bytes: Buffer };

export type SealedBidOutcome =
  | { kind: "saved"; bidId: number; revision: number }
  | { kind: "refused"; status: 400 | 403 | 404 | 409 | 413; message: string; field?: string };

const refused = (status: 400 | 403 | 404 | 409 | 413, message: string, field?: string): SealedBidOutcome => ({
  kind: "refused",
  status,
  message,
  field,
});

/** A lot of a sealed bid as sent: its position, and its amount or its unit prices. */
export type SealedLotBid = { position: number; amountCents?: number; unitCents?: number[] };

/** A lot of a sealed bid as kept: the lot, its amount, its unit prices when the lot is priced by lines. */
export type SealedBidLot = { lotId: number; amountCents: number; unitCents: number[] | null };

/**
 * The lots a bid names, checked against the auction's lots: each lot's unit prices within their
 * ceilings (the amount their total) or its one amount, each within the lot's reserve; at least one lot.
 * An auction of one lot keeps the fields and messages of one bid, as before lots.
 */
function priceSealedLots(
  lots: SealedLot[],
  auctionReserveCents: number,
  bid: { amountCents?: number; unitCents?: number[]; lots?: SealedLotBid[] },
): { lots: SealedBidLot[] } | { refusal: SealedBidOutcome } {
  const several = lots.length > 1;
  const sent: SealedLotBid[] | undefined = several
    ? bid.lots
    : (bid.lots ?? [{ position: 1, amountCents: bid.amountCents, unitCents: bid.unitCents }]);
  if (!sent || sent.length === 0) return { refusal: refused(400, SEALED_MESSAGES.noLot, several ? "lots" : "amount") };
  const priced: SealedBidLot[] = [];
  for (const item of sent) {
    const lot = lots.find((row) => row.position === item.position);
    if (!lot) return { refusal: refused(400, SEALED_MESSAGES.noSuchLot) };
    if (priced.some((row) => row.lotId === lot.id)) return { refusal: refused(400, SEALED_MESSAGES.noSuchLot) };
    const field = (name: string) => (several ? lotFieldName(lot.position, name) : name);
    let amountCents: number;
    let unitCents: number[] | null = null;
    if (!lot.oneAmount) {
      if (!item.unitCents) {
        return { refusal: refused(400, SEALED_MESSAGES.pricesMissing(lot.lines.length), field("prices")) };
      }
      const refusal = unitPriceRefusal(lot.lines, item.unitCents);
      if (refusal) {
        const at = "line" in refusal ? priceField(refusal.line) : "prices";
        const message = lineRefusalMessage(refusal);
        return { refusal: refused(400, several ? `${lot.name}: ${message}` : message, field(at)) };
      }
      unitCents = item.unitCents;
      amountCents = lotTotalCents(lot.lines, unitCents);
    } else if (item.unitCents || item.amountCents === undefined) {
      return { refusal: refused(400, SEALED_MESSAGES.amountMissing, field("amount")) };
    } else {
      amountCents = item.amountCents;
    }
    const amountField = field(lot.oneAmount ? "amount" : "prices");
    if (!Number.isSafeInteger(amountCents) || amountCents < 1) {
      return { refusal: refused(400, SEALED_MESSAGES.amountFormat, amountField) };
    }
    // One lot: its reserve is the auction's, named as it always was.
    const reserve = several ? lot.reserveCents : auctionReserveCents;
    if (amountCents > reserve) {
      const message = several ? lotOverReserveMessage(lot.name, reserve) : overReserveMessage(reserve);
      return { refusal: refused(400, message, amountField) };
    }
    priced.push({ lotId: lot.id, amountCents, unitCents });
  }
  return { lots: priced.sort((a, b) => a.lotId - b.lotId) };
}

/**
 * Sends or replaces the seller's sealed bid. Files are checked before anything is written; the bid,
 * its documents and the event are one transaction under the auction's row lock (so a cancellation or
 * the deadline cannot interleave). A first bid needs every required document; a replacement keeps
 * the documents not sent again.
 */
export async function submitSealedBid(
  ...args: Parameters<typeof submitSealedBidCounted>
): Promise<Awaited<ReturnType<typeof submitSealedBidCounted>>> {
  const [db] = args;
  const outcome = await submitSealedBidCounted(...args).catch((error: unknown) => {
    metricsOf(db)?.countBid("sealed", "seller", undefined);
    throw error;
  });
  metricsOf(db)?.countBid("sealed", "seller", outcome.kind === "saved" ? { kind: "accepted" } : outcome);
  return outcome;
}

/** What `submitSealedBid` does; it counts each answer in the metrics. */
async function submitSealedBidCounted(
  db: Database,
  bid: {
    auctionId: number;
    organizationId: number;
    userId: number;
    /** An auction of one lot: one amount; for a lot priced by lines, the lot's total of `unitCents` (checked again here). */
    amountCents?: number;
    /** An auction of one lot priced by lines (issue 31): the unit price of each line, in the lines' order. */
    unitCents?: number[];
    /**
     * An auction of several lots (issue 31): the lots bid on, by position (1 the first), each with its
     * amount (a lot bid on as one amount) or its unit prices (a lot priced by lines). At least one.
     */
    lots?: SealedLotBid[];
    files: SealedBidFile[];
  },
  now = new Date(),
): Promise<SealedBidOutcome> {
  const checked: { requirementId: number; fileName: string; contentType: string; sizeBytes: number; bytes: Buffer }[] =
    [];
  for (const file of bid.files) {
    const inspected = inspectDocument(file.name, file.bytes);
    if (!inspected.ok) return refused(inspected.status, inspected.message, requirementField(file.requirementId));
    checked.push({ requirementId: file.requirementId, ...inspected, bytes: file.bytes });
  }
  return db.transaction(async (tx): Promise<SealedBidOutcome> => {
    const [auction] = await tx.select().from(auctions).where(eq(auctions.id, bid.auctionId)).for("update");
    if (auction?.kind !== "sealed" || auction.status === "draft") {
      return refused(404, "This auction does not exist.");
    }
    const [invitation] = await tx
      .select({ termsAcceptedAt: auctionInvitations.termsAcceptedAt })
      .from(auctionInvitations)
      .where(
        and(eq(auctionInvitations.auctionId, auction.id), eq(auctionInvitations.organizationId, bid.organizationId)),
      );
    if (!invitation) return refused(404, "This auction does not exist.");
    if (statusAt(auction, now) !== "open") return refused(409, SEALED_MESSAGES.notOpen);
    if (!invitation.termsAcceptedAt) return refused(409, SEALED_MESSAGES.termsFirst);
    const standing = await sellerMayBid(tx, bid.organizationId, now);
    if (!standing.mayBid) return refused(403, blockedMessage(standing.reason, "bid"));
    // The price schedule (issue 31): a lot priced by lines takes a unit price per line, each within its
    // ceiling, and the lot's amount is their total; a lot of one amount takes the amount alone. An
    // auction of several lots takes the lots the seller bids on, at least one, each within its reserve.
    const lots = await sealedLots(tx, auction.id);
    const priced = priceSealedLots(lots, auction.reserveCents, bid);
    if ("refusal" in priced) return priced.refusal;
    const amountCents = priced.lots.reduce((sum, lot) => sum + lot.amountCents, 0);

    const requirements = await bidRequirements(tx, auction.id);
    const known = new Set(requirements.map((requirement) => requirement.id));
    if (checked.some((file) => !known.has(file.requirementId))) {
      return refused(400, "Please attach files only for the documents listed.");
    }
    const [existing] = await tx
      .select({ id: sealedBids.id, revision: sealedBids.revision })
      .from(sealedBids)
      .where(and(eq(sealedBids.auctionId, auction.id), eq(sealedBids.organizationId, bid.organizationId)));
    const held = new Set(
      existing
        ? (
            await tx
              .select({ requirementId: sealedBidDocuments.requirementId })
              .from(sealedBidDocuments)
              .where(eq(sealedBidDocuments.sealedBidId, existing.id))
          ).map((row) => row.requirementId)
        : [],
    );
    const sent = new Set(checked.map((file) => file.requirementId));
    const missing = requirements.find((requirement) => !held.has(requirement.id) && !sent.has(requirement.id));
    if (missing) return refused(400, SEALED_MESSAGES.documentMissing(missing.name), requirementField(missing.id));

    let bidId: number;
    let revision: number;
    if (existing) {
      revision = existing.revision + 1;
      bidId = existing.id;
      await tx
        .update(sealedBids)
        .set({ amountCents, submittedByUserId: bid.userId, revision, updatedAt: now })
        .where(eq(sealedBids.id, existing.id));
      // The bid is replaced as sent: a lot left out of a replacement is withdrawn from it.
      await tx.delete(sealedBidLots).where(eq(sealedBidLots.sealedBidId, existing.id));
    } else {
      revision = 1;
      const [row] = await tx
        .insert(sealedBids)
        .values({
          auctionId: auction.id,
          organizationId: bid.organizationId,
          amountCents,
          submittedByUserId: bid.userId,
          revision,
          submittedAt: now,
          updatedAt: now,
        })
        .returning({ id: sealedBids.id });
      if (!row) throw new Error("no sealed bid row");
      bidId = row.id;
    }
    await tx.insert(sealedBidLots).values(
      priced.lots.map((lot) => ({
        sealedBidId: bidId,
        lotId: lot.lotId,
        amountCents: lot.amountCents,
        unitCents: lot.unitCents,
      })),
    );
    if (checked.length > 0) {
      await tx
        .delete(sealedBidDocuments)
        .where(and(eq(sealedBidDocuments.sealedBidId, bidId), inArray(sealedBidDocuments.requirementId, [...sent])));
      await tx.insert(sealedBidDocuments).values(
        checked.map((file) => ({
          sealedBidId: bidId,
          requirementId: file.requirementId,
          fileName: file.fileName,
          contentType: file.contentType,
          sizeBytes: file.sizeBytes,
          content: file.bytes,
          uploadedAt: now,
        })),
      );
    }
    // The log names the seller and the revision, never the amount: staff read the log.
    await tx.insert(auctionEvents).values({
      auctionId: auction.id,
      kind: existing ? "sealed-bid-replaced" : "sealed-bid-submitted",
      userId: bid.userId,
      organizationId: bid.organizationId,
      data: { revision },
    });
    await notifyAuction(tx, auction.id);
    return { kind: "saved", bidId, revision };
  });
}

const documentColumns = {
  id: sealedBidDocuments.id,
  sealedBidId: sealedBidDocuments.sealedBidId,
  requirementId: sealedBidDocuments.requirementId,
  fileName: sealedBidDocuments.fileName,
  contentType: sealedBidDocuments.contentType,
  sizeBytes: sealedBidDocuments.sizeBytes,
  uploadedAt: sealedBidDocuments.uploadedAt,
};

type DocumentRow = { id: number; requirementId: number; fileName: string; sizeBytes: number; uploadedAt: Date };
const documentView = (row: DocumentRow) => ({
  id: row.id,
  requirementId: row.requirementId,
  fileName: row.fileName,
  sizeBytes: row.sizeBytes,
  uploadedAt: row.uploadedAt.toISOString(),
});

/** The documents of these sealed bids (their metadata, not their bytes), in requirement order. */
function documentsOfBids(db: Database, bidIds: number[]) {
  if (bidIds.length === 0) return Promise.resolve([]);
  return db
    .select(documentColumns)
    .from(sealedBidDocuments)
    .where(inArray(sealedBidDocuments.sealedBidId, bidIds))
    .orderBy(asc(sealedBidDocuments.requirementId));
}

/** Each of these sellers' own sealed bid (theirs to read at any time); absent when they have none. */
export async function ownSealedBids(db: Database, auctionId: number, organizationIds: number[]) {
  const own = new Map<number, OwnSealedBid>();
  if (organizationIds.length === 0) return own;
  const bids = await db
    .select()
    .from(sealedBids)
    .where(and(eq(sealedBids.auctionId, auctionId), inArray(sealedBids.organizationId, organizationIds)));
  if (bids.length === 0) return own;
  const ids = bids.map((bid) => bid.id);
  const [documents, lots] = await Promise.all([documentsOfBids(db, ids), lotsOfBids(db, ids)]);
  for (const bid of bids) {
    const bidLots = lots.get(bid.id) ?? [];
    own.set(bid.organizationId, {
      amountCents: bid.amountCents,
      unitCents: onlyUnitCents(bidLots),
      lots: bidLots,
      revision: bid.revision,
      submittedAt: bid.submittedAt.toISOString(),
      updatedAt: bid.updatedAt.toISOString(),
      // Without their ids (counted across every seller's documents): the seller downloads by requirement.
      documents: documents
        .filter((document) => document.sealedBidId === bid.id)
        .map((document) => {
          const { id: _id, ...shown } = documentView(document);
          return shown;
        }),
    });
  }
  return own;
}

/** A seller's own sealed bid as they see it: no bid or document id (see `ownSealedDocumentForDownload`). */
export type OwnSealedBid = {
  amountCents: number;
  /** The unit price of each line when the bid names one lot priced by lines (issue 31); else null. */
  unitCents: number[] | null;
  /** The lots the bid names (issue 31): each one's amount and unit prices. */
  lots: SealedBidLot[];
  revision: number;
  submittedAt: string;
  updatedAt: string;
  documents: Omit<ReturnType<typeof documentView>, "id">[];
};

/** A lot of a sealed auction (issue 31) with its lines; `oneAmount`: bid on as one amount, no unit prices. */
export type SealedLot = {
  id: number;
  position: number;
  name: string;
  reserveCents: number;
  oneAmount: boolean;
  lines: PricedLine[];
};

/** A sealed auction's lots in order, each with its lines (its price schedule) in order. */
export async function sealedLots(db: Pick<Database, "select">, auctionId: number): Promise<SealedLot[]> {
  const [lots, rows] = await Promise.all([
    db
      .select({
        id: auctionLots.id,
        position: auctionLots.position,
        title: auctionLots.title,
        reserveCents: auctionLots.reserveCents,
      })
      .from(auctionLots)
      .where(eq(auctionLots.auctionId, auctionId))
      .orderBy(asc(auctionLots.position)),
    db
      .select({ lotId: auctionLineItems.lotId, ...lineItemColumns })
      .from(auctionLineItems)
      .innerJoin(auctionLots, eq(auctionLots.id, auctionLineItems.lotId))
      .where(eq(auctionLots.auctionId, auctionId))
      .orderBy(asc(auctionLots.position), asc(auctionLineItems.position)),
  ]);
  return lots.map((lot) => {
    const lines = rows
      .filter((row) => row.lotId === lot.id)
      .map(({ lotId: _lotId, ...row }) => ({ ...row, quantityText: quantityText(row.quantity) }));
    return {
      id: lot.id,
      position: lot.position,
      name: lotName(lot),
      reserveCents: lot.reserveCents,
      oneAmount: bidAsOneAmount(lines),
      lines,
    };
  });
}

/**
 * The lines of a sealed auction of one lot when it is priced by lines (its price schedule, issue 31),
 * in order; null for a lot bid on as one amount (every sealed auction before lots) and for an auction
 * of several lots (each lot's lines are in `sealedLots`).
 */
export async function sealedLines(db: Pick<Database, "select">, auctionId: number): Promise<PricedLine[] | null> {
  const lots = await sealedLots(db, auctionId);
  const [only] = lots;
  if (lots.length !== 1 || !only || only.oneAmount) return null;
  return only.lines;
}

/** The lots of these sealed bids, by bid. */
async function lotsOfBids(db: Pick<Database, "select">, bidIds: number[]): Promise<Map<number, SealedBidLot[]>> {
  const byBid = new Map<number, SealedBidLot[]>();
  if (bidIds.length === 0) return byBid;
  const rows = await db
    .select()
    .from(sealedBidLots)
    .where(inArray(sealedBidLots.sealedBidId, bidIds))
    .orderBy(asc(sealedBidLots.lotId));
  for (const { sealedBidId, ...lot } of rows) byBid.set(sealedBidId, [...(byBid.get(sealedBidId) ?? []), lot]);
  return byBid;
}

/** A bid's unit prices when it names one lot (an auction of one lot priced by lines); else null. */
const onlyUnitCents = (lots: readonly SealedBidLot[]) => (lots.length === 1 ? (lots[0]?.unitCents ?? null) : null);

/** How many sellers have sent a sealed bid: all the auction's side learns before the deadline. */
export async function sealedBidCount(db: Database, auctionId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(sealedBids).where(eq(sealedBids.auctionId, auctionId));
  return row?.total ?? 0;
}

/**
 * Every sealed bid with its seller and documents, lowest first; null before the deadline (or for a
 * reverse auction), whoever asks.
 */
export async function readableSealedBids(db: Database, auction: AuctionRow, now = new Date()) {
  if (!sealedBidsReadable(auction, now)) return null;
  const bids = await db
    .select({
      id: sealedBids.id,
      organizationId: sealedBids.organizationId,
      organizationName: organizations.name,
      amountCents: sealedBids.amountCents,
      revision: sealedBids.revision,
      submittedAt: sealedBids.submittedAt,
      updatedAt: sealedBids.updatedAt,
    })
    .from(sealedBids)
    .innerJoin(organizations, eq(organizations.id, sealedBids.organizationId))
    .where(eq(sealedBids.auctionId, auction.id))
    .orderBy(asc(sealedBids.amountCents), asc(sealedBids.updatedAt), asc(sealedBids.id));
  const ids = bids.map((bid) => bid.id);
  const [documents, lots] = await Promise.all([documentsOfBids(db, ids), lotsOfBids(db, ids)]);
  return bids.map((bid) => ({
    ...bid,
    unitCents: onlyUnitCents(lots.get(bid.id) ?? []),
    lots: lots.get(bid.id) ?? [],
    submittedAt: bid.submittedAt.toISOString(),
    updatedAt: bid.updatedAt.toISOString(),
    documents: documents.filter((document) => document.sealedBidId === bid.id).map(documentView),
  }));
}

export type ReadableSealedBid = NonNullable<Awaited<ReturnType<typeof readableSealedBids>>>[number];

/** The sealed bids that name a lot (issue 31), each with its row for that lot: its amount and unit prices there. */
export function bidsOnLot(bids: readonly ReadableSealedBid[], lotId: number) {
  return bids.flatMap((bid) => {
    const own = bid.lots.find((row) => row.lotId === lotId);
    return own ? [{ bid, own }] : [];
  });
}

/**
 * Each lot's bids side by side (issue 31): per lot, the sellers who bid on it, lowest amount first
 * (equal amounts: the earlier sent). Null for an auction of one lot bid on as one amount (nothing to
 * compare line by line) or with no bid.
 */
export function schedulesOf(lots: readonly SealedLot[], bids: readonly ReadableSealedBid[]) {
  if (bids.length === 0) return null;
  if (lots.length === 1 && lots[0]?.oneAmount) return null;
  return {
    several: lots.length > 1,
    lots: lots.map((lot) => ({
      id: lot.id,
      name: lot.name,
      lines: lot.lines,
      bids: bidsOnLot(bids, lot.id)
        .map(({ bid, own }) => ({
          id: bid.id,
          organizationId: bid.organizationId,
          organizationName: bid.organizationName,
          amountCents: own.amountCents,
          unitCents: own.unitCents ?? [own.amountCents],
          updatedAt: bid.updatedAt,
        }))
        .sort((a, b) => a.amountCents - b.amountCents || a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id),
    })),
  };
}

export type SealedSchedules = NonNullable<ReturnType<typeof schedulesOf>>;

/**
 * The price schedules of a sealed auction priced by lines or of several lots (issue 31): per lot its
 * lines and each bid's unit prices, lowest first; null before the deadline (whoever asks), for one
 * amount or with no bid.
 */
export async function sealedSchedules(db: Database, auction: AuctionRow, now = new Date()) {
  const bids = await readableSealedBids(db, auction, now);
  if (!bids || bids.length === 0) return null;
  return schedulesOf(await sealedLots(db, auction.id), bids);
}

/**
 * The seller's own document for one requirement of their sealed bid, with its bytes. Sellers address
 * their documents by requirement, never by the bid's or document's id: those ids are counted across
 * every seller's bids, and their gaps would tell how many the others sent (issue 17).
 */
export async function ownSealedDocumentForDownload(
  db: Database,
  auction: AuctionRow,
  organizationId: number,
  requirementId: number,
) {
  if (auction.kind !== "sealed") return undefined;
  const [row] = await db
    .select({
      fileName: sealedBidDocuments.fileName,
      contentType: sealedBidDocuments.contentType,
      content: sealedBidDocuments.content,
    })
    .from(sealedBidDocuments)
    .innerJoin(sealedBids, eq(sealedBids.id, sealedBidDocuments.sealedBidId))
    .where(
      and(
        eq(sealedBids.auctionId, auction.id),
        eq(sealedBids.organizationId, organizationId),
        eq(sealedBidDocuments.requirementId, requirementId),
      ),
    );
  return row;
}

/**
 * A sealed bid's document with its bytes: for the seller who sent it at any time; for the auction's
 * side, its evaluator and staff only after the deadline; for nobody else ever.
 */
export async function sealedDocumentForDownload(
  db: Database,
  auction: AuctionRow,
  reader: { kind: "seller"; organizationId: number } | { kind: "full" },
  bidId: number,
  documentId: number,
  now = new Date(),
) {
  if (auction.kind !== "sealed") return undefined;
  if (reader.kind === "full" && !sealedBidsReadable(auction, now)) return undefined;
  const [row] = await db
    .select({
      fileName: sealedBidDocuments.fileName,
      contentType: sealedBidDocuments.contentType,
      content: sealedBidDocuments.content,
      organizationId: sealedBids.organizationId,
    })
    .from(sealedBidDocuments)
    .innerJoin(sealedBids, eq(sealedBids.id, sealedBidDocuments.sealedBidId))
    .where(
      and(
        eq(sealedBidDocuments.id, documentId),
        eq(sealedBidDocuments.sealedBidId, bidId),
        eq(sealedBids.auctionId, auction.id),
      ),
    );
  if (!row) return undefined;
  if (reader.kind === "seller" && row.organizationId !== reader.organizationId) return undefined;
  return row;
}
