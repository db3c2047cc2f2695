CREATE TABLE "sealed_bid_lots" (
	"sealed_bid_id" integer NOT NULL,
	"lot_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"unit_cents" bigint[],
	CONSTRAINT "sealed_bid_lots_sealed_bid_id_lot_id_pk" PRIMARY KEY("sealed_bid_id","lot_id"),
	CONSTRAINT "sealed_bid_lots_amount_check" CHECK ("sealed_bid_lots"."amount_cents" > 0),
	CONSTRAINT "sealed_bid_lots_unit_check" CHECK ("sealed_bid_lots"."unit_cents" is null or 0 <= all("sealed_bid_lots"."unit_cents"))
);
--> statement-breakpoint
ALTER TABLE "sealed_bids" DROP CONSTRAINT "sealed_bids_unit_check";--> statement-breakpoint
ALTER TABLE "sealed_bid_lots" ADD CONSTRAINT "sealed_bid_lots_sealed_bid_id_sealed_bids_id_fk" FOREIGN KEY ("sealed_bid_id") REFERENCES "public"."sealed_bids"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bid_lots" ADD CONSTRAINT "sealed_bid_lots_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every sealed bid so far is on its auction's one lot: its amount and unit prices become that lot's.
INSERT INTO "sealed_bid_lots" ("sealed_bid_id", "lot_id", "amount_cents", "unit_cents")
SELECT "sb"."id",
	(SELECT "al"."id" FROM "auction_lots" "al" WHERE "al"."auction_id" = "sb"."auction_id" ORDER BY "al"."position" LIMIT 1),
	"sb"."amount_cents", "sb"."unit_cents"
FROM "sealed_bids" "sb";--> statement-breakpoint
ALTER TABLE "sealed_bids" DROP COLUMN "unit_cents";