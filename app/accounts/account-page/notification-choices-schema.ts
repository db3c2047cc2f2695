import { z } from "zod";
import { OPTIONAL_NOTIFICATION_KINDS } from "~/notifications/notification-kinds";
import type { NotificationKind } from "~db/notification-kinds";

// The e-mail choices form of /account: the ticked optional notifications (unticked boxes are not sent).

export const CHOOSE_FROM_THE_LIST = "Please choose from the list.";

export const notificationChoicesSchema = z.object({
  intent: z.literal("notifications"),
  email: z.array(z.enum(OPTIONAL_NOTIFICATION_KINDS as [NotificationKind, ...NotificationKind[]])).max(20),
});
