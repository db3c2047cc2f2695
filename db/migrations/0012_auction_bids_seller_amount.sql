DROP INDEX "auction_bids_seller_idx";--> statement-breakpoint
CREATE INDEX "auction_bids_seller_idx" ON "auction_bids" USING btree ("auction_id","organization_id","amount_cents");