CREATE TABLE "card_update_checkouts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"subject" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_change_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_change_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "registration_decisions" DROP CONSTRAINT "registration_decisions_decision_check";--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_status_check";--> statement-breakpoint
DROP INDEX "registration_decisions_registration_idx";--> statement-breakpoint
ALTER TABLE "card_update_checkouts" ADD CONSTRAINT "card_update_checkouts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_update_checkouts" ADD CONSTRAINT "card_update_checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_changes" ADD CONSTRAINT "organization_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_changes" ADD CONSTRAINT "organization_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_change_tokens" ADD CONSTRAINT "registration_change_tokens_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_changes_organization_idx" ON "organization_changes" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "registration_change_tokens_registration_idx" ON "registration_change_tokens" USING btree ("registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registration_decisions_final_idx" ON "registration_decisions" USING btree ("registration_id") WHERE "registration_decisions"."decision" in ('approved', 'rejected');--> statement-breakpoint
CREATE INDEX "registration_decisions_registration_idx" ON "registration_decisions" USING btree ("registration_id","created_at");--> statement-breakpoint
ALTER TABLE "registration_decisions" ADD CONSTRAINT "registration_decisions_decision_check" CHECK ("registration_decisions"."decision" in ('approved', 'rejected', 'changes_requested', 'resubmitted'));--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_status_check" CHECK ("registrations"."status" in ('submitted', 'changes_requested', 'approved', 'rejected'));