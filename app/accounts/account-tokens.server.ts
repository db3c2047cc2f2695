import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Database } from "~db/database.server";
import { accountTokens } from "~db/schema";

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

/** SHA-256, hex: what we store for every token (the token itself exists only in the link). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** 32 random bytes, base64url (43 characters): safe in a URL path. */
export function createRandomToken(): string {
  return randomBytes(32).toString("base64url");
}

type Executor = Pick<Database, "insert" | "select" | "update">;

/**
 * Issues a link token for the user. This is the one way tokens are made: the approval flow and
 * the tests use it too. Returns the raw token; only its hash is stored.
 */
export async function issueAccountToken(
  db: Executor,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date = new Date(),
): Promise<string> {
  const token = createRandomToken();
  await db.insert(accountTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
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
 * Spends the token atomically: of two concurrent uses exactly one gets the user id back.
 * Call inside the transaction that performs what the token allows.
 */
export async function consumeAccountToken(
  db: Executor,
  token: string,
  purposes: AccountTokenPurpose[],
): Promise<{ userId: number; purpose: AccountTokenPurpose } | undefined> {
  if (!plausible(token)) return undefined;
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        inArray(accountTokens.purpose, purposes),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: accountTokens.userId, purpose: accountTokens.purpose });
  return row;
}
