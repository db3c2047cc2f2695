import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { createCookie, createSessionStorage, type Session, type SessionStorage } from "react-router";
import type { Environment } from "~/platform/env.server";
import { SESSION_COOKIE_NAME } from "~/platform/session-cookie";
import type { Database } from "~db/database.server";
import { sessions } from "~db/schema";
import { announceSessionChange, type SignedInUsers } from "./signed-in-users.server";

export type SessionData = { userId: number };
export type AppSession = Session<SessionData>;
/** A session a request carries: its id (in the signed cookie) and the hash it is stored under. */
export type SessionKey = { id: string; idHash: string };
type Storage = SessionStorage<SessionData>;
export type SessionStore = Pick<Storage, "getSession"> & {
  /**
   * The Set-Cookie value that stores the session. Each takes the request it answers: the cookie is
   * `Secure` whenever that request came over HTTPS (in production always), so it is never sent back
   * over plain HTTP.
   */
  commitSession(session: AppSession, request: Request): Promise<string>;
  /** The Set-Cookie value that clears the session's cookie (the stored session is deleted). */
  destroySession(session: AppSession, request: Request): Promise<string>;
  /** The session a Cookie header carries (signature checked), or null. */
  sessionOf(cookieHeader: string | null): Promise<SessionKey | null>;
  /**
   * Renews a session in use once a day (it ends a working week after its last use): a whole lifetime
   * again in the table and in what is kept in memory. Answers the Set-Cookie header that renews the
   * cookie, or null when the session needs no renewal yet.
   */
  renewIfDue(key: SessionKey, expiresAt: Date, request: Request): Promise<string | null>;
  /** Signed-in users kept in memory, when this process hears the announcements that keep them true. */
  signedInUsers?: SignedInUsers;
};

/** Sessions last a working week of inactivity at most; a signed-in request renews them (once a day). */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const SESSION_RENEWAL_AFTER_SECONDS = 24 * 60 * 60;

/** Signed cookie values already checked, newest last: checking a signature is a good part of a request's work. */
const VERIFIED_KEPT = 10_000;

/** The raw value of a cookie in a Cookie header (as sent: still signed), or null. */
function rawCookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return null;
}

const hashId = (id: string) => createHash("sha256").update(id).digest("hex");

/**
 * Sessions stored in the database behind a signed cookie (HttpOnly, SameSite=Lax, Secure in
 * production and over HTTPS). The cookie holds a random id; the table holds only its hash, so a database leak
 * does not hand out live sessions.
 */
export function createSessionStore(db: Database, env: Environment, signedInUsers?: SignedInUsers): SessionStore {
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

  const storage = createSessionStorage<SessionData>({
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
      await db.transaction(async (tx) => {
        await tx
          .update(sessions)
          .set({ data, userId: userIdOf(data), expiresAt: expiry(expires) })
          .where(eq(sessions.idHash, hashId(id)));
        await announceSessionChange(tx, { idHash: hashId(id) });
      });
    },
    async deleteData(id) {
      await db.transaction(async (tx) => {
        await tx.delete(sessions).where(eq(sessions.idHash, hashId(id)));
        await announceSessionChange(tx, { idHash: hashId(id) });
      });
    },
  });
  // The request's URL says https only when it came over TLS or a trusted proxy says so (`ProxyTrust`).
  const cookieOptions = (request: Request) => ({
    secure: env.NODE_ENV === "production" || request.url.startsWith("https:"),
  });
  // Only values whose signature checked out are kept (a forged one is checked every time), and the
  // same value always checks out the same way: the cache changes no answer.
  const verified = new Map<string, SessionKey>();
  return {
    getSession: storage.getSession,
    commitSession: (session, request) => storage.commitSession(session, cookieOptions(request)),
    destroySession: (session, request) => storage.destroySession(session, cookieOptions(request)),
    async sessionOf(cookieHeader) {
      const raw = rawCookieValue(cookieHeader, SESSION_COOKIE_NAME);
      if (!raw) return null;
      const known = verified.get(raw);
      if (known) return known;
      const id: unknown = await cookie.parse(cookieHeader);
      if (typeof id !== "string" || id === "") return null;
      const key = { id, idHash: hashId(id) };
      if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value as string);
      verified.set(raw, key);
      return key;
    },
    async renewIfDue({ id, idHash }, expiresAt, request) {
      const renewedAt = expiresAt.getTime() - (SESSION_LIFETIME_SECONDS - SESSION_RENEWAL_AFTER_SECONDS) * 1000;
      if (Date.now() < renewedAt) return null;
      const renewed = expiry();
      await db.update(sessions).set({ expiresAt: renewed }).where(eq(sessions.idHash, idHash));
      signedInUsers?.renewed(idHash, renewed);
      return cookie.serialize(id, cookieOptions(request));
    },
    signedInUsers,
  };
}

/** Ends every session of a user (after a password reset or set): other devices are signed out. */
export async function endAllSessions(db: Pick<Database, "delete" | "execute">, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await announceSessionChange(db, { userId });
}
