import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations, users } from "./accounts";
import { serviceAreas, services } from "./catalogue";
import { bytea } from "./columns";

// Reverse auctions (issue 9). Money in integer cents (bigint: large projects), times in UTC. Every
// change to an auction's bidding happens in one transaction holding the auction's row lock.

export const AUCTION_STATUSES = ["draft", "scheduled", "open", "closed", "awarded", "cancelled"] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];

export const auctions = pgTable(
  "auctions",
  {
    id: serial("id").primaryKey(),
    /** The buyer or consultant organization that runs it (a consultant acts for a buyer). */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    serviceAreaId: integer("service_area_id")
      .notNull()
      .references(() => serviceAreas.id, { onDelete: "restrict" }),
    /** The sum of its lots' reserves: the most the auction may cost (each lot keeps its own). */
    reserveCents: bigint("reserve_cents", { mode: "number" }).notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    /** When bidding ends on the last of its lots: the latest of the lots' current ends. */
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** The first lot's end as scheduled (the others follow at the lot gap). */
    scheduledEndsAt: timestamp("scheduled_ends_at", { withTimezone: true }).notNull(),
    /** A bid in a lot's last N minutes moves that lot's end M minutes later, at most `cap` minutes past its scheduled end. */
    softCloseWindowMinutes: smallint("soft_close_window_minutes").notNull(),
    softCloseExtensionMinutes: smallint("soft_close_extension_minutes").notNull(),
    softCloseCapMinutes: integer("soft_close_cap_minutes").notNull(),
    /** Extensions and bids over all its lots. */
    extensions: smallint("extensions").notNull().default(0),
    status: text("status", { enum: AUCTION_STATUSES }).notNull().default("draft"),
    /** reverse: sellers bid the price down in the open; sealed: one sealed bid each, read after the deadline. */
    kind: text("kind", { enum: ["reverse", "sealed"] })
      .notNull()
      .default("reverse"),
    /** The consultant organization that evaluates the bids technically; null: the organization running it. */
    evaluatorOrganizationId: integer("evaluator_organization_id").references(() => organizations.id),
    /** Share of price in the ranking (0 to 100); technical merit counts for the rest. */
    priceWeightPercent: smallint("price_weight_percent").notNull().default(100),
    /** A technical score (0 to 100) under this excludes a bid; null: none. */
    technicalPassMark: smallint("technical_pass_mark"),
    evaluationCompletedAt: timestamp("evaluation_completed_at", { withTimezone: true }),
    /** Orders every bid and auto-bid of the auction (over all its lots): ties go to the lower number (entered first). */
    sequence: integer("sequence").notNull().default(0),
    bidCount: integer("bid_count").notNull().default(0),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    awardedBidId: bigint("awarded_bid_id", { mode: "number" }),
    awardedOrganizationId: integer("awarded_organization_id").references(() => organizations.id),
    /** Why the lowest bid was passed over, when it was. */
    awardReason: text("award_reason"),
    awardedAt: timestamp("awarded_at", { withTimezone: true }),
    awardedByUserId: integer("awarded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The per-auction buyer fee recorded at award (spec section 1), from the fees configuration. */
    buyerFeeCents: integer("buyer_fee_cents"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    /**
     * A seller's private practice auction (issue 21): never listed, reported, notified, fee'd or
     * invoiced; only the practising seller sees it.
     */
    practice: boolean("practice").notNull().default(false),
    /** The auction this one was copied from (issue 21), if it was. */
    copiedFromAuctionId: integer("copied_from_auction_id").references((): AnyPgColumn => auctions.id, {
      onDelete: "set null",
    }),
    /** Lots close one after another (issue 31): lot n's scheduled end is lot 1's plus (n − 1) × this. */
    lotCloseGapMinutes: integer("lot_close_gap_minutes").notNull().default(0),
    /** What sellers see of the others (issue 31): the lowest total, or only their own rank. */
    sellerView: text("seller_view", { enum: ["lowest", "rank"] })
      .notNull()
      .default("lowest"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "auctions_status_check",
      sql`${table.status} in ('draft', 'scheduled', 'open', 'closed', 'awarded', 'cancelled')`,
    ),
    check("auctions_reserve_check", sql`${table.reserveCents} > 0`),
    check("auctions_kind_check", sql`${table.kind} in ('reverse', 'sealed')`),
    check(
      "auctions_evaluation_check",
      sql`${table.priceWeightPercent} between 0 and 100 and (${table.technicalPassMark} is null or ${table.technicalPassMark} between 0 and 100)`,
    ),
    check(
      "auctions_times_check",
      sql`${table.startsAt} < ${table.scheduledEndsAt} and ${table.scheduledEndsAt} <= ${table.endsAt}`,
    ),
    check(
      "auctions_soft_close_check",
      sql`${table.softCloseWindowMinutes} >= 0 and ${table.softCloseExtensionMinutes} >= 0 and ${table.softCloseCapMinutes} >= 0`,
    ),
    check("auctions_seller_view_check", sql`${table.sellerView} in ('lowest', 'rank')`),
    check("auctions_lot_close_gap_check", sql`${table.lotCloseGapMinutes} >= 0`),
    index("auctions_organization_idx").on(table.organizationId, table.createdAt),
    // The closing job looks for auctions past their end.
    index("auctions_status_ends_idx").on(table.status, table.endsAt),
  ],
);

/**
 * A lot of an auction (issue 31): what is bid on and awarded. Each has its own reserve, decrement and
 * end (lots close one after another; a late bid moves only its own lot's end) and keeps its standing
 * lowest bid. Every auction has at least one; an auction of one lot of one line shows no lot vocabulary.
 */
export const auctionLots = pgTable(
  "auction_lots",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    /** 1, 2, …: the order lots are shown and close in. */
    position: smallint("position").notNull(),
    /** "Rig move"; empty for an auction's only lot. */
    title: text("title").notNull().default(""),
    /** The most the lot's total may be. */
    reserveCents: bigint("reserve_cents", { mode: "number" }).notNull(),
    /** A bid must beat the lot's lowest total by this much: cents, or basis points of it (100 = 1 %). */
    decrementKind: text("decrement_kind", { enum: ["amount", "percent"] }).notNull(),
    decrementValue: integer("decrement_value").notNull(),
    /** The lot's end as scheduled, and as moved by its own soft-close extensions. */
    scheduledEndsAt: timestamp("scheduled_ends_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    extensions: smallint("extensions").notNull().default(0),
    bidCount: integer("bid_count").notNull().default(0),
    /** The standing lowest bid on the lot, kept with each bid for fast reads. */
    lowestBidId: bigint("lowest_bid_id", { mode: "number" }),
    lowestCents: bigint("lowest_cents", { mode: "number" }),
    leaderOrganizationId: integer("leader_organization_id").references(() => organizations.id),
    /** The lot's award (issue 31): the bid chosen, its seller, and why the lowest was passed over if it was. */
    awardedBidId: bigint("awarded_bid_id", { mode: "number" }),
    awardedOrganizationId: integer("awarded_organization_id").references(() => organizations.id),
    awardReason: text("award_reason"),
  },
  (table) => [
    uniqueIndex("auction_lots_position_idx").on(table.auctionId, table.position),
    check("auction_lots_position_check", sql`${table.position} between 1 and 50`),
    check("auction_lots_reserve_check", sql`${table.reserveCents} > 0`),
    check(
      "auction_lots_decrement_check",
      sql`${table.decrementKind} in ('amount', 'percent') and ${table.decrementValue} > 0`,
    ),
    check("auction_lots_times_check", sql`${table.scheduledEndsAt} <= ${table.endsAt}`),
  ],
);

/**
 * A line of a lot's rate sheet (issue 31): a description, a unit, an estimated quantity in thousandths
 * of a unit and, optionally, a ceiling on the unit price. A lot's total is the sum of quantity × unit
 * price over its lines, each rounded to the cent (app/auctions/lots/line-pricing.ts).
 */
export const auctionLineItems = pgTable(
  "auction_line_items",
  {
    id: serial("id").primaryKey(),
    lotId: integer("lot_id")
      .notNull()
      .references(() => auctionLots.id, { onDelete: "cascade" }),
    /** 1, 2, …: the order of the rate sheet. */
    position: smallint("position").notNull(),
    description: text("description").notNull(),
    unit: text("unit").notNull(),
    quantityThousandths: bigint("quantity_thousandths", { mode: "number" }).notNull(),
    ceilingCents: bigint("ceiling_cents", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("auction_line_items_position_idx").on(table.lotId, table.position),
    check("auction_line_items_position_check", sql`${table.position} between 1 and 250`),
    check("auction_line_items_quantity_check", sql`${table.quantityThousandths} > 0`),
    check("auction_line_items_ceiling_check", sql`${table.ceilingCents} is null or ${table.ceilingCents} > 0`),
  ],
);

/** Documents attached to an auction (size and type checked on upload). */
export const auctionDocuments = pgTable(
  "auction_documents",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    uploadedByUserId: integer("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auction_documents_auction_idx").on(table.auctionId)],
);

/**
 * A seller's question about an auction (issue 21) and the answer of the auction's side: private (the
 * asker's organization only) until published to every invited seller, never with the asker's name.
 */
export const auctionQuestions = pgTable(
  "auction_questions",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    /** The invited seller that asked. */
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    askedByUserId: integer("asked_by_user_id").references(() => users.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    /** An optional file, checked as auction documents are (app/auctions/documents). */
    attachmentName: text("attachment_name"),
    attachmentType: text("attachment_type"),
    attachmentSizeBytes: integer("attachment_size_bytes"),
    attachment: bytea("attachment"),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    answer: text("answer"),
    answeredByUserId: integer("answered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** When the answer was shown to every invited seller (without the asker); null: the asker only. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** The answer says the terms were changed because of this question. */
    termsChanged: boolean("terms_changed").notNull().default(false),
    /** The lot it is about, on an auction of several lots (issue 31); null: the whole auction. */
    lotId: integer("lot_id").references((): AnyPgColumn => auctionLots.id, { onDelete: "set null" }),
  },
  (table) => [
    index("auction_questions_auction_idx").on(table.auctionId, table.organizationId),
    check("auction_questions_answer_check", sql`(${table.answer} is null) = (${table.answeredAt} is null)`),
    check("auction_questions_published_check", sql`${table.publishedAt} is null or ${table.answeredAt} is not null`),
    check("auction_questions_attachment_check", sql`(${table.attachment} is null) = (${table.attachmentName} is null)`),
  ],
);

/** The sellers invited to an auction, each known to the others only by an alias. */
export const auctionInvitations = pgTable(
  "auction_invitations",
  {
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** "Seller A", "Seller B", …: what every seller sees of a competitor. */
    alias: text("alias").notNull(),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    termsAcceptedByUserId: integer("terms_accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    primaryKey({ columns: [table.auctionId, table.organizationId] }),
    uniqueIndex("auction_invitations_alias_idx").on(table.auctionId, table.alias),
    index("auction_invitations_organization_idx").on(table.organizationId),
  ],
);

/** A seller's secret minimum: the system bids for them down to it. One per seller and auction. */
export const auctionAutoBids = pgTable(
  "auction_auto_bids",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The lot whose total the minimum is on. */
    lotId: integer("lot_id")
      .notNull()
      .references(() => auctionLots.id, { onDelete: "cascade" }),
    minimumCents: bigint("minimum_cents", { mode: "number" }).notNull(),
    /** The auction's sequence number when this minimum was entered: the earlier owns a tie. */
    enteredSequence: integer("entered_sequence").notNull(),
    setByUserId: integer("set_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Set on the seller's behalf (issue 21): who asked and when, as the one who set it noted; null when the seller set it. */
    onBehalfNote: text("on_behalf_note"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("auction_auto_bids_seller_idx").on(table.lotId, table.organizationId),
    index("auction_auto_bids_auction_idx").on(table.auctionId, table.organizationId),
    check("auction_auto_bids_minimum_check", sql`${table.minimumCents} > 0`),
  ],
);

/** Every bid, binding and never deleted; an automatic one names the bid or auto-bid change that set it off. */
export const auctionBids = pgTable(
  "auction_bids",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "restrict" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    /** The lot bid on: the amount is its total. */
    lotId: integer("lot_id")
      .notNull()
      .references(() => auctionLots.id, { onDelete: "restrict" }),
    /** Who placed a manual bid, or set the minimum an automatic one came from. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /**
     * A lot bid on line by line (issue 31): the unit price of each line, in the lines' order (which is
     * fixed once bidding opens). Null for a lot of one line of quantity 1: the amount is its price.
     */
    unitCents: bigint("unit_cents", { mode: "number" }).array(),
    kind: text("kind", { enum: ["manual", "auto"] }).notNull(),
    /** Sequence rank for ties: equal amounts go to the lower rank. */
    rank: integer("rank").notNull(),
    /** The manual bid, or the auto-bid change, that set off this automatic bid. */
    triggeredByBidId: bigint("triggered_by_bid_id", { mode: "number" }).references((): AnyPgColumn => auctionBids.id),
    triggeredByAutoBidId: integer("triggered_by_auto_bid_id").references(() => auctionAutoBids.id),
    /**
     * A manual bid entered on the seller's behalf (issue 21: the seller phoned): who entered it (then
     * `user_id` is null: no user of the seller placed it) and their note of who asked and when.
     */
    enteredByUserId: integer("entered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    onBehalfNote: text("on_behalf_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("auction_bids_kind_check", sql`${table.kind} in ('manual', 'auto')`),
    check("auction_bids_on_behalf_check", sql`${table.onBehalfNote} is null or ${table.kind} = 'manual'`),
    check("auction_bids_amount_check", sql`${table.amountCents} > 0`),
    check("auction_bids_unit_check", sql`${table.unitCents} is null or 0 <= all(${table.unitCents})`),
    index("auction_bids_auction_idx").on(table.auctionId, table.id),
    // With the amount, a seller's own lowest bid (read with every bid) is one index lookup.
    index("auction_bids_seller_idx").on(table.auctionId, table.organizationId, table.lotId, table.amountCents),
  ],
);

/**
 * What happened to an auction, in order: the audit trail (who did what) and the feed of live
 * updates. `data` may hold what only the buyer side may see; sellers get views built for them.
 */
export const auctionEvents = pgTable(
  "auction_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "set null" }),
    data: jsonb("data").notNull().$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("auction_events_auction_idx").on(table.auctionId, table.id)],
);

/**
 * What a round of accepted bids means for the other parties (issue 19), written in the round's own
 * guarded statement and told (outbid, extended) by a fold after the commit: one row per round, not
 * per bid. Only pending rows are kept: the fold deletes the rows it told, in the transaction that
 * writes the notifications (which, with the auction's events, are the record).
 */
/** A bid or minimum entered on a seller's behalf, as its round's effects keep it until the seller is told. */
export type OnBehalfEffect = {
  sellerId: number;
  what: "bid" | "minimum";
  amountCents: number;
  /** A bid on a lot priced by lines (issue 31): its unit prices, whose total is `amountCents`. */
  unitCents?: number[];
  /** Who entered it. */
  userId: number;
  note: string;
};

export const bidEffects = pgTable(
  "bid_effects",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    /** The lot the round's bids were on. */
    lotId: integer("lot_id")
      .notNull()
      .references(() => auctionLots.id, { onDelete: "cascade" }),
    /** The sellers who lost the lead in the round (told only if they have not taken it back by the fold). */
    outbidOrganizationIds: integer("outbid_organization_ids").array().notNull(),
    /** Whether a late bid moved the end; `endsAt` is the end the round left. */
    extended: boolean("extended").notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Bids and minimums the round took on a seller's behalf (issue 21): each seller is owed a notice. */
    onBehalf: jsonb("on_behalf").notNull().default([]).$type<OnBehalfEffect[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("bid_effects_auction_idx").on(table.auctionId, table.id),
    index("bid_effects_created_idx").on(table.createdAt),
  ],
);
