import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import { AwaitedKind } from "~/messaging/message-kinds";
import type { AppServices } from "~/server/app-context";
import type { CurrentUser } from "~/sessions/current-user";
import { announceSessionChange } from "~/sessions/signed-in-users.server";
import type { Database, Transaction } from "~db/database.server";
import { organizationInvitations, users } from "~db/schema";
import { accountLinkUrl, issueAccountToken } from "../account-tokens.server";

// An organization's users (issue 8): its administrator invites people by e-mail (a 7-day
// set-password link) and removes them. Invited users have the organization's role.
//
// Issue 17: nothing on the page may tell the administrator whether an invited address already had an
// account. Every invitation is a row of organization_invitations, listed as "Invited" and removed by
// its address, whatever the address; only an invitation to a new address also makes a (not yet set
// up) user, which stays out of the list, and out of reach by its id, while its invitation is pending.

type Admin = CurrentUser & { organizationId: number };

/** A pending invitation's user: not set up yet, and removed only through the invitation. */
const hiddenBehindInvitation = (organizationId: number) =>
  and(
    isNull(users.passwordHash),
    sql`exists (select 1 from ${organizationInvitations} where ${organizationInvitations.userId} = ${users.id} and ${organizationInvitations.organizationId} = ${organizationId})`,
  );

export type OrganizationUserRow = {
  email: string;
  firstName: string | null;
  lastName: string | null;
  status: "active" | "invited";
  isOrganizationAdmin: boolean;
  isSelf: boolean;
};

/**
 * The organization's users, then its pending invitations. No row carries a user id: the page is
 * the same whether an invitation made a user or not.
 */
export async function listOrganizationUsers(db: Database, organizationId: number, selfId: number) {
  const members = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      isOrganizationAdmin: users.isOrganizationAdmin,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), sql`not (${hiddenBehindInvitation(organizationId)})`))
    .orderBy(asc(users.id));
  const invitations = await listPendingInvitations(db, organizationId);
  const rows: OrganizationUserRow[] = [
    ...members.map((member) => ({
      email: member.email,
      firstName: member.firstName,
      lastName: member.lastName,
      // A user the approval made (the first one) is "Invited" until they set up, as before.
      status: member.passwordHash === null ? ("invited" as const) : ("active" as const),
      isOrganizationAdmin: member.isOrganizationAdmin,
      isSelf: member.id === selfId,
    })),
    ...invitations.map((invitation) => ({
      ...invitation,
      status: "invited" as const,
      isOrganizationAdmin: false,
      isSelf: false,
    })),
  ];
  return rows;
}

/** Pending invitations: not yet accepted (an accepted one is deleted; a set-up user is a member). */
function listPendingInvitations(db: Database, organizationId: number) {
  return db
    .select({
      email: organizationInvitations.email,
      firstName: organizationInvitations.firstName,
      lastName: organizationInvitations.lastName,
    })
    .from(organizationInvitations)
    .leftJoin(users, eq(users.id, organizationInvitations.userId))
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        or(isNull(organizationInvitations.userId), isNull(users.passwordHash)),
      ),
    )
    .orderBy(asc(organizationInvitations.id));
}

export type Invitation = { email: string; firstName: string; lastName: string };

/**
 * Invites a new user by e-mail. An address that already has an account gets the same answer and the
 * same "Invited" row (so an administrator cannot test addresses for accounts), but that account is
 * neither changed nor given access: its owner is e-mailed that someone tried to add them instead of
 * the invitation. Inviting an address again updates its invitation (a new address gets a fresh link).
 * One transaction and at most one e-mail either way.
 */
export async function inviteUser(services: AppServices, admin: Admin, invitation: Invitation): Promise<void> {
  const email = invitation.email.trim().toLowerCase();
  const organizationName = admin.organizationName ?? "Upstream Marketplace";
  const inviter = admin.firstName ?? admin.email;
  await services.db.transaction(async (tx) => {
    const outcome = await decideInvitation(tx);
    // The e-mail is queued with what it announces.
    if (outcome.token) {
      await queueMessage(tx, services.messaging, {
        channel: "email",
        kind: AwaitedKind.Invitation,
        to: email,
        subject: `You have been invited to ${organizationName}`,
        text: [
          `${inviter} has invited you to the ${admin.organizationName ?? ""} account on Upstream Marketplace.`,
          "",
          "Choose your password here (the link works for 7 days):",
          accountLinkUrl(services.env.APP_URL, "set_password", outcome.token),
        ].join("\n"),
      });
    } else if (outcome.notify) {
      await queueMessage(tx, services.messaging, {
        channel: "email",
        kind: "already-has-an-account",
        to: email,
        subject: `Someone at ${organizationName} tried to add you`,
        text: [
          `${inviter} at ${organizationName} tried to add this e-mail address as a user of their account on Upstream Marketplace.`,
          "",
          "You already have an Upstream Marketplace account with this address, so nothing was changed.",
          "If you have forgotten your password, you can choose a new one here:",
          `${services.env.APP_URL.replace(/\/+$/, "")}/forgot-password`,
        ].join("\n"),
      });
    }
  });

  async function decideInvitation(tx: Transaction): Promise<{ token?: string; notify?: boolean }> {
    // Invitations of one address take turns (a double submit, two administrators at once).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organization-invitation:${email}`}))`);
    const [existing] = await tx
      .select({ id: users.id, organizationId: users.organizationId, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, email));
    if (!existing) {
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
      await recordInvitation(tx, admin, { ...invitation, email }, user.id);
      return { token: await issueAccountToken(tx, user.id, "set_password") };
    }
    if (existing.organizationId === admin.organizationId) {
      const [pending] = await tx
        .select({ id: organizationInvitations.id })
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.organizationId, admin.organizationId),
            eq(organizationInvitations.userId, existing.id),
          ),
        );
      if (pending && existing.passwordHash === null) {
        // Invited here before and not set up yet: the same user, with the new names and a fresh link.
        await tx
          .update(users)
          .set({ firstName: invitation.firstName, lastName: invitation.lastName })
          .where(eq(users.id, existing.id));
        await recordInvitation(tx, admin, { ...invitation, email }, existing.id);
        return { token: await issueAccountToken(tx, existing.id, "set_password") };
      }
      // Already listed as one of the organization's users: nothing to record. Nobody is e-mailed
      // about their own address.
      return { token: undefined, notify: existing.id !== admin.id };
    }
    await recordInvitation(tx, admin, { ...invitation, email }, null);
    return { token: undefined, notify: true };
  }
}

/** One row per organization and address: inviting again updates it. */
async function recordInvitation(tx: Transaction, admin: Admin, invitation: Invitation, userId: number | null) {
  const values = {
    firstName: invitation.firstName,
    lastName: invitation.lastName,
    invitedBy: admin.id,
    invitedAt: new Date(),
    userId,
  };
  await tx
    .insert(organizationInvitations)
    .values({ organizationId: admin.organizationId, email: invitation.email, ...values })
    .onConflictDoUpdate({
      target: [organizationInvitations.organizationId, organizationInvitations.email],
      set: values,
    });
}

export type Removal = { email: string } | { userId: number };

/**
 * The address of what a removal names, if the administrator may remove it: a pending invitation or a
 * user of their organization, by address; by id only a user who is listed (not one behind a pending
 * invitation, whose id would tell that the invitation made a user).
 */
export async function findRemovable(db: Database, admin: Admin, removal: Removal): Promise<string | undefined> {
  if ("email" in removal) {
    const email = removal.email.trim().toLowerCase();
    const [invitation] = await listPendingInvitations(db, admin.organizationId).then((rows) =>
      rows.filter((row) => row.email === email),
    );
    if (invitation) return invitation.email;
    const [user] = await db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.email, email), eq(users.organizationId, admin.organizationId)));
    return user?.email;
  }
  const [user] = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.id, removal.userId),
        eq(users.organizationId, admin.organizationId),
        sql`not (${hiddenBehindInvitation(admin.organizationId)})`,
      ),
    );
  return user?.email;
}

/**
 * Removes a pending invitation or a user of the admin's organization; never the admin themself.
 * Removing an invitation to a new address removes the not-yet-set-up user it made; removing one to
 * an address that already had an account deletes the invitation only.
 */
export async function removeUser(
  db: Database,
  admin: Admin,
  removal: Removal,
): Promise<"removed" | "not-found" | "self"> {
  return db.transaction(async (tx) => {
    if ("email" in removal) {
      const email = removal.email.trim().toLowerCase();
      const [invitation] = await tx
        .delete(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.organizationId, admin.organizationId),
            eq(organizationInvitations.email, email),
          ),
        )
        .returning({ userId: organizationInvitations.userId });
      // An invitation whose user has already set up is spent: then the member is removed below.
      if (invitation?.userId === null) return "removed";
      if (invitation && (await removeMember(tx, admin, invitation.userId, { onlyIfNotSetUp: true }))) return "removed";
      const [user] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), eq(users.organizationId, admin.organizationId)));
      if (!user) return "not-found";
      if (user.id === admin.id) return "self";
      return (await removeMember(tx, admin, user.id)) ? "removed" : "not-found";
    }
    if (removal.userId === admin.id) return "self";
    const removed = await removeMember(tx, admin, removal.userId, { listedOnly: true });
    return removed ? "removed" : "not-found";
  });
}

async function removeMember(
  tx: Transaction,
  admin: Admin,
  userId: number,
  options: { onlyIfNotSetUp?: boolean; listedOnly?: boolean } = {},
): Promise<boolean> {
  const removed = await tx
    .delete(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.organizationId, admin.organizationId),
        options.onlyIfNotSetUp ? isNull(users.passwordHash) : undefined,
        options.listedOnly ? sql`not (${hiddenBehindInvitation(admin.organizationId)})` : undefined,
      ),
    )
    .returning({ id: users.id });
  if (removed.length === 0) return false;
  await announceSessionChange(tx, { userId }); // signed out at once, on every machine
  return true;
}
