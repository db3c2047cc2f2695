ALTER TABLE "auctions" ADD COLUMN "practice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "copied_from_auction_id" integer;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_copied_from_auction_id_auctions_id_fk" FOREIGN KEY ("copied_from_auction_id") REFERENCES "public"."auctions"("id") ON DELETE set null ON UPDATE no action;