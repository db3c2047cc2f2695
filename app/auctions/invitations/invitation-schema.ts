import { z } from "zod";
import { parseId } from "~/shared/ids";

// The sellers page's two forms: invite the ticked sellers, and remove one invitation (a button per
// invited seller, `intent=remove`). One schema each, for the action and the browser.

export const CHOOSE_A_SELLER = "Please choose at least one seller to invite";

/** The id from the form, or 0 (no such seller: the invitation check refuses it). */
const organizationNumber = (value: string) => parseId(value) ?? 0;

export const inviteSellersSchema = z.object({
  // Values that are not ids are ignored; none left is the same as none ticked.
  sellers: z.array(z.string()).transform((values, context) => {
    const ids = values.map((value) => parseId(value)).filter((id) => id !== undefined);
    if (ids.length > 0) return ids;
    context.addIssue({ code: "custom", message: CHOOSE_A_SELLER });
    return z.NEVER;
  }),
});

export const removeInvitationSchema = z.object({
  intent: z.literal("remove"),
  organizationId: z.string().default("").transform(organizationNumber),
});
