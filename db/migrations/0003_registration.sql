CREATE TABLE "registration_access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_request_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"privacy_policy_version" text,
	"privacy_policy_accepted_at" timestamp with time zone,
	"terms_version" text,
	"terms_accepted_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_access_tokens_registration_request_id_unique" UNIQUE("registration_request_id"),
	CONSTRAINT "registration_access_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "registration_access_tokens_order_check" CHECK ("registration_access_tokens"."terms_accepted_at" is null or "registration_access_tokens"."privacy_policy_accepted_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "registration_code_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"mobile_number" text NOT NULL,
	"client_address" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"role" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "registration_contacts_role_check" CHECK ("registration_contacts"."role" in ('primary', 'alternate', 'accounting', 'sales', 'operations'))
);
--> statement-breakpoint
CREATE TABLE "registration_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"organization_name" text NOT NULL,
	"organization_type" smallint NOT NULL,
	"mobile_number" text NOT NULL,
	"code_salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"attempts_left" smallint DEFAULT 5 NOT NULL,
	"codes_sent" smallint DEFAULT 1 NOT NULL,
	"last_code_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_requests_type_check" CHECK ("registration_requests"."organization_type" in (2, 3, 4)),
	CONSTRAINT "registration_requests_attempts_check" CHECK ("registration_requests"."attempts_left" >= 0)
);
--> statement-breakpoint
CREATE TABLE "registration_service_areas" (
	"registration_id" integer NOT NULL,
	"service_area_id" integer NOT NULL,
	CONSTRAINT "registration_service_areas_registration_id_service_area_id_pk" PRIMARY KEY("registration_id","service_area_id")
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"access_token_id" integer NOT NULL,
	"organization_type" smallint NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"country_code" text NOT NULL,
	"postal_zip" text NOT NULL,
	"phone" text NOT NULL,
	"fax" text,
	"email" text NOT NULL,
	"primary_industry_id" integer NOT NULL,
	"billing_preference" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by_user_id" integer,
	CONSTRAINT "registrations_access_token_id_unique" UNIQUE("access_token_id"),
	CONSTRAINT "registrations_type_check" CHECK ("registrations"."organization_type" in (2, 3, 4)),
	CONSTRAINT "registrations_status_check" CHECK ("registrations"."status" in ('submitted', 'approved', 'rejected')),
	CONSTRAINT "registrations_billing_preference_check" CHECK ("registrations"."billing_preference" is null or "registrations"."billing_preference" in ('Open Invoice', 'Cortex', 'Email Invoice', 'Mail Invoice'))
);
--> statement-breakpoint
ALTER TABLE "registration_access_tokens" ADD CONSTRAINT "registration_access_tokens_registration_request_id_registration_requests_id_fk" FOREIGN KEY ("registration_request_id") REFERENCES "public"."registration_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_contacts" ADD CONSTRAINT "registration_contacts_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_service_areas" ADD CONSTRAINT "registration_service_areas_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_service_areas" ADD CONSTRAINT "registration_service_areas_service_area_id_service_areas_id_fk" FOREIGN KEY ("service_area_id") REFERENCES "public"."service_areas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_access_token_id_registration_access_tokens_id_fk" FOREIGN KEY ("access_token_id") REFERENCES "public"."registration_access_tokens"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_country_code_countries_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_primary_industry_id_industries_id_fk" FOREIGN KEY ("primary_industry_id") REFERENCES "public"."industries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registration_code_sends_mobile_idx" ON "registration_code_sends" USING btree ("mobile_number","sent_at");--> statement-breakpoint
CREATE INDEX "registration_code_sends_client_idx" ON "registration_code_sends" USING btree ("client_address","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "registration_contacts_role_idx" ON "registration_contacts" USING btree ("registration_id","role");--> statement-breakpoint
CREATE INDEX "registration_requests_mobile_idx" ON "registration_requests" USING btree ("mobile_number","id");--> statement-breakpoint
CREATE INDEX "registration_service_areas_area_idx" ON "registration_service_areas" USING btree ("service_area_id");--> statement-breakpoint
CREATE INDEX "registrations_status_idx" ON "registrations" USING btree ("status","submitted_at");