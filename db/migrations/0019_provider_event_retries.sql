ALTER TABLE "provider_events" RENAME COLUMN "error" TO "last_error";--> statement-breakpoint
DROP INDEX "provider_events_pending_idx";--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "provider_events_received_idx" ON "provider_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "provider_events_pending_idx" ON "provider_events" USING btree ("state","next_attempt_at");