CREATE TABLE "auction_auto_bids" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"minimum_cents" bigint NOT NULL,
	"entered_sequence" integer NOT NULL,
	"set_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_auto_bids_minimum_check" CHECK ("auction_auto_bids"."minimum_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "auction_bids" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"amount_cents" bigint NOT NULL,
	"kind" text NOT NULL,
	"rank" integer NOT NULL,
	"triggered_by_bid_id" bigint,
	"triggered_by_auto_bid_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_bids_kind_check" CHECK ("auction_bids"."kind" in ('manual', 'auto')),
	CONSTRAINT "auction_bids_amount_check" CHECK ("auction_bids"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "auction_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auction_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"organization_id" integer,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auction_invitations" (
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"alias" text NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"terms_accepted_at" timestamp with time zone,
	"terms_accepted_by_user_id" integer,
	CONSTRAINT "auction_invitations_auction_id_organization_id_pk" PRIMARY KEY("auction_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "auctions" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"created_by_user_id" integer,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"service_id" integer NOT NULL,
	"service_area_id" integer NOT NULL,
	"reserve_cents" bigint NOT NULL,
	"decrement_kind" text NOT NULL,
	"decrement_value" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"scheduled_ends_at" timestamp with time zone NOT NULL,
	"soft_close_window_minutes" smallint NOT NULL,
	"soft_close_extension_minutes" smallint NOT NULL,
	"soft_close_cap_minutes" integer NOT NULL,
	"extensions" smallint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"lowest_bid_id" bigint,
	"lowest_cents" bigint,
	"leader_organization_id" integer,
	"bid_count" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"awarded_bid_id" bigint,
	"awarded_organization_id" integer,
	"award_reason" text,
	"awarded_at" timestamp with time zone,
	"awarded_by_user_id" integer,
	"buyer_fee_cents" integer,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auctions_status_check" CHECK ("auctions"."status" in ('draft', 'scheduled', 'open', 'closed', 'awarded', 'cancelled')),
	CONSTRAINT "auctions_decrement_check" CHECK ("auctions"."decrement_kind" in ('amount', 'percent') and "auctions"."decrement_value" > 0),
	CONSTRAINT "auctions_reserve_check" CHECK ("auctions"."reserve_cents" > 0),
	CONSTRAINT "auctions_times_check" CHECK ("auctions"."starts_at" < "auctions"."scheduled_ends_at" and "auctions"."scheduled_ends_at" <= "auctions"."ends_at"),
	CONSTRAINT "auctions_soft_close_check" CHECK ("auctions"."soft_close_window_minutes" >= 0 and "auctions"."soft_close_extension_minutes" >= 0 and "auctions"."soft_close_cap_minutes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ADD CONSTRAINT "auction_auto_bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ADD CONSTRAINT "auction_auto_bids_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_auto_bids" ADD CONSTRAINT "auction_auto_bids_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_triggered_by_bid_id_auction_bids_id_fk" FOREIGN KEY ("triggered_by_bid_id") REFERENCES "public"."auction_bids"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bids" ADD CONSTRAINT "auction_bids_triggered_by_auto_bid_id_auction_auto_bids_id_fk" FOREIGN KEY ("triggered_by_auto_bid_id") REFERENCES "public"."auction_auto_bids"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_documents" ADD CONSTRAINT "auction_documents_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_documents" ADD CONSTRAINT "auction_documents_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_events" ADD CONSTRAINT "auction_events_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_events" ADD CONSTRAINT "auction_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_events" ADD CONSTRAINT "auction_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_invitations" ADD CONSTRAINT "auction_invitations_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_invitations" ADD CONSTRAINT "auction_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_invitations" ADD CONSTRAINT "auction_invitations_terms_accepted_by_user_id_users_id_fk" FOREIGN KEY ("terms_accepted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_service_area_id_service_areas_id_fk" FOREIGN KEY ("service_area_id") REFERENCES "public"."service_areas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_leader_organization_id_organizations_id_fk" FOREIGN KEY ("leader_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_awarded_organization_id_organizations_id_fk" FOREIGN KEY ("awarded_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_awarded_by_user_id_users_id_fk" FOREIGN KEY ("awarded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_auto_bids_seller_idx" ON "auction_auto_bids" USING btree ("auction_id","organization_id");--> statement-breakpoint
CREATE INDEX "auction_bids_auction_idx" ON "auction_bids" USING btree ("auction_id","id");--> statement-breakpoint
CREATE INDEX "auction_bids_seller_idx" ON "auction_bids" USING btree ("auction_id","organization_id");--> statement-breakpoint
CREATE INDEX "auction_documents_auction_idx" ON "auction_documents" USING btree ("auction_id");--> statement-breakpoint
CREATE INDEX "auction_events_auction_idx" ON "auction_events" USING btree ("auction_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_invitations_alias_idx" ON "auction_invitations" USING btree ("auction_id","alias");--> statement-breakpoint
CREATE INDEX "auction_invitations_organization_idx" ON "auction_invitations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "auctions_organization_idx" ON "auctions" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "auctions_status_ends_idx" ON "auctions" USING btree ("status","ends_at");