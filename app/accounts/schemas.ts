import { z } from "zod";
import { emailField, textField } from "~/forms/text-schema";

// One schema per form, used by useForm in the browser and by the action on the server.

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

export const signInSchema = z.object({
  email: emailField(),
  password: z.string({ error: "Please enter a password" }).max(MAX_PASSWORD_LENGTH, "Invalid username or password."),
  // Never stored: safeRedirect reads it as the browser would and falls back to /account, so a link
  // with a tab or a newline in its ref still signs the visitor in.
  redirectTo: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email: emailField() });

const passwordFields = {
  newPassword: z
    .string({ error: "Please enter a new password" })
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
  confirmPassword: z.string({ error: "Please confirm your new password" }),
};

const passwordsMatch = (value: { newPassword: string; confirmPassword: string }) =>
  value.newPassword === value.confirmPassword;
const mismatch = {
  path: ["confirmPassword"],
  message: "Passwords do not match.",
  // Also checked when another field (the timezone) is missing, so every problem shows at once.
  when: (payload: { issues: { path?: PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => issue.path?.[0] === "newPassword" || issue.path?.[0] === "confirmPassword"),
};

export const newPasswordSchema = z.object(passwordFields).refine(passwordsMatch, mismatch);

export const accountSetupSchema = z
  .object({ ...passwordFields, timezone: textField({ error: "Please select a timezone", trim: false }).max(64) })
  .refine(passwordsMatch, mismatch);

/** Addresses are compared trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
