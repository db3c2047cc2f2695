CREATE TABLE "bid_effects" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"outbid_organization_ids" integer[] NOT NULL,
	"extended" boolean NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bid_effects" ADD CONSTRAINT "bid_effects_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bid_effects_auction_idx" ON "bid_effects" USING btree ("auction_id","id");--> statement-breakpoint
CREATE INDEX "bid_effects_created_idx" ON "bid_effects" USING btree ("created_at");