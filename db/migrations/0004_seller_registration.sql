CREATE TABLE "key_person_certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"sort_order" smallint NOT NULL,
	"certification_option_id" integer NOT NULL,
	"expires_on" date
);
--> statement-breakpoint
CREATE TABLE "key_person_education" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"sort_order" smallint NOT NULL,
	"program_name" text NOT NULL,
	"cert_degree" text,
	"start_year" smallint,
	"end_year" smallint,
	CONSTRAINT "key_person_education_start_year_check" CHECK ("key_person_education"."start_year" is null or "key_person_education"."start_year" between 1950 and 2200),
	CONSTRAINT "key_person_education_end_year_check" CHECK ("key_person_education"."end_year" is null or "key_person_education"."end_year" between 1950 and 2200)
);
--> statement-breakpoint
CREATE TABLE "key_person_work_experiences" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"sort_order" smallint NOT NULL,
	"company_name" text NOT NULL,
	"position" text,
	"start_year" smallint,
	"end_year" smallint,
	"responsibilities" text,
	CONSTRAINT "key_person_work_experiences_start_year_check" CHECK ("key_person_work_experiences"."start_year" is null or "key_person_work_experiences"."start_year" between 1950 and 2200),
	CONSTRAINT "key_person_work_experiences_end_year_check" CHECK ("key_person_work_experiences"."end_year" is null or "key_person_work_experiences"."end_year" between 1950 and 2200)
);
--> statement-breakpoint
CREATE TABLE "registration_services" (
	"registration_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	CONSTRAINT "registration_services_registration_id_service_id_pk" PRIMARY KEY("registration_id","service_id")
);
--> statement-breakpoint
CREATE TABLE "registration_wcbs" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"sort_order" smallint NOT NULL,
	"state" text NOT NULL,
	"number" text NOT NULL,
	"expires_on" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_registrations" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"sa_written_safety_program" boolean,
	"sa_conduct_hazard_assessments" boolean,
	"sa_safe_work_procedures" boolean,
	"sa_one_man_op" boolean,
	"sa_third_party_sub" boolean,
	"sc_comply_works_expiry" date,
	"sc_isnet_world_expiry" date,
	"sc_secor_expiry" date,
	"in_commercial_general" text NOT NULL,
	"in_commercial_general_expiry" date NOT NULL,
	"in_third_party_automobile" text NOT NULL,
	"in_third_party_automobile_expiry" date NOT NULL,
	"in_aircraft" text DEFAULT 'No' NOT NULL,
	"in_aircraft_expiry" date,
	"in_pollution" text DEFAULT 'No' NOT NULL,
	"in_pollution_expiry" date,
	"in_fire" text DEFAULT 'No' NOT NULL,
	"in_fire_expiry" date,
	"in_errors_omissions" text DEFAULT 'No' NOT NULL,
	"in_errors_omissions_expiry" date,
	"in_wcb_coverage_number" text,
	"in_wcb_expiry" date,
	"feedback" text,
	"payment_status" text NOT NULL,
	"payment_provider" text NOT NULL,
	"payment_customer_id" text,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"checkout_session_id" text,
	"card_saved_at" timestamp with time zone,
	CONSTRAINT "seller_registrations_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "seller_registrations_required_insurance_check" CHECK ("seller_registrations"."in_commercial_general" in ('$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million') and "seller_registrations"."in_third_party_automobile" in ('$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million')),
	CONSTRAINT "seller_registrations_optional_insurance_check" CHECK ("seller_registrations"."in_aircraft" in ('No', '$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million') and "seller_registrations"."in_pollution" in ('No', '$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million')
        and "seller_registrations"."in_fire" in ('No', '$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million') and "seller_registrations"."in_errors_omissions" in ('No', '$500,000 - $1,000,000', '$1,000,000 minimum', '$2,000,000 minimum', '$5,000,000 minimum', 'more than $5 million')),
	CONSTRAINT "seller_registrations_optional_expiry_check" CHECK (("seller_registrations"."in_aircraft" = 'No' or "seller_registrations"."in_aircraft_expiry" is not null)
        and ("seller_registrations"."in_pollution" = 'No' or "seller_registrations"."in_pollution_expiry" is not null)
        and ("seller_registrations"."in_fire" = 'No' or "seller_registrations"."in_fire_expiry" is not null)
        and ("seller_registrations"."in_errors_omissions" = 'No' or "seller_registrations"."in_errors_omissions_expiry" is not null)),
	CONSTRAINT "seller_registrations_payment_check" CHECK (("seller_registrations"."payment_status" = 'awaiting_payment' and "seller_registrations"."checkout_session_id" is not null)
        or ("seller_registrations"."payment_status" = 'card_saved' and "seller_registrations"."payment_customer_id" is not null and "seller_registrations"."payment_method_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "registration_contacts" ADD COLUMN "experience" text;--> statement-breakpoint
ALTER TABLE "registration_contacts" ADD COLUMN "skills" text;--> statement-breakpoint
ALTER TABLE "key_person_certifications" ADD CONSTRAINT "key_person_certifications_contact_id_registration_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."registration_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_person_certifications" ADD CONSTRAINT "key_person_certifications_certification_option_id_certification_options_id_fk" FOREIGN KEY ("certification_option_id") REFERENCES "public"."certification_options"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_person_education" ADD CONSTRAINT "key_person_education_contact_id_registration_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."registration_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_person_work_experiences" ADD CONSTRAINT "key_person_work_experiences_contact_id_registration_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."registration_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_services" ADD CONSTRAINT "registration_services_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_services" ADD CONSTRAINT "registration_services_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_wcbs" ADD CONSTRAINT "registration_wcbs_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_registrations" ADD CONSTRAINT "seller_registrations_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_person_certifications_contact_idx" ON "key_person_certifications" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "key_person_education_contact_idx" ON "key_person_education" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "key_person_work_experiences_contact_idx" ON "key_person_work_experiences" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "registration_services_service_idx" ON "registration_services" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "registration_wcbs_registration_idx" ON "registration_wcbs" USING btree ("registration_id");