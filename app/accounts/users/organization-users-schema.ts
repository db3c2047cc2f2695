import { z } from "zod";
import { emailField, textField } from "~/forms/text-schema";
import { idField } from "~/shared/ids";

// The two forms of /account/users: the administrator's invitation, and the removal (a button per
// user, then its confirmation). Used by the action and, for the invitation, by useForm.

export const invitationSchema = z.object({
  intent: z.literal("invite"),
  email: emailField(),
  firstName: textField({ error: "Please enter a first name" }).min(1, "Please enter a first name").max(100),
  lastName: textField({ error: "Please enter a last name" }).min(1, "Please enter a last name").max(100),
});

// The page names what to remove by its address (a user or a pending invitation alike); a user id,
// as before issue 17, still works for the users the list shows.
export const removalSchema = z.union([
  z.object({
    intent: z.literal("remove"),
    email: textField().min(1).max(254),
    confirm: z.literal("yes").optional(),
  }),
  z.object({
    intent: z.literal("remove"),
    userId: idField("Please choose a user"),
    confirm: z.literal("yes").optional(),
  }),
]);

export const REMOVAL_REFUSED = "Please choose a user to remove.";
export const NOT_IN_ORGANIZATION = "That user is not in your organization.";
export const CANNOT_REMOVE_SELF = "You cannot remove yourself.";
