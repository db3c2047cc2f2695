import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Database } from "~db/database.server";
import type { CurrentUser } from "./current-user";

// Who is signed in, kept in memory for a moment: looking the session up in the database on every
// request costs a round trip, and requests that wait on it reach the app out of the order they came
// in (which, on a busy auction, turns bids sent a moment apart into refusals). Every change that
// matters to a signed-in user (signing out, a password set, a user removed or changed, an
// organization renamed) is announced on a PostgreSQL channel at commit, and every app process (this
// one included) forgets what it kept; a minute is the most anything is kept, and all of it is
// forgotten whenever the channel was out of reach (missed announcements).

export const SESSION_CHANGES_CHANNEL = "session_changes";

/** What to forget: one session (by its id's hash), a user's sessions, an organization's users', or all. */
export type SessionChange = { idHash: string } | { userId: number } | { organizationId: number } | { all: true };

/** The signed-in user of a session and when the session ends. */
export type SignedIn = { user: CurrentUser; expiresAt: Date };

const KEPT_FOR_MS = 60_000;
const MOST_KEPT = 20_000;

export type SignedInUsers = ReturnType<typeof createSignedInUsers>;

export function createSignedInUsers() {
  const entries = new Map<string, SignedIn & { keptUntil: number }>();
  /** Bumped by every change: a database read begun before one may be out of date and is not kept. */
  let changes = 0;
  return {
    /** Taken before reading a session from the database; `keep` keeps the read only if nothing changed since. */
    mark: () => changes,
    get(idHash: string, now = Date.now()): SignedIn | undefined {
      const entry = entries.get(idHash);
      if (!entry) return undefined;
      if (entry.keptUntil <= now || entry.expiresAt.getTime() <= now) {
        entries.delete(idHash);
        return undefined;
      }
      return entry;
    },
    keep(idHash: string, signedIn: SignedIn, mark: number) {
      if (mark !== changes) return;
      if (entries.size >= MOST_KEPT) entries.delete(entries.keys().next().value as string);
      entries.set(idHash, { ...signedIn, keptUntil: Date.now() + KEPT_FOR_MS });
    },
    renewed(idHash: string, expiresAt: Date) {
      const entry = entries.get(idHash);
      if (entry) entry.expiresAt = expiresAt;
    },
    forget(change: SessionChange) {
      changes += 1;
      if ("all" in change) {
        entries.clear();
        return;
      }
      for (const [idHash, entry] of entries) {
        const matches =
          "idHash" in change
            ? idHash === change.idHash
            : "userId" in change
              ? entry.user.id === change.userId
              : entry.user.organizationId === change.organizationId;
        if (matches) entries.delete(idHash);
      }
    },
  };
}

/** Parses an announcement; anything unreadable means "forget everything". */
export function sessionChangeOf(payload: string): SessionChange {
  try {
    const change = JSON.parse(payload) as Partial<Record<string, unknown>>;
    if (typeof change.idHash === "string") return { idHash: change.idHash };
    if (typeof change.userId === "number") return { userId: change.userId };
    if (typeof change.organizationId === "number") return { organizationId: change.organizationId };
  } catch {
    // fall through
  }
  return { all: true };
}

/** The changes announced by the request being served, for its own process to forget (see `forgettingAnnounced`). */
const announcedByRequest = new AsyncLocalStorage<SessionChange[]>();

/**
 * Tells every app process to forget what it keeps of these sessions; delivered when the transaction
 * commits. The process serving the request forgets them too once the request's work is done (its
 * transactions committed), not when its own announcement comes back: the next page it serves (the
 * one the answer redirects to) could come first and show what was just changed as it was.
 */
export async function announceSessionChange(db: Pick<Database, "execute">, change: SessionChange): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSION_CHANGES_CHANNEL}, ${JSON.stringify(change)})`);
  announcedByRequest.getStore()?.push(change);
}

/**
 * Serves a request (`work`, which ends after its writes have committed), then `forget`s each session
 * change it announced, before its answer goes out; also when it failed. A change whose transaction
 * rolled back is forgotten for nothing: one read from the database more.
 */
export async function forgettingAnnounced<T>(work: () => Promise<T>, forget: (change: SessionChange) => void) {
  const announced: SessionChange[] = [];
  try {
    return await announcedByRequest.run(announced, work);
  } finally {
    for (const change of announced) forget(change);
  }
}
