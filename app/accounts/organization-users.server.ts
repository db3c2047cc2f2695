import { and, asc, eq } from "drizzle-orm";
import { sendNotice } from "~/messaging/messaging.server";
import type { AppServices } from "~/platform/app-context";
import type { Database } from "~db/database.server";
import { users } from "~db/schema";
import { accountLinkUrl, issueAccountToken } from "./account-tokens.server";
import type { CurrentUser } from "./current-user";
import { announceSessionChange } from "./signed-in-users.server";

// An organization's users (issue 8): its administrator invites people by e-mail (a 7-day
// set-password link) and removes them. Invited users have the organization's role.

export async function listOrganizationUsers(db: Database, organizationId: number) {
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isOrganizationAdmin: users.isOrganizationAdmin,
      setUp: users.passwordHash,
    })
    .from(users)
    .where(eq(users.organizationId, organizationId))
    .orderBy(asc(users.id))
    .then((rows) => rows.map(({ setUp, ...row }) => ({ ...row, setUp: setUp !== null })));
}

export type Invitation = { email: string; firstName: string; lastName: string };

/**
 * Invites a new user by e-mail. An address that already has an account gets the same answer (so an
 * administrator cannot test addresses for accounts), nothing is written for it, and its owner is
 * e-mailed that someone tried to add them instead of the invitation: one transaction and one e-mail
 * either way.
 */
export async function inviteUser(
  services: AppServices,
  admin: CurrentUser & { organizationId: number },
  invitation: Invitation,
): Promise<{ kind: "invited" }> {
  const email = invitation.email.toLowerCase();
  const organizationName = admin.organizationName ?? "Upstream Marketplace";
  const token = await services.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing) return undefined;
    const [user] = await tx
      .insert(users)
      .values({
        email,
        role: admin.role,
        organizationId: admin.organizationId,
        firstName: invitation.firstName,
        lastName: invitation.lastName,
      })
      .returning({ id: users.id });
    if (!user) throw new Error("no user row");
    return issueAccountToken(tx, user.id, "set_password");
  });
  const inviter = admin.firstName ?? admin.email;
  const message = token
    ? {
        to: email,
        subject: `You have been invited to ${organizationName}`,
        text: [
          `${inviter} has invited you to the ${admin.organizationName ?? ""} account on Upstream Marketplace.`,
          "",
          "Choose your password here (the link works for 7 days):",
          accountLinkUrl(services.env.APP_URL, "set_password", token),
        ].join("\n"),
      }
    : {
        to: email,
        subject: `Someone at ${organizationName} tried to add you`,
        text: [
          `${inviter} at ${organizationName} tried to add this e-mail address as a user of their account on Upstream Marketplace.`,
          "",
          "You already have an Upstream Marketplace account with this address, so nothing was changed.",
          "If you have forgotten your password, you can choose a new one here:",
          `${services.env.APP_URL.replace(/\/+$/, "")}/forgot-password`,
        ].join("\n"),
      };
  await sendNotice(services.messaging, message, token ? "invitation e-mail" : "already-has-an-account e-mail");
  return { kind: "invited" };
}

/** Removes a user of the admin's organization; never the admin themself. */
export async function removeUser(
  db: Database,
  admin: CurrentUser & { organizationId: number },
  userId: number,
): Promise<"removed" | "not-found" | "self"> {
  if (userId === admin.id) return "self";
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(users)
      .where(and(eq(users.id, userId), eq(users.organizationId, admin.organizationId)))
      .returning({ id: users.id });
    if (removed.length === 0) return "not-found";
    await announceSessionChange(tx, { userId }); // signed out at once, on every machine
    return "removed";
  });
}
