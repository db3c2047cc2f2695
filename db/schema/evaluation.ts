import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations, users } from "./accounts";
import { auctionLots, auctions } from "./auctions";
import { bytea } from "./columns";

// Closed-bid (sealed) auctions and technical evaluation (issue 10).

/** The documents each sealed bid must carry (price schedule, technical proposal, safety documents…). */
export const auctionBidRequirements = pgTable(
  "auction_bid_requirements",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sortOrder: smallint("sort_order").notNull(),
  },
  (table) => [uniqueIndex("auction_bid_requirements_name_idx").on(table.auctionId, sql`lower(${table.name})`)],
);

/** A seller's sealed bid: one per seller and auction, replaceable until the deadline, unreadable before it. */
export const sealedBids = pgTable(
  "sealed_bids",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "restrict" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    /** The bid's total: the sum of its lots' amounts (`sealed_bid_lots`); one lot's amount as before lots. */
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    submittedByUserId: integer("submitted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** How many times it was replaced. */
    revision: integer("revision").notNull().default(0),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("sealed_bids_seller_idx").on(table.auctionId, table.organizationId),
    check("sealed_bids_amount_check", sql`${table.amountCents} > 0`),
  ],
);

/**
 * What a sealed bid names for each lot it bids on (issue 31): the lot's amount and, for a lot priced by
 * lines, the unit price of each line in the lines' order (null for a lot bid on as one amount). A
 * seller may bid on some lots and not others, at least one; replaced with the bid, never read before
 * the deadline but by its seller (decision 008).
 */
export const sealedBidLots = pgTable(
  "sealed_bid_lots",
  {
    sealedBidId: integer("sealed_bid_id")
      .notNull()
      .references(() => sealedBids.id, { onDelete: "cascade" }),
    lotId: integer("lot_id")
      .notNull()
      .references(() => auctionLots.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    unitCents: bigint("unit_cents", { mode: "number" }).array(),
  },
  (table) => [
    primaryKey({ columns: [table.sealedBidId, table.lotId] }),
    check("sealed_bid_lots_amount_check", sql`${table.amountCents} > 0`),
    check("sealed_bid_lots_unit_check", sql`${table.unitCents} is null or 0 <= all(${table.unitCents})`),
  ],
);

/** One file per requirement of a sealed bid. */
export const sealedBidDocuments = pgTable(
  "sealed_bid_documents",
  {
    id: serial("id").primaryKey(),
    sealedBidId: integer("sealed_bid_id")
      .notNull()
      .references(() => sealedBids.id, { onDelete: "cascade" }),
    requirementId: integer("requirement_id")
      .notNull()
      .references(() => auctionBidRequirements.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    content: bytea("content").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("sealed_bid_documents_requirement_idx").on(table.sealedBidId, table.requirementId)],
);

/** The evaluator's weighted criteria, fixed once bids open. */
export const evaluationCriteria = pgTable(
  "evaluation_criteria",
  {
    id: serial("id").primaryKey(),
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Relative weight, 1 to 100. */
    weight: smallint("weight").notNull(),
    sortOrder: smallint("sort_order").notNull(),
  },
  (table) => [
    check("evaluation_criteria_weight_check", sql`${table.weight} between 1 and 100`),
    uniqueIndex("evaluation_criteria_name_idx").on(table.auctionId, sql`lower(${table.name})`),
  ],
);

/** A score (0 to 10) with a comment, per criterion and seller (a sealed bid's seller, or a candidate to invite). */
export const evaluationScores = pgTable(
  "evaluation_scores",
  {
    criterionId: integer("criterion_id")
      .notNull()
      .references(() => evaluationCriteria.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    score: smallint("score").notNull(),
    comment: text("comment"),
    scoredByUserId: integer("scored_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.criterionId, table.organizationId] }),
    check("evaluation_scores_score_check", sql`${table.score} between 0 and 10`),
  ],
);

/** The evaluator's verdict on a seller: technically unacceptable or not, and why. */
export const evaluationVerdicts = pgTable(
  "evaluation_verdicts",
  {
    auctionId: integer("auction_id")
      .notNull()
      .references(() => auctions.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    unacceptable: boolean("unacceptable").notNull().default(false),
    comment: text("comment"),
    updatedByUserId: integer("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.auctionId, table.organizationId] })],
);
