ALTER TABLE "auction_auto_bids" ADD COLUMN "on_behalf_note" text;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD COLUMN "entered_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD COLUMN "on_behalf_note" text;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_entered_by_user_id_users_id_fk" FOREIGN KEY ("entered_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_on_behalf_check" CHECK ("auction_bids"."on_behalf_note" is null or "auction_bids"."kind" = 'manual');