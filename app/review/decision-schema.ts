import { z } from "zod";
import { textField } from "~/forms/text-schema";

// The decisions of /staff/registrations/{id}: one schema for its forms (approve, ask for changes,
// reject, send the setup link again, and the confirmation of each), told apart by `intent`. The
// first post of a decision answers with the question; the second (confirm=yes) decides.

export const REASON_REQUIRED = "Please give the reason for rejecting this registration";
export const MESSAGE_REQUIRED = "Please say which changes the applicant should make";
/** A post that is none of the decisions (only a hand-made one is): its message goes at the reason field. */
export const CHOOSE_A_DECISION = "Please choose a decision";

/** The reason for a refusal or the changes asked for: the applicant reads it in an e-mail. */
const explanation = (required: string) =>
  textField({ error: required, multiline: true }).min(1, required).max(2000, "Please use at most 2000 characters");

export const decisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("reject"),
    reason: explanation(REASON_REQUIRED),
    confirm: z.literal("yes").optional(),
  }),
  z.object({
    intent: z.literal("request-changes"),
    message: explanation(MESSAGE_REQUIRED),
    confirm: z.literal("yes").optional(),
  }),
]);
export type Decision = z.infer<typeof decisionSchema>;
