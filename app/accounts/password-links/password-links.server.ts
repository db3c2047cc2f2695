import { eq } from "drizzle-orm";
import { endAllSessions } from "~/sessions/session.server";
import type { Database } from "~db/database.server";
import { organizationInvitations, timezones, users } from "~db/schema";
import { type AccountTokenPurpose, consumeAccountToken, findUsableToken } from "../account-tokens.server";
import { hashPassword } from "../password.server";

export { LINK_PROBLEM, SET_PASSWORD_PROBLEM } from "../account-texts";

export async function isUsableLink(db: Database, token: string, purposes: AccountTokenPurpose[]): Promise<boolean> {
  return Boolean(await findUsableToken(db, token, purposes));
}

export async function isKnownTimezone(db: Database, name: string): Promise<boolean> {
  const [row] = await db.select({ name: timezones.name }).from(timezones).where(eq(timezones.name, name));
  return Boolean(row);
}

/**
 * Spends the link and sets the password in one transaction; every existing session of the user
 * ends. Answers false when the link is unknown, used or expired (then nothing is written).
 */
export async function setPasswordWithLink(
  db: Database,
  input: { token: string; purposes: AccountTokenPurpose[]; newPassword: string; timezone?: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const spent = await consumeAccountToken(tx, input.token, input.purposes);
    if (!spent) return false;
    await tx
      .update(users)
      .set({
        passwordHash,
        passwordChangedAt: new Date(),
        ...(input.timezone ? { timezone: input.timezone } : {}),
      })
      .where(eq(users.id, spent.userId));
    // An invited user who has set up is a member: their invitation is spent.
    await tx.delete(organizationInvitations).where(eq(organizationInvitations.userId, spent.userId));
    await endAllSessions(tx, spent.userId);
    return true;
  });
}
