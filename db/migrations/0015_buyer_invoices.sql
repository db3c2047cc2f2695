CREATE TABLE "credit_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"sequence" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"gst_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_by_user_id" integer,
	"pdf" "bytea" NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_sequence_unique" UNIQUE("sequence"),
	CONSTRAINT "credit_notes_amounts_check" CHECK ("credit_notes"."amount_cents" > 0 and "credit_notes"."gst_cents" >= 0 and "credit_notes"."total_cents" = "credit_notes"."amount_cents" + "credit_notes"."gst_cents")
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"file_name" text NOT NULL,
	"csv" text NOT NULL,
	"invoice_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" integer,
	CONSTRAINT "invoice_exports_network_check" CHECK ("invoice_exports"."network" in ('Open Invoice', 'Cortex'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"sequence" integer NOT NULL,
	"auction_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"auction_title" text NOT NULL,
	"bill_to_name" text NOT NULL,
	"bill_to_contact" text,
	"bill_to_email" text,
	"bill_to_address" text NOT NULL,
	"billing_preference" text NOT NULL,
	"fee_cents" integer NOT NULL,
	"gst_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"pdf" "bytea" NOT NULL,
	"delivery_state" text NOT NULL,
	"emailed_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	"mailed_by_user_id" integer,
	"exported_at" timestamp with time zone,
	"export_id" integer,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_sequence_unique" UNIQUE("sequence"),
	CONSTRAINT "invoices_auction_id_unique" UNIQUE("auction_id"),
	CONSTRAINT "invoices_billing_preference_check" CHECK ("invoices"."billing_preference" in ('Email Invoice', 'Mail Invoice', 'Open Invoice', 'Cortex')),
	CONSTRAINT "invoices_delivery_state_check" CHECK ("invoices"."delivery_state" in ('to_email', 'emailed', 'to_mail', 'mailed', 'to_export', 'exported')),
	CONSTRAINT "invoices_delivery_by_preference_check" CHECK (case "invoices"."billing_preference"
        when 'Email Invoice' then "invoices"."delivery_state" in ('to_email', 'emailed')
        when 'Mail Invoice' then "invoices"."delivery_state" in ('to_mail', 'mailed')
        else "invoices"."delivery_state" in ('to_export', 'exported') end),
	CONSTRAINT "invoices_delivery_marks_check" CHECK (("invoices"."delivery_state" = 'mailed') = ("invoices"."mailed_at" is not null)
        and ("invoices"."delivery_state" = 'exported') = ("invoices"."export_id" is not null and "invoices"."exported_at" is not null)),
	CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."fee_cents" >= 0 and "invoices"."gst_cents" >= 0 and "invoices"."total_cents" = "invoices"."fee_cents" + "invoices"."gst_cents")
);
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_issued_by_user_id_users_id_fk" FOREIGN KEY ("issued_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_exports" ADD CONSTRAINT "invoice_exports_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_mailed_by_user_id_users_id_fk" FOREIGN KEY ("mailed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_export_id_invoice_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."invoice_exports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_organization_idx" ON "invoices" USING btree ("organization_id","issued_at");--> statement-breakpoint
CREATE INDEX "invoices_state_idx" ON "invoices" USING btree ("delivery_state","billing_preference","sequence");