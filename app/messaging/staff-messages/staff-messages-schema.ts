import { z } from "zod";
import { idField } from "~/shared/ids";

/** The "Resend" button of one message on /staff/messages. */
export const resendForm = z.object({
  intent: z.literal("resend"),
  messageId: idField("Please choose a message to resend"),
});

export const MESSAGE_STATES = [
  { value: "queued", label: "Queued" },
  { value: "sending", label: "Sending" },
  { value: "sent", label: "Sent" },
  { value: "failed", label: "Failed" },
] as const;
export type MessageState = (typeof MESSAGE_STATES)[number]["value"];

export const RESEND_REFUSED = "This message cannot be resent: only a sent or failed message can.";
