CREATE TABLE "auction_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"asked_by_user_id" integer,
	"question" text NOT NULL,
	"attachment_name" text,
	"attachment_type" text,
	"attachment_size_bytes" integer,
	"attachment" "bytea",
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_by_user_id" integer,
	"answered_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"terms_changed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "auction_questions_answer_check" CHECK (("auction_questions"."answer" is null) = ("auction_questions"."answered_at" is null)),
	CONSTRAINT "auction_questions_published_check" CHECK ("auction_questions"."published_at" is null or "auction_questions"."answered_at" is not null),
	CONSTRAINT "auction_questions_attachment_check" CHECK (("auction_questions"."attachment" is null) = ("auction_questions"."attachment_name" is null))
);
--> statement-breakpoint
ALTER TABLE "auction_questions" ADD CONSTRAINT "auction_questions_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_questions" ADD CONSTRAINT "auction_questions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_questions" ADD CONSTRAINT "auction_questions_asked_by_user_id_users_id_fk" FOREIGN KEY ("asked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_questions" ADD CONSTRAINT "auction_questions_answered_by_user_id_users_id_fk" FOREIGN KEY ("answered_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auction_questions_auction_idx" ON "auction_questions" USING btree ("auction_id","organization_id");