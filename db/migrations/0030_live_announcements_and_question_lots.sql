ALTER TABLE "users" ADD COLUMN "live_announcements" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "auction_questions" ADD COLUMN "lot_id" integer;--> statement-breakpoint
ALTER TABLE "auction_questions" ADD CONSTRAINT "auction_questions_lot_id_auction_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."auction_lots"("id") ON DELETE set null ON UPDATE no action;