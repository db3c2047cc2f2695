ALTER TABLE "auction_lots" ADD COLUMN "awarded_bid_id" bigint;--> statement-breakpoint
ALTER TABLE "auction_lots" ADD COLUMN "awarded_organization_id" integer;--> statement-breakpoint
ALTER TABLE "auction_lots" ADD COLUMN "award_reason" text;--> statement-breakpoint
ALTER TABLE "auction_lots" ADD CONSTRAINT "auction_lots_awarded_organization_id_organizations_id_fk" FOREIGN KEY ("awarded_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;