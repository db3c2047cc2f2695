CREATE TABLE "seller_subscriptions" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"subscription_id" text,
	"status" text NOT NULL,
	"trial_ends_at" timestamp with time zone,
	"amount_cents" integer NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seller_subscriptions_status_check" CHECK ("seller_subscriptions"."status" in ('trialing', 'active', 'failed')),
	CONSTRAINT "seller_subscriptions_provider_check" CHECK ("seller_subscriptions"."provider" in ('stripe', 'test'))
);
--> statement-breakpoint
ALTER TABLE "seller_subscriptions" ADD CONSTRAINT "seller_subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;