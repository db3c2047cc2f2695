import { and, asc, count, desc, eq, inArray, lte, ne, or, sql } from "drizzle-orm";
import type { CurrentUser } from "~/sessions/current-user";
import { Role } from "~/shared/roles";
import { type Database, inSnapshot } from "~db/database.server";
import {
  type AuctionStatus,
  auctionAutoBids,
  auctionBids,
  auctionDocuments,
  auctionInvitations,
  auctionLineItems,
  auctionLots,
  auctions,
  organizations,
  provinces,
  serviceAreas,
  services,
} from "~db/schema";
import { type AuctionRow, decrementOf, lotStatusAt, statusAt } from "./auction-rules";
import { highestAllowedBid, highestOwnBid } from "./bidding/bidding";
import { bidRequirements } from "./lifecycle/auction-terms.server";
import { QUANTITY_SCALE } from "./lots/line-pricing";
import type { StandingBid } from "./lots/lot-award";
import { lotStandings, rankOn } from "./lots/lot-standings.server";
import { lotName } from "./lots/lot-words";
import type { LotRow } from "./lots/lots.server";
import { shownAsLots } from "./lots/one-amount";
import { enteredBySql } from "./on-behalf/entered-by.server";
import { fullPriceChart, sellerPriceCharts } from "./price-chart/price-chart.server";
import type { PriceChartData } from "./price-chart/price-chart-geometry";
import {
  type OwnSealedBid,
  ownSealedBids,
  readableSealedBids,
  schedulesOf,
  sealedBidCount,
  sealedLots,
} from "./sealed/sealed-bids.server";

// What each party may see of an auction (issue 9). The side that runs it (the buyer or consultant
// organization) and staff see everything; an invited seller sees only the current lowest price,
// whether they lead, their own bids and their own minimum; never another seller's name, bids,
// minimum or how many there are. Every page, download and event stream is built from these views.

export type Viewer =
  | { kind: "owner"; organizationId: number }
  | { kind: "staff" }
  /** The consultant organization named to evaluate the bids technically (issue 10): reads, never runs it. */
  | { kind: "evaluator"; organizationId: number }
  | { kind: "seller"; organizationId: number };

/** Everyone who reads the full auction: its side, its evaluator, staff. */
export type FullViewer = Exclude<Viewer["kind"], "seller">;

/** Whether the organization is invited to the auction. */
export async function isInvited(db: Database, auctionId: number, organizationId: number): Promise<boolean> {
  const [invitation] = await db
    .select({ organizationId: auctionInvitations.organizationId })
    .from(auctionInvitations)
    .where(and(eq(auctionInvitations.auctionId, auctionId), eq(auctionInvitations.organizationId, organizationId)));
  return Boolean(invitation);
}

/**
 * Who the user is to this auction, or null when they may not see it at all (answered as 404).
 * `invited`: whether the user's organization is invited, when already read.
 */
export async function viewerOf(
  db: Database,
  auction: AuctionRow,
  user: CurrentUser,
  invited?: boolean,
): Promise<Viewer | null> {
  // A practice auction (issue 21) is its seller's alone: staff and its placeholder buyer see nothing.
  if (auction.practice) {
    if (user.role !== Role.Seller || !user.organizationId) return null;
    const practising = invited ?? (await isInvited(db, auction.id, user.organizationId));
    return practising ? { kind: "seller", organizationId: user.organizationId } : null;
  }
  if (user.role === Role.Staff) return { kind: "staff" };
  if (!user.organizationId) return null;
  if (user.organizationId === auction.organizationId) return { kind: "owner", organizationId: user.organizationId };
  if (user.role === Role.Consultant && user.organizationId === auction.evaluatorOrganizationId) {
    return { kind: "evaluator", organizationId: user.organizationId };
  }
  if (user.role !== Role.Seller || auction.status === "draft") return null;
  const seller = invited ?? (await isInvited(db, auction.id, user.organizationId));
  return seller ? { kind: "seller", organizationId: user.organizationId } : null;
}

/** A lot with how many lines it has, and whether it is bid on as one amount (one line of quantity 1, no ceiling). */
export type LotWithLines = LotRow & { lineCount: number; oneAmount: boolean };

/** An auction with its lots in order (issue 31): every auction has at least one. */
export type AuctionWithLots = AuctionRow & {
  lots: LotWithLines[];
  /**
   * A reverse auction of several lots, a named lot or one bid on line by line: the pages show lots and
   * lines. Never a sealed auction (its one lot's lines are its price schedule).
   */
  pricedByLots: boolean;
};

/** The auction and its lots, in one read. */
export async function findAuction(db: Database, auctionId: number): Promise<AuctionWithLots | undefined> {
  const rows = await db
    .select({
      auction: auctions,
      lot: auctionLots,
      lineCount: sql<number>`(select count(*) from ${auctionLineItems} where lot_id = ${auctionLots.id})`.mapWith(
        Number,
      ),
      // The rule of `bidAsOneAmount` (lots/one-amount.ts), on the lot's rows.
      oneAmount: sql<boolean>`(select count(*) <= 1 and coalesce(bool_and(quantity_thousandths = ${QUANTITY_SCALE}
        and ceiling_cents is null), true) from ${auctionLineItems} where lot_id = ${auctionLots.id})`,
    })
    .from(auctions)
    .innerJoin(auctionLots, eq(auctionLots.auctionId, auctions.id))
    .where(eq(auctions.id, auctionId))
    .orderBy(asc(auctionLots.position));
  const [first] = rows;
  if (!first) return undefined;
  const lots = rows.map((row) => ({ ...row.lot, lineCount: row.lineCount, oneAmount: row.oneAmount === true }));
  // A sealed auction's one lot may have lines (its price schedule), but it is sealed, evaluated and
  // awarded as one amount, its total: its pages are the sealed ones, never the lotted ones.
  return { ...first.auction, lots, pricedByLots: first.auction.kind === "reverse" && shownAsLots(lots) };
}

/** The lot an auction of one lot is bid on: its first (the pages of several lots show each). */
export const firstLot = (auction: AuctionWithLots) => auction.lots[0] as LotRow;

/** The terms every party sees (no bids): title, description, category, area, money rules, times. */
async function auctionTerms(db: Database, auction: AuctionWithLots) {
  const [[names], documents, requirements] = await Promise.all([
    // The category's and the area's names in one read (one row each, joined).
    db
      .select({ service: services.name, city: serviceAreas.city, province: provinces.name })
      .from(services)
      .innerJoin(serviceAreas, eq(serviceAreas.id, auction.serviceAreaId))
      .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
      .where(eq(services.id, auction.serviceId)),
    db
      .select({
        id: auctionDocuments.id,
        fileName: auctionDocuments.fileName,
        contentType: auctionDocuments.contentType,
        sizeBytes: auctionDocuments.sizeBytes,
      })
      .from(auctionDocuments)
      .where(eq(auctionDocuments.auctionId, auction.id))
      .orderBy(asc(auctionDocuments.id)),
    auction.kind === "sealed" ? bidRequirements(db, auction.id) : [],
  ]);
  return {
    id: auction.id,
    kind: auction.kind,
    /** A practice auction (issue 21): its bids bind nobody. */
    practice: auction.practice,
    requirements,
    priceWeightPercent: auction.priceWeightPercent,
    technicalPassMark: auction.technicalPassMark,
    evaluatorOrganizationId: auction.evaluatorOrganizationId,
    title: auction.title,
    description: auction.description,
    serviceId: auction.serviceId,
    serviceName: names?.service ?? "",
    serviceAreaId: auction.serviceAreaId,
    serviceAreaName: names ? `${names.city} (${names.province})` : "",
    reserveCents: auction.reserveCents,
    decrement: decrementOf(firstLot(auction)),
    startsAt: auction.startsAt.toISOString(),
    endsAt: auction.endsAt.toISOString(),
    scheduledEndsAt: auction.scheduledEndsAt.toISOString(),
    softCloseWindowMinutes: auction.softCloseWindowMinutes,
    softCloseExtensionMinutes: auction.softCloseExtensionMinutes,
    softCloseCapMinutes: auction.softCloseCapMinutes,
    extensions: auction.extensions,
    lotCloseGapMinutes: auction.lotCloseGapMinutes,
    sellerView: auction.sellerView,
    pricedByLots: auction.pricedByLots,
    documents,
  };
}

/** The moment the view was made, the status then and the time left, all from the server's clock. */
function clock(auction: AuctionWithLots, now: Date) {
  const status: AuctionStatus = statusAt(auction, now);
  const timeLeftMs =
    status === "open"
      ? auction.endsAt.getTime() - now.getTime()
      : status === "scheduled"
        ? auction.startsAt.getTime() - now.getTime()
        : 0;
  return { status, serverTime: now.toISOString(), timeLeftMs: Math.max(0, timeLeftMs) };
}

export type OwnerView = Awaited<ReturnType<typeof ownerView>>;
export type SellerView = ReturnType<typeof sellerViewOf>;
export type AuctionView = OwnerView | SellerView;

type AuctionTerms = Awaited<ReturnType<typeof auctionTerms>>;

/**
 * The console lists the latest bids (with the count of all, and the CSV for every one): the page and
 * each live view stay small however busy the auction.
 */
export const BIDS_SHOWN = 100;
/**
 * An auction shown as lots lists fewer of its latest bids (issue 31): each lot's own page lists the
 * lot's latest BIDS_SHOWN with its chart, and the console stays as light as a single price's.
 */
export const LOTTED_BIDS_SHOWN = 25;

export const ownerBidColumns = {
  id: auctionBids.id,
  amountCents: auctionBids.amountCents,
  kind: auctionBids.kind,
  createdAt: auctionBids.createdAt,
  organizationId: auctionBids.organizationId,
  organizationName: organizations.name,
  triggeredByBidId: auctionBids.triggeredByBidId,
  /** The lot it is on (issue 31): named in the list of an auction shown as lots. */
  lotId: auctionBids.lotId,
  /** Entered on the seller's behalf (issue 21): by whom, and the note of who phoned. */
  enteredBy: enteredBySql(),
  onBehalfNote: auctionBids.onBehalfNote,
};

/** The buyer's console (and staff's): the latest bids with their sellers, the leader, the invited sellers. */
export async function ownerView(
  db: Database,
  auction: AuctionWithLots,
  now: Date,
  viewer: FullViewer,
  knownTerms?: AuctionTerms,
) {
  const [terms, bids, [invited], sealed, priceChart] = await Promise.all([
    knownTerms ?? auctionTerms(db, auction),
    db
      .select(ownerBidColumns)
      .from(auctionBids)
      .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
      .where(eq(auctionBids.auctionId, auction.id))
      .orderBy(desc(auctionBids.id))
      .limit(auction.pricedByLots ? LOTTED_BIDS_SHOWN : BIDS_SHOWN),
    // The console shows how many are invited; the list is on the sellers page (the view travels with
    // every live change: 50 names and times in each for a count was most of its size after the bids).
    db.select({ total: count() }).from(auctionInvitations).where(eq(auctionInvitations.auctionId, auction.id)),
    sealedSide(db, auction, now),
    // An auction shown as lots: each lot's chart is on its bids page (lots/lot-console.tsx).
    auction.pricedByLots ? null : fullPriceChart(db, auction),
  ]);
  // The lowest and the awarded bid are nearly always among the latest; when not, one more read.
  const lot = firstLot(auction);
  const wanted = [lot.lowestBidId, auction.awardedBidId, ...auction.lots.map((row) => row.awardedBidId)].filter(
    (id): id is number => id !== null && !bids.some((bid) => bid.id === id),
  );
  const older = wanted.length
    ? await db
        .select(ownerBidColumns)
        .from(auctionBids)
        .innerJoin(organizations, eq(organizations.id, auctionBids.organizationId))
        .where(and(eq(auctionBids.auctionId, auction.id), inArray(auctionBids.id, wanted)))
    : [];
  const bidById = (id: number | null) => [...bids, ...older].find((bid) => bid.id === id);
  const leader = bidById(lot.lowestBidId);
  const awarded = auction.kind === "sealed" ? undefined : bidById(auction.awardedBidId);
  return {
    kind: "owner" as const,
    viewer,
    ...clock(auction, now),
    terms,
    lowest: leader
      ? {
          bidId: leader.id,
          amountCents: leader.amountCents,
          organizationId: leader.organizationId,
          organizationName: leader.organizationName,
        }
      : null,
    bidCount: auction.bidCount,
    lots: auction.lots.map((row) => {
      const awardedBid = bidById(row.awardedBidId);
      return {
        ...lotSummary(auction, row, now),
        lineCount: row.lineCount,
        lowestCents: row.lowestCents,
        lowestBidId: row.lowestBidId,
        /** Who the lot went to (issue 31), once awarded. */
        awarded: awardedBid
          ? {
              organizationName: awardedBid.organizationName,
              amountCents: awardedBid.amountCents,
              reason: row.awardReason,
            }
          : null,
      };
    }),
    bids: bids.map((bid) => ({ ...bid, createdAt: bid.createdAt.toISOString() })),
    invitedCount: invited?.total ?? 0,
    award: awardOf(auction),
    /** The awarded bid of a reverse auction, whether or not it is among the latest. */
    awardedBid: awarded ? { organizationName: awarded.organizationName, amountCents: awarded.amountCents } : null,
    cancelReason: auction.cancelReason,
    sealed,
    /** The whole bid history, compacted, for the price chart (issue 21); null for a sealed auction. */
    priceChart,
  };
}

/** What every party reads of a lot: its name, terms, end and status. */
function lotSummary(auction: AuctionWithLots, lot: LotRow, at: Date | string) {
  const now = new Date(at);
  return {
    id: lot.id,
    position: lot.position,
    title: lot.title,
    reserveCents: lot.reserveCents,
    decrement: decrementOf(lot),
    endsAt: lot.endsAt.toISOString(),
    scheduledEndsAt: lot.scheduledEndsAt.toISOString(),
    status: lotStatusAt(auction, lot, now),
  };
}

/**
 * What the auction's side, its evaluator and staff know of a sealed auction's bids: before the
 * deadline how many came, nothing more; after it every bid. Null for a reverse auction.
 */
async function sealedSide(db: Database, auction: AuctionWithLots, now: Date) {
  if (auction.kind !== "sealed") return null;
  const [received, bids] = await Promise.all([sealedBidCount(db, auction.id), readableSealedBids(db, auction, now)]);
  // The price schedules (issue 31), each lot's, shown with the bids once they are readable; null for one amount.
  const schedules = bids && bids.length > 0 ? schedulesOf(await sealedLots(db, auction.id), bids) : null;
  // An auction of several lots awarded lot by lot: who each lot went to, from the bids (readable by then).
  const several = auction.lots.length > 1;
  const lotAwards =
    several && bids
      ? auction.lots.flatMap((lot) => {
          const bid = bids.find((row) => row.id === lot.awardedBidId);
          const amount = bid?.lots.find((row) => row.lotId === lot.id)?.amountCents;
          return bid && amount !== undefined
            ? [{ lotId: lot.id, organizationName: bid.organizationName, amountCents: amount, reason: lot.awardReason }]
            : [];
        })
      : [];
  return {
    received,
    bids,
    schedules,
    /** Each lot's name, for an auction of several lots (issue 31); empty for one lot. */
    lotNames: several ? auction.lots.map((lot) => ({ id: lot.id, name: lotName(lot) })) : [],
    lotAwards,
  };
}

function awardOf(auction: AuctionRow) {
  return auction.awardedBidId
    ? {
        bidId: auction.awardedBidId,
        organizationId: auction.awardedOrganizationId,
        reason: auction.awardReason,
        awardedAt: auction.awardedAt?.toISOString() ?? null,
        buyerFeeCents: auction.buyerFeeCents,
      }
    : null;
}

/** An invited seller's page: the lowest price, whether they lead, their own bids and minimum. Nothing of the others. */
export async function sellerView(db: Database, auction: AuctionWithLots, now: Date, organizationId: number) {
  const views = await sellerViews(db, auction, now, [organizationId]);
  return views.get(organizationId) as SellerView;
}

/** A seller's page lists their latest bids (with the count of all): it stays small however busy the auction. */
const OWN_BIDS_SHOWN = 20;

/**
 * Several invited sellers' pages at once, from one read of each table (the live hub builds every
 * watching seller's view per change). Each seller's view is made from rows filtered to that seller
 * only: their bids, their minimum, their invitation; of the auction, only the lowest price and
 * whether they lead.
 */
export async function sellerViews(
  db: Database,
  auction: AuctionWithLots,
  now: Date,
  organizationIds: number[],
  knownTerms?: AuctionTerms,
): Promise<Map<number, SellerView>> {
  const ids = [...new Set(organizationIds)];
  if (ids.length === 0) return new Map();
  const ranked = db
    .select({
      organizationId: auctionBids.organizationId,
      id: auctionBids.id,
      amountCents: auctionBids.amountCents,
      kind: auctionBids.kind,
      createdAt: auctionBids.createdAt,
      enteredBy: enteredBySql().as("entered_by"),
      onBehalfNote: auctionBids.onBehalfNote,
      lotId: auctionBids.lotId,
      position:
        sql<number>`(row_number() over (partition by ${auctionBids.organizationId} order by ${auctionBids.id} desc))::int`.as(
          "position",
        ),
      count: sql<number>`(count(*) over (partition by ${auctionBids.organizationId}))::int`.as("count"),
    })
    .from(auctionBids)
    .where(and(eq(auctionBids.auctionId, auction.id), inArray(auctionBids.organizationId, ids)))
    .as("ranked");
  const ownBidsQuery = db.select().from(ranked).where(lte(ranked.position, OWN_BIDS_SHOWN)).orderBy(desc(ranked.id));
  // Ranks only (issue 31): each seller's place per lot, and no price chart (it draws the lowest price).
  const ranksOnly = auction.kind === "reverse" && auction.sellerView === "rank";
  const [terms, ownBids, autoBids, invitations, ownSealed, priceCharts, standings] = await Promise.all([
    knownTerms ?? auctionTerms(db, auction),
    ownBidsQuery,
    db
      .select({ organizationId: auctionAutoBids.organizationId, minimumCents: auctionAutoBids.minimumCents })
      .from(auctionAutoBids)
      .where(and(eq(auctionAutoBids.auctionId, auction.id), inArray(auctionAutoBids.organizationId, ids))),
    db
      .select({
        organizationId: auctionInvitations.organizationId,
        termsAcceptedAt: auctionInvitations.termsAcceptedAt,
      })
      .from(auctionInvitations)
      .where(and(eq(auctionInvitations.auctionId, auction.id), inArray(auctionInvitations.organizationId, ids))),
    auction.kind === "sealed" ? ownSealedBids(db, auction.id, ids) : undefined,
    // An auction shown as lots draws each lot's chart on the lot's own page, not the auction's.
    ranksOnly || auction.pricedByLots ? undefined : sellerPriceCharts(db, auction, ids),
    ranksOnly ? lotStandings(db, auction.id) : undefined,
  ]);
  const shared = { ...clock(auction, now), terms };
  const views = new Map<number, SellerView>();
  for (const organizationId of ids) {
    views.set(
      organizationId,
      sellerViewOf(auction, shared, {
        ownBids: ownBids.filter((bid) => bid.organizationId === organizationId),
        ownMinimumCents: autoBids.find((autoBid) => autoBid.organizationId === organizationId)?.minimumCents ?? null,
        termsAcceptedAt:
          invitations.find((invitation) => invitation.organizationId === organizationId)?.termsAcceptedAt ?? null,
        organizationId,
        ownSealedBid: ownSealed?.get(organizationId) ?? null,
        priceChart: priceCharts?.get(organizationId) ?? null,
        standings,
      }),
    );
  }
  return views;
}

/** One seller's view from the auction row and that seller's own rows. */
function sellerViewOf(
  auction: AuctionWithLots,
  shared: ReturnType<typeof clock> & { terms: AuctionTerms },
  own: {
    organizationId: number;
    ownBids: {
      amountCents: number;
      kind: "manual" | "auto";
      createdAt: Date;
      enteredBy: string | null;
      onBehalfNote: string | null;
      lotId: number;
      /** 1 for the seller's newest bid. */
      position: number;
      /** How many bids the seller has placed in all. */
      count: number;
    }[];
    ownMinimumCents: number | null;
    termsAcceptedAt: Date | null;
    ownSealedBid: OwnSealedBid | null;
    priceChart: PriceChartData | null;
    /** Ranks only: each lot's standing bids, for the seller's rank; undefined otherwise. */
    standings: Map<number, StandingBid[]> | undefined;
  },
) {
  // A sealed auction tells a seller nothing of the others: no lowest price, no lead. Ranks only
  // (issue 31): no lowest price either, but the seller's place.
  const sealed = auction.kind === "sealed";
  const { standings } = own;
  const lot = firstLot(auction);
  const lowestCents = sealed || standings ? null : lot.lowestCents;
  const leading = !sealed && lot.leaderOrganizationId === own.organizationId;
  // In ranks only each bid beats the seller's own lowest.
  const ownLowestCents = standings?.get(lot.id)?.find((bid) => bid.seller === own.organizationId)?.amount;
  return {
    kind: "seller" as const,
    ...shared,
    lowestCents,
    leading,
    /**
     * The seller's latest bids, newest first (at most OWN_BIDS_SHOWN), and how many they have placed in
     * all. Each is numbered among the seller's own bids (1 the first), never by the auction's bid ids,
     * which would count the other sellers' bids in between (issue 17).
     */
    ownBids: own.ownBids.map((bid) => ({
      number: bid.count - bid.position + 1,
      amountCents: bid.amountCents,
      kind: bid.kind,
      createdAt: bid.createdAt.toISOString(),
      enteredBy: bid.enteredBy,
      onBehalfNote: bid.onBehalfNote,
      lotId: bid.lotId,
    })),
    ownBidCount: own.ownBids[0]?.count ?? 0,
    ownMinimumCents: own.ownMinimumCents,
    /** The highest amount a new bid may be (the reserve, or the lowest less the decrement; ranks only: their own lowest less it). */
    highestAllowedCents: standings
      ? highestOwnBid(lot.reserveCents, ownLowestCents, decrementOf(lot))
      : highestAllowedBid(lot.reserveCents, lowestCents, decrementOf(lot)),
    /** Ranks only: the seller's place on the first lot (1: the lowest), null before they bid; undefined otherwise. */
    rank: standings ? rankOn(standings, lot.id, own.organizationId) : undefined,
    termsAccepted: Boolean(own.termsAcceptedAt),
    ownSealedBid: own.ownSealedBid,
    /** The lowest price over time and the seller's own bids (issue 21), once they accepted the terms; null for a sealed auction. */
    priceChart: own.termsAcceptedAt ? own.priceChart : null,
    /** Each lot as this seller may see it (issue 31): the lowest total unless the auction shows ranks only. */
    lots: auction.lots.map((row) => ({
      ...lotSummary(auction, row, shared.serverTime),
      lineCount: row.lineCount,
      oneAmount: row.oneAmount,
      lowestCents: sealed || standings ? null : row.lowestCents,
      leading: !sealed && row.leaderOrganizationId === own.organizationId,
      rank: standings ? rankOn(standings, row.id, own.organizationId) : undefined,
      won: row.awardedOrganizationId === own.organizationId,
    })),
    outcome:
      auction.status === "awarded"
        ? {
            awarded: true as const,
            won:
              auction.awardedOrganizationId === own.organizationId ||
              auction.lots.some((row) => row.awardedOrganizationId === own.organizationId),
          }
        : auction.status === "cancelled"
          ? { awarded: false as const, cancelled: true as const }
          : null,
  };
}

/**
 * The view for this viewer. Built in one snapshot from the auction's row as it is then (`auction`
 * only names it, and stands in should it be gone), so a bid committing meanwhile is in all of it
 * or none of it.
 */
export function viewFor(
  db: Database,
  auction: AuctionWithLots,
  viewer: Viewer,
  now = new Date(),
): Promise<AuctionView> {
  return inSnapshot(db, async (snapshot) => {
    const current = (await findAuction(snapshot, auction.id)) ?? auction;
    return viewer.kind === "seller"
      ? sellerView(snapshot, current, now, viewer.organizationId)
      : ownerView(snapshot, current, now, viewer.kind);
  });
}

/**
 * The view a user may read of an auction, with who they are to it, all from one snapshot: the
 * auction read once, the access decided on that read, the view built on it (a page's load: one read
 * of the auction rather than one to check access and another for the view). Undefined when the user
 * may not see it.
 */
export function viewForUser(
  db: Database,
  auctionId: number,
  user: CurrentUser,
  /** The request's: a client gone once the auction is read gets none of the view's queries. */
  signal?: AbortSignal,
  now = new Date(),
): Promise<{ auction: AuctionWithLots; viewer: Viewer; view: AuctionView } | undefined> {
  return inSnapshot(db, async (snapshot) => {
    const seller = user.role === Role.Seller && user.organizationId !== null;
    const [auction, invited] = await Promise.all([
      findAuction(snapshot, auctionId),
      seller ? isInvited(snapshot, auctionId, user.organizationId as number) : undefined,
    ]);
    const viewer = auction ? await viewerOf(snapshot, auction, user, invited) : null;
    if (!auction || !viewer) return undefined;
    signal?.throwIfAborted();
    const view =
      viewer.kind === "seller"
        ? await sellerView(snapshot, auction, now, viewer.organizationId)
        : await ownerView(snapshot, auction, now, viewer.kind);
    return { auction, viewer, view };
  });
}

/**
 * The views of several viewers at one moment, built together in one snapshot (as `viewFor`): the
 * terms once, the full view once (for the first owner or staff viewer; the others get the same with
 * their `viewer`), and the sellers' views from one read of each table. Answers them in the order asked.
 */
export function viewsFor(
  db: Database,
  auction: AuctionWithLots,
  viewers: Viewer[],
  now = new Date(),
): Promise<AuctionView[]> {
  return inSnapshot(db, async (snapshot) =>
    viewsInSnapshot(snapshot, (await findAuction(snapshot, auction.id)) ?? auction, viewers, now),
  );
}

async function viewsInSnapshot(
  db: Database,
  auction: AuctionWithLots,
  viewers: Viewer[],
  now: Date,
): Promise<AuctionView[]> {
  const terms = await auctionTerms(db, auction);
  const sellerIds = viewers.flatMap((viewer) => (viewer.kind === "seller" ? [viewer.organizationId] : []));
  const full = viewers.find((viewer) => viewer.kind !== "seller");
  const [sellers, owner] = await Promise.all([
    sellerViews(db, auction, now, sellerIds, terms),
    full ? ownerView(db, auction, now, full.kind, terms) : undefined,
  ]);
  return viewers.map((viewer) => {
    if (viewer.kind === "seller") return sellers.get(viewer.organizationId) as SellerView;
    const view = owner as OwnerView;
    return view.viewer === viewer.kind ? view : { ...view, viewer: viewer.kind };
  });
}

/** The auction list shows this many a page. */
export const AUCTIONS_PAGE_SIZE = 25;

/**
 * One page (from 1) of the auctions a user may see: their organization's, those they are invited to,
 * or (staff) all; and how many there are in all.
 */
export async function listAuctionsFor(db: Database, user: CurrentUser, page = 1) {
  const columns = {
    id: auctions.id,
    title: auctions.title,
    kind: auctions.kind,
    status: auctions.status,
    startsAt: auctions.startsAt,
    endsAt: auctions.endsAt,
    organizationName: organizations.name,
    // Counted with the page's rows: no second query.
    total: sql<number>`(count(*) over ())::int`,
  };
  const base = db
    .select(columns)
    .from(auctions)
    .innerJoin(organizations, eq(organizations.id, auctions.organizationId));
  // Practice auctions (issue 21) are in no list: the seller reaches theirs from /auctions/practice.
  const real = eq(auctions.practice, false);
  const offset = (page - 1) * AUCTIONS_PAGE_SIZE;
  const answer = <Row extends { total: number }>(rows: Row[]) => ({
    rows: rows.map(({ total: _total, ...row }) => row),
    total: rows[0]?.total ?? 0,
  });
  if (user.role === Role.Staff) {
    return answer(await base.where(real).orderBy(desc(auctions.id)).limit(AUCTIONS_PAGE_SIZE).offset(offset));
  }
  if (!user.organizationId) return answer([]);
  if (user.role === Role.Seller) {
    const invited = db
      .select({ auctionId: auctionInvitations.auctionId })
      .from(auctionInvitations)
      .where(eq(auctionInvitations.organizationId, user.organizationId));
    return answer(
      await base
        .where(and(inArray(auctions.id, invited), ne(auctions.status, "draft"), real))
        .orderBy(desc(auctions.startsAt), desc(auctions.id))
        .limit(AUCTIONS_PAGE_SIZE)
        .offset(offset),
    );
  }
  // The organization's own auctions and, for a consultant, those it was named to evaluate.
  return answer(
    await base
      .where(
        and(
          real,
          or(
            eq(auctions.organizationId, user.organizationId),
            eq(auctions.evaluatorOrganizationId, user.organizationId),
          ),
        ),
      )
      .orderBy(desc(auctions.id))
      .limit(AUCTIONS_PAGE_SIZE)
      .offset(offset),
  );
}
