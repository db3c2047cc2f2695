import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import { createRandomToken, hashToken } from "~/shared/secret-tokens.server";
import type { Database, Transaction } from "~db/database.server";
import { accountTokens, users } from "~db/schema";

export type AccountTokenPurpose = "password_reset" | "set_password" | "account_setup";

/** How long each kind of link works. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  set_password: 7 * 24 * 60 * 60 * 1000,
  account_setup: 7 * 24 * 60 * 60 * 1000,
};

/** Where each kind of link leads: the page that takes the token (spec section 2). */
const LINK_PAGES: Record<AccountTokenPurpose, string> = {
  password_reset: "/reset-password",
  set_password: "/set-password",
  account_setup: "/account-setup",
};

/** The absolute link that goes into the e-mail, e.g. https://…/set-password/{token}. */
export function accountLinkUrl(appUrl: string, purpose: AccountTokenPurpose, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}${LINK_PAGES[purpose]}/${token}`;
}

type Executor = Pick<Database, "select">;

// One link per purpose and person at a time. Issuing a link revokes that user's earlier unused links
// of the same purpose (a re-sent setup link or a second reset request replaces the first); setting a
// password revokes every unused link of that user. A revoked link is deleted: it is then refused
// like any unknown one, with the same message. Both happen in the transaction that issues or spends
// the link, under a lock on the user's row, always taken before any of their link rows: of a link
// issued and a password set at the same moment, the later one sees the other's work.

/** Locks the user's row until the transaction ends: links of one user are issued and spent in turn. */
async function lockLinksOf(tx: Transaction, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
}

/**
 * Revokes every unused link of the user: call it in the transaction that sets their password, after
 * the user's row is locked or written (the password set by a link does this in consumeAccountToken).
 */
export async function revokeUnusedAccountTokens(tx: Transaction, userId: number): Promise<void> {
  await tx.delete(accountTokens).where(and(eq(accountTokens.userId, userId), isNull(accountTokens.usedAt)));
}

/**
 * Issues a link token for the user. This is the one way tokens are made: the approval flow and
 * the tests use it too. The user's earlier unused links of this purpose stop working. Returns the
 * raw token; only its hash is stored.
 */
export async function issueAccountToken(
  db: Database | Transaction,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date = new Date(),
): Promise<string> {
  const token = createRandomToken();
  // Inside the caller's transaction this is a savepoint: the link exists only if theirs commits.
  await db.transaction(async (tx) => {
    await lockLinksOf(tx, userId);
    await tx
      .delete(accountTokens)
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    await tx.insert(accountTokens).values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
    });
  });
  return token;
}

const plausible = (token: string) => /^[A-Za-z0-9_-]{20,200}$/.test(token);

/** The token's user if it is unused, unexpired and of one of the purposes; otherwise undefined. */
export async function findUsableToken(
  db: Executor,
  token: string,
  purposes: AccountTokenPurpose[],
): Promise<{ userId: number; purpose: AccountTokenPurpose } | undefined> {
  if (!plausible(token)) return undefined;
  const [row] = await db
    .select({ userId: accountTokens.userId, purpose: accountTokens.purpose })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        inArray(accountTokens.purpose, purposes),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date()),
      ),
    );
  return row;
}

/**
 * Spends the token atomically: of two concurrent uses exactly one gets the user id back. Every
 * link a token allows sets a password, so the user's other unused links are revoked with it.
 * Call inside the transaction that performs what the token allows.
 */
export async function consumeAccountToken(
  tx: Transaction,
  token: string,
  purposes: AccountTokenPurpose[],
): Promise<{ userId: number; purpose: AccountTokenPurpose } | undefined> {
  if (!plausible(token)) return undefined;
  const tokenHash = hashToken(token);
  const [owner] = await tx
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, tokenHash));
  if (!owner) return undefined;
  await lockLinksOf(tx, owner.userId);
  const now = new Date();
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        inArray(accountTokens.purpose, purposes),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId, purpose: accountTokens.purpose });
  if (!row) return undefined;
  await revokeUnusedAccountTokens(tx, row.userId);
  return row;
}
