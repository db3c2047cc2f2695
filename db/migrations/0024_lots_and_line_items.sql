CREATE TABLE "auction_bid_lines" (
	"bid_id" bigint NOT NULL,
	"line_item_id" integer NOT NULL,
	"unit_cents" bigint NOT NULL,
	CONSTRAINT "auction_bid_lines_bid_id_line_item_id_pk" PRIMARY KEY("bid_id","line_item_id"),
	CONSTRAINT "auction_bid_lines_unit_check" CHECK ("auction_bid_lines"."unit_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "auction_line_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"lot_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"description" text NOT NULL,
	"unit" text NOT NULL,
	"quantity_thousandths" bigint NOT NULL,
	"ceiling_cents" bigint,
	CONSTRAINT "auction_line_items_position_check" CHECK ("auction_line_items"."position" between 1 and 250),
	CONSTRAINT "auction_line_items_quantity_check" CHECK ("auction_line_items"."quantity_thousandths" > 0),
	CONSTRAINT "auction_line_items_ceiling_check" CHECK ("auction_line_items"."ceiling_cents" is null or "auction_line_items"."ceiling_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "auction_lots" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"reserve_cents" bigint NOT NULL,
	"decrement_kind" text NOT NULL,
	"decrement_value" integer NOT NULL,
	"scheduled_ends_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"extensions" smallint DEFAULT 0 NOT NULL,
	"bid_count" integer DEFAULT 0 NOT NULL,
	"lowest_bid_id" bigint,
	"lowest_cents" bigint,
	"leader_organization_id" integer,
	CONSTRAINT "auction_lots_position_check" CHECK ("auction_lots"."position" between 1 and 50),
	CONSTRAINT "auction_lots_reserve_check" CHECK ("auction_lots"."reserve_cents" > 0),
	CONSTRAINT "auction_lots_decrement_check" CHECK ("auction_lots"."decrement_kind" in ('amount', 'percent') and "auction_lots"."decrement_value" > 0),
	CONSTRAINT "auction_lots_times_check" CHECK ("auction_lots"."scheduled_ends_at" <= "auction_lots"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ADD COLUMN "lot_id" integer;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD COLUMN "lot_id" integer;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "lot_close_gap_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "seller_view" text DEFAULT 'lowest' NOT NULL;--> statement-breakpoint
ALTER TABLE "bid_effects" ADD COLUMN "lot_id" integer;--> statement-breakpoint
ALTER TABLE "auction_bid_lines" ADD CONSTRAINT "auction_bid_lines_bid_id_auction_bids_id_fk" FOREIGN KEY ("bid_id") REFERENCES "public"."auction_bids"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bid_lines" ADD CONSTRAINT "auction_bid_lines_line_item_id_auction_line_items_id_fk" FOREIGN KEY ("line_item_id") REFERENCES "public"."auction_line_items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_line_items" ADD CONSTRAINT "auction_line_items_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_lots" ADD CONSTRAINT "auction_lots_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_lots" ADD CONSTRAINT "auction_lots_leader_organization_id_organizations_id_fk" FOREIGN KEY ("leader_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_line_items_position_idx" ON "auction_line_items" USING btree ("lot_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_lots_position_idx" ON "auction_lots" USING btree ("auction_id","position");--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ADD CONSTRAINT "auction_auto_bids_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_effects" ADD CONSTRAINT "bid_effects_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_seller_view_check" CHECK ("auctions"."seller_view" in ('lowest', 'rank'));--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_lot_close_gap_check" CHECK ("auctions"."lot_close_gap_minutes" >= 0);--> statement-breakpoint
-- Every auction so far becomes one lot of one line of quantity 1 (issue 31), holding its bidding state.
INSERT INTO "auction_lots" ("auction_id", "position", "title", "reserve_cents", "decrement_kind", "decrement_value",
	"scheduled_ends_at", "ends_at", "extensions", "bid_count", "lowest_bid_id", "lowest_cents", "leader_organization_id")
SELECT "id", 1, '', "reserve_cents", "decrement_kind", "decrement_value", "scheduled_ends_at", "ends_at", "extensions",
	"bid_count", "lowest_bid_id", "lowest_cents", "leader_organization_id"
FROM "auctions";--> statement-breakpoint
INSERT INTO "auction_line_items" ("lot_id", "position", "description", "unit", "quantity_thousandths")
SELECT "auction_lots"."id", 1, "auctions"."title", 'lot', 1000
FROM "auction_lots" JOIN "auctions" ON "auctions"."id" = "auction_lots"."auction_id";--> statement-breakpoint
UPDATE "auction_bids" SET "lot_id" = "auction_lots"."id" FROM "auction_lots"
WHERE "auction_lots"."auction_id" = "auction_bids"."auction_id";--> statement-breakpoint
UPDATE "auction_auto_bids" SET "lot_id" = "auction_lots"."id" FROM "auction_lots"
WHERE "auction_lots"."auction_id" = "auction_auto_bids"."auction_id";--> statement-breakpoint
UPDATE "bid_effects" SET "lot_id" = "auction_lots"."id" FROM "auction_lots"
WHERE "auction_lots"."auction_id" = "bid_effects"."auction_id";
