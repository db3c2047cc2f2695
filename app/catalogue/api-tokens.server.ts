import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { hashToken } from "~/accounts/account-tokens.server";
import { Role } from "~/shared/roles";
import type { Database } from "~db/database.server";
import { apiTokens, users } from "~db/schema";

const TOKEN_PREFIX = "umk_";

export type ApiTokenView = {
  id: number;
  name: string;
  ownerEmail: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** Makes a token for a staff user; returns it in full this once. Only its hash is stored. */
export async function createApiToken(
  db: Database,
  input: { userId: number; name: string; lifetimeDays: number },
): Promise<string> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db.insert(apiTokens).values({
    userId: input.userId,
    name: input.name,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + input.lifetimeDays * 24 * 60 * 60 * 1000),
  });
  return token;
}

export async function listApiTokens(db: Database): Promise<ApiTokenView[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      ownerEmail: users.email,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
  }));
}

export async function revokeApiToken(db: Database, id: number): Promise<boolean> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return Boolean(row);
}

/** The staff user a bearer token belongs to, if it is live; notes when it was last used. */
export async function userIdForApiToken(db: Database, token: string): Promise<number | undefined> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
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
