CREATE TABLE "auction_bid_requirements" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_order" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluation_criteria" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"name" text NOT NULL,
	"weight" smallint NOT NULL,
	"sort_order" smallint NOT NULL,
	CONSTRAINT "evaluation_criteria_weight_check" CHECK ("evaluation_criteria"."weight" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "evaluation_scores" (
	"criterion_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"score" smallint NOT NULL,
	"comment" text,
	"scored_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evaluation_scores_criterion_id_organization_id_pk" PRIMARY KEY("criterion_id","organization_id"),
	CONSTRAINT "evaluation_scores_score_check" CHECK ("evaluation_scores"."score" between 0 and 10)
);
--> statement-breakpoint
CREATE TABLE "evaluation_verdicts" (
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"unacceptable" boolean DEFAULT false NOT NULL,
	"comment" text,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evaluation_verdicts_auction_id_organization_id_pk" PRIMARY KEY("auction_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "notification_opt_outs" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "notification_opt_outs_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"auction_id" integer,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"emailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sealed_bid_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"sealed_bid_id" integer NOT NULL,
	"requirement_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sealed_bids" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"submitted_by_user_id" integer,
	"revision" integer DEFAULT 0 NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sealed_bids_amount_check" CHECK ("sealed_bids"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "kind" text DEFAULT 'reverse' NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "evaluator_organization_id" integer;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "price_weight_percent" smallint DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "technical_pass_mark" smallint;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "evaluation_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auction_bid_requirements" ADD CONSTRAINT "auction_bid_requirements_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_criteria" ADD CONSTRAINT "evaluation_criteria_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_scores" ADD CONSTRAINT "evaluation_scores_criterion_id_evaluation_criteria_id_fk" FOREIGN KEY ("criterion_id") REFERENCES "public"."evaluation_criteria"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_scores" ADD CONSTRAINT "evaluation_scores_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_scores" ADD CONSTRAINT "evaluation_scores_scored_by_user_id_users_id_fk" FOREIGN KEY ("scored_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_verdicts" ADD CONSTRAINT "evaluation_verdicts_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_verdicts" ADD CONSTRAINT "evaluation_verdicts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_verdicts" ADD CONSTRAINT "evaluation_verdicts_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_opt_outs" ADD CONSTRAINT "notification_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bid_documents" ADD CONSTRAINT "sealed_bid_documents_sealed_bid_id_sealed_bids_id_fk" FOREIGN KEY ("sealed_bid_id") REFERENCES "public"."sealed_bids"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bid_documents" ADD CONSTRAINT "sealed_bid_documents_requirement_id_auction_bid_requirements_id_fk" FOREIGN KEY ("requirement_id") REFERENCES "public"."auction_bid_requirements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bids" ADD CONSTRAINT "sealed_bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bids" ADD CONSTRAINT "sealed_bids_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_bids" ADD CONSTRAINT "sealed_bids_submitted_by_user_id_users_id_fk" FOREIGN KEY ("submitted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_bid_requirements_name_idx" ON "auction_bid_requirements" USING btree ("auction_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_criteria_name_idx" ON "evaluation_criteria" USING btree ("auction_id",lower("name"));--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_outbid_idx" ON "notifications" USING btree ("user_id","auction_id","kind","emailed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_bid_documents_requirement_idx" ON "sealed_bid_documents" USING btree ("sealed_bid_id","requirement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_bids_seller_idx" ON "sealed_bids" USING btree ("auction_id","organization_id");--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_evaluator_organization_id_organizations_id_fk" FOREIGN KEY ("evaluator_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_kind_check" CHECK ("auctions"."kind" in ('reverse', 'sealed'));--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_evaluation_check" CHECK ("auctions"."price_weight_percent" between 0 and 100 and ("auctions"."technical_pass_mark" is null or "auctions"."technical_pass_mark" between 0 and 100));