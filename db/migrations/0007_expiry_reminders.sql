CREATE TABLE "expiry_reminders" (
	"organization_id" integer NOT NULL,
	"document" text NOT NULL,
	"expires_on" date NOT NULL,
	"days_before" smallint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expiry_reminders_organization_id_document_expires_on_days_before_pk" PRIMARY KEY("organization_id","document","expires_on","days_before")
);
--> statement-breakpoint
ALTER TABLE "expiry_reminders" ADD CONSTRAINT "expiry_reminders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;