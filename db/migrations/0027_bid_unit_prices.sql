DROP TABLE "auction_bid_lines" CASCADE;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD COLUMN "unit_cents" bigint[];--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_unit_check" CHECK ("auction_bids"."unit_cents" is null or 0 <= all("auction_bids"."unit_cents"));