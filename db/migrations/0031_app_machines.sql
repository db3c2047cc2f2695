CREATE TABLE "app_machines" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
