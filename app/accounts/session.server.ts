import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { createCookie, createSessionStorage, type Session, type SessionStorage } from "react-router";
import type { Environment } from "~/platform/env.server";
import { SESSION_COOKIE_NAME } from "~/platform/session-cookie";
import type { Database } from "~db/database.server";
import { sessions } from "~db/schema";

export type SessionData = { userId: number };
export type SessionFlash = { notice: string };
export type AppSession = Session<SessionData, SessionFlash>;
export type SessionStore = SessionStorage<SessionData, SessionFlash> & {
  /** The stored hash of the session id a Cookie header carries (signature checked), or null. */
  idHashOf(cookieHeader: string | null): Promise<string | null>;
};

/** Sessions last a working week of inactivity at most; each signed-in request renews them. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export const hashId = (id: string) => createHash("sha256").update(id).digest("hex");

/**
 * Sessions stored in the database behind a signed cookie (HttpOnly, SameSite=Lax, Secure in
 * production). The cookie holds a random id; the table holds only its hash, so a database leak
 * does not hand out live sessions.
 */
export function createSessionStore(db: Database, env: Environment): SessionStore {
  const cookie = createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: "lax",
    secure: env.NODE_ENV === "production",
    path: "/",
    secrets: [env.SESSION_SECRET],
    maxAge: SESSION_LIFETIME_SECONDS,
  });
  const userIdOf = (data: Partial<SessionData>) => (typeof data.userId === "number" ? data.userId : null);
  const expiry = (expires?: Date) => expires ?? new Date(Date.now() + SESSION_LIFETIME_SECONDS * 1000);

  const storage = createSessionStorage<SessionData, SessionFlash>({
    cookie,
    async createData(data, expires) {
      const id = randomBytes(32).toString("base64url");
      await db.insert(sessions).values({
        idHash: hashId(id),
        userId: userIdOf(data),
        data,
        expiresAt: expiry(expires),
      });
      return id;
    },
    async readData(id) {
      const [row] = await db
        .select({ data: sessions.data })
        .from(sessions)
        .where(and(eq(sessions.idHash, hashId(id)), gt(sessions.expiresAt, new Date())));
      return row?.data ?? null;
    },
    async updateData(id, data, expires) {
      await db
        .update(sessions)
        .set({ data, userId: userIdOf(data), expiresAt: expiry(expires) })
        .where(eq(sessions.idHash, hashId(id)));
    },
    async deleteData(id) {
      await db.delete(sessions).where(eq(sessions.idHash, hashId(id)));
    },
  });
  return {
    ...storage,
    async idHashOf(cookieHeader) {
      const id: unknown = await cookie.parse(cookieHeader);
      return typeof id === "string" && id !== "" ? hashId(id) : null;
    },
  };
}

/** Ends every session of a user (after a password reset or set): other devices are signed out. */
export async function endAllSessions(db: Pick<Database, "delete">, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
