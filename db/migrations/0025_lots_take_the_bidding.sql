ALTER TABLE "auctions" DROP CONSTRAINT "auctions_decrement_check";--> statement-breakpoint
ALTER TABLE "auctions" DROP CONSTRAINT "auctions_leader_organization_id_organizations_id_fk";
--> statement-breakpoint
DROP INDEX "auction_auto_bids_seller_idx";--> statement-breakpoint
DROP INDEX "auction_bids_seller_idx";--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ALTER COLUMN "lot_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "auction_bids" ALTER COLUMN "lot_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bid_effects" ALTER COLUMN "lot_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "auction_auto_bids_auction_idx" ON "auction_auto_bids" USING btree ("auction_id","organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_auto_bids_seller_idx" ON "auction_auto_bids" USING btree ("lot_id","organization_id");--> statement-breakpoint
CREATE INDEX "auction_bids_seller_idx" ON "auction_bids" USING btree ("auction_id","organization_id","lot_id","amount_cents");--> statement-breakpoint
ALTER TABLE "auctions" DROP COLUMN "decrement_kind";--> statement-breakpoint
ALTER TABLE "auctions" DROP COLUMN "decrement_value";--> statement-breakpoint
ALTER TABLE "auctions" DROP COLUMN "lowest_bid_id";--> statement-breakpoint
ALTER TABLE "auctions" DROP COLUMN "lowest_cents";--> statement-breakpoint
ALTER TABLE "auctions" DROP COLUMN "leader_organization_id";