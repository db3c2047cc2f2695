import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { accountSetupSchema, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../schemas";

// The API's payloads (spec section 7): the same rules as the forms, without the confirmation field.

const token = textField({ error: "Please check the link and try again.", trim: false }).min(
  1,
  "Please check the link and try again.",
);
const newPassword = z
  .string({ error: "Please enter a new password" })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const verifyTokenPayload = z.object({ passwordResetToken: token });
export const tokenSetPasswordPayload = z.object({ passwordResetToken: token, newPassword });
export const setupAccountPayload = z.object({
  passwordResetToken: token,
  newPassword,
  timezone: accountSetupSchema.shape.timezone,
});

// Their answers, as the API description publishes them (app/api-description/).

const ACCOUNT_TOKEN_PURPOSES = ["password_reset", "set_password", "account_setup"] as const;

export const signedInAnswer = z.object({
  user: z.object({ id: z.int(), email: z.string(), role: z.literal([1, 2, 3, 4]) }),
});
export const messageAnswer = z.object({ message: z.string() });
export const usableTokenAnswer = z.object({ valid: z.literal(true), purpose: z.enum(ACCOUNT_TOKEN_PURPOSES) });
