import { z } from "zod";

/** The "Retry now" button of one failed event on /staff/payment-events. */
export const retryEventForm = z.object({
  intent: z.literal("retry"),
  eventId: z
    .string({ error: "Please choose an event to retry" })
    .trim()
    .regex(/^[A-Za-z0-9_]{1,255}$/, "Please choose an event to retry"),
});

/** The stored states, in staff's words. */
export const EVENT_STATES = [
  { value: "received", label: "Waiting" },
  { value: "processed", label: "Applied" },
  { value: "ignored", label: "Ignored" },
  { value: "failed", label: "Failed" },
] as const;
export type EventState = (typeof EVENT_STATES)[number]["value"];

export const RETRY_REFUSED = "This event cannot be retried: only a failed event can.";
