import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { API_TOKEN_PREFIX } from "~/sessions/api-token-user.server";
import { hashToken } from "~/shared/secret-tokens.server";
import type { Database } from "~db/database.server";
import { apiTokens, users } from "~db/schema";

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
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
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
