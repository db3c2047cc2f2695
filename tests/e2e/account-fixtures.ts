import { eq } from "drizzle-orm";
import { accountLinkUrl, consumeAccountToken, issueAccountToken } from "~/accounts/account-tokens.server";
import { hashPassword } from "~/accounts/password.server";
import { createThrottles, SIGN_IN_POLICY } from "~/accounts/sign-in/throttle.server";
import type { DatabaseHandle } from "~db/database.server";
import { notifications, organizations, rateLimits, users } from "~db/schema";
import type { JavaScriptMode } from "./browser";
import { STAFF as STAFF_ACCOUNT } from "./staff-account";

// The people and links the account browser tests need, written into the e2e database by the global
// setup before the server starts. Links are made by the product's own token module (the one the
// staff approval flow uses), never by a test-only route.

export type Account = { email: string; password: string };

export type AccountFixtures = {
  /** Created by the server itself from SEED_STAFF_EMAIL / SEED_STAFF_PASSWORD. */
  staff: Account;
  /** A buyer with a name and an organization. */
  buyer: Account & { name: string; organization: string };
  /** Has more than a page of notifications (/account/notifications), some e-mailed, some not. */
  notified: Account;
  /** Receives the wrong passwords, so the other accounts' failure counters stay at zero. */
  mistyped: Account;
  /** Already over the failed sign-in limit of the account (counted from other addresses). */
  locked: Account;
  /** One account per JavaScript mode for the password-reset loop (it changes the password). */
  resetByMode: Record<JavaScriptMode, Account>;
  /** Unused links (paths), one per mode for the flows and one more for the accessibility checks. */
  setPasswordLinks: Record<JavaScriptMode | "axe", { path: string; email: string }>;
  accountSetupLinks: Record<JavaScriptMode | "axe", { path: string; email: string }>;
  /** Links that must show 'Please check the link and try again.' */
  deadLinks: { label: string; path: string }[];
};

export const STAFF: Account = STAFF_ACCOUNT;

export async function prepareAccountFixtures(database: DatabaseHandle, appUrl: string): Promise<AccountFixtures> {
  const { db } = database;
  const [organization] = await db
    .insert(organizations)
    .values({ name: "Prairie Drilling Ltd.", organizationType: 2 })
    .returning();

  async function createUser(email: string, password: string | null, extra: { first?: string; last?: string } = {}) {
    const [user] = await db
      .insert(users)
      .values({
        email,
        role: 2,
        organizationId: organization?.id,
        firstName: extra.first ?? null,
        lastName: extra.last ?? null,
        passwordHash: password ? await hashPassword(password) : null,
      })
      .returning({ id: users.id });
    if (!user) throw new Error(`user ${email} was not written`);
    return user.id;
  }
  const account = async (email: string): Promise<Account> => {
    const password = `${email.split("@")[0]}-password`;
    await createUser(email, password);
    return { email, password };
  };

  const buyerPassword = "buyer-password-1";
  await createUser("dana.fox@prairie.example", buyerPassword, { first: "Dana", last: "Fox" });
  const notified = await account("notified@prairie.example");
  const notifiedId = (await db.select({ id: users.id }).from(users).where(eq(users.email, notified.email)))[0]?.id;
  if (!notifiedId) throw new Error("the notified user was not written");
  await db.insert(notifications).values(
    Array.from({ length: 60 }, (_, index) => ({
      userId: notifiedId,
      kind: "closed" as const,
      subject: `Auction closed: well ${index + 1}`,
      text: "Closed.",
      createdAt: new Date(Date.now() - (60 - index) * 60_000),
      emailedAt: index % 2 === 0 ? new Date(Date.now() - (60 - index) * 60_000) : null,
    })),
  );
  const mistyped = await account("mistyped@prairie.example");
  const locked = await account("locked@prairie.example");
  const throttles = createThrottles(database.query);
  // Failures from many addresses use up the account's own limit (one address alone only locks itself out).
  for (let failure = 0; failure < SIGN_IN_POLICY.perAccount; failure += 1) {
    await throttles.takeSignInAttempt(locked.email, `203.0.113.${failure % 250}`);
  }
  // The lock must outlast the run: the browser tests start after the others, which on a busy
  // machine can take longer than the 15-minute window.
  const extended = await db
    .update(rateLimits)
    .set({ expire: Date.now() + 3 * 60 * 60 * 1000 })
    .where(eq(rateLimits.key, `sign-in-account:${locked.email}`))
    .returning({ key: rateLimits.key });
  if (extended.length !== 1) throw new Error("the locked account's sign-in counter was not found");

  const link = async (purpose: "set_password" | "account_setup", email: string, issuedAt?: Date) => {
    const userId = await createUser(email, null);
    const token = await issueAccountToken(db, userId, purpose, issuedAt);
    return { token, path: new URL(accountLinkUrl(appUrl, purpose, token)).pathname, email };
  };
  const links = async (purpose: "set_password" | "account_setup", prefix: string) => {
    const made: Partial<Record<JavaScriptMode | "axe", { path: string; email: string }>> = {};
    for (const key of ["js", "no-js", "axe"] as const) {
      const { path, email } = await link(purpose, `${prefix}-${key}@prairie.example`);
      made[key] = { path, email };
    }
    return made as Record<JavaScriptMode | "axe", { path: string; email: string }>;
  };

  const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
  const expiredSet = await link("set_password", "expired-set@prairie.example", eightDaysAgo);
  const expiredSetup = await link("account_setup", "expired-setup@prairie.example", eightDaysAgo);
  const usedSet = await link("set_password", "used-set@prairie.example");
  await db.transaction((tx) => consumeAccountToken(tx, usedSet.token, ["set_password"]));
  const expiredResetUser = await createUser("expired-reset@prairie.example", "expired-reset-password");
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const expiredResetToken = await issueAccountToken(db, expiredResetUser, "password_reset", twoHoursAgo);
  // A set-password link used on the setup page: the purposes do not mix.
  const wrongPurpose = await link("set_password", "wrong-purpose@prairie.example");

  return {
    staff: STAFF,
    buyer: {
      email: "dana.fox@prairie.example",
      password: buyerPassword,
      name: "Dana Fox",
      organization: "Prairie Drilling Ltd.",
    },
    notified,
    mistyped,
    locked,
    resetByMode: {
      js: await account("reset-js@prairie.example"),
      "no-js": await account("reset-no-js@prairie.example"),
    },
    setPasswordLinks: await links("set_password", "set"),
    accountSetupLinks: await links("account_setup", "setup"),
    deadLinks: [
      { label: "an expired set-password link", path: expiredSet.path },
      { label: "a used set-password link", path: usedSet.path },
      { label: "an expired account-setup link", path: expiredSetup.path },
      { label: "an expired reset link", path: `/reset-password/${expiredResetToken}` },
      { label: "a set-password link on the setup page", path: `/account-setup/${wrongPurpose.token}` },
      {
        label: "a tampered set-password link",
        path: `${wrongPurpose.path.slice(0, -1)}${wrongPurpose.path.endsWith("A") ? "B" : "A"}`,
      },
      { label: "a made-up reset link", path: "/reset-password/not-a-real-token" },
    ],
  };
}
