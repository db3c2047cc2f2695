import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { Role } from "~/shared/roles";
import { hashToken } from "~/shared/secret-tokens.server";
import type { Database } from "~db/database.server";
import { apiTokens, users } from "~db/schema";

// A staff API token in a request's Authorization header signs its staff user in, as a session
// cookie does; staff make and revoke the tokens on the catalogue's pages.

/** How every API token begins: what is not one is refused before any query. */
export const API_TOKEN_PREFIX = "umk_";

/** The staff user a bearer token belongs to, if it is live; notes when it was last used. */
export async function userIdForApiToken(db: Database, token: string): Promise<number | undefined> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return undefined;
  const now = new Date();
  const [row] = await db
    .select({ id: apiTokens.id, userId: apiTokens.userId, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.expiresAt, now),
        eq(users.role, Role.Staff),
      ),
    );
  if (!row) return undefined;
  // At most one write a minute per token, however busy the script.
  const minuteAgo = new Date(now.getTime() - 60_000);
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, minuteAgo))));
  return row.userId;
}
