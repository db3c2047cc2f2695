import { z } from "zod";
import { textField } from "~/forms/text-schema";

// The decisions of /staff/registrations/{id}: one schema for its forms (approve, ask for changes,
// reject, send the setup link again, and the confirmation of each), told apart by `intent`. The
// first post of a decision answers with the question; the second (confirm=yes) decides.

export const REASON_REQUIRED = "Please give the reason for rejecting this registration";
export const MESSAGE_REQUIRED = "Please say which changes the applicant should make";
/** A post that is none of the decisions (only a hand-made one is): its message goes at the reason field. */
export const CHOOSE_A_DECISION = "Please choose a decision";

export const decisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("reject"),
    reason: textField({ error: REASON_REQUIRED, multiline: true })
      .min(1, REASON_REQUIRED)
      .max(2000, "Please use at most 2000 characters"),
    confirm: z.literal("yes").optional(),
  }),
  z.object({
    intent: z.literal("request-changes"),
    message: textField({ error: MESSAGE_REQUIRED, multiline: true })
      .min(1, MESSAGE_REQUIRED)
      .max(2000, "Please use at most 2000 characters"),
    confirm: z.literal("yes").optional(),
  }),
]);
export type Decision = z.infer<typeof decisionSchema>;
