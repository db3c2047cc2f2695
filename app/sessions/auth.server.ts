import { and, eq, gt, sql } from "drizzle-orm";
import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { apiErrors } from "~/api/api-responses.server";
import { SESSION_COOKIE_NAME } from "~/platform/session-cookie";
import { appServicesContext } from "~/server/app-context";
import { Role, type RoleCode } from "~/shared/roles";
import type { Database } from "~db/database.server";
import { organizations, sessions, users } from "~db/schema";
import { userIdForApiToken } from "./api-token-user.server";
import { type CurrentUser, currentUserContext } from "./current-user";
import type { SignedIn, SignedInUsers } from "./signed-in-users.server";

/** What every request knows of the signed-in user. */
const currentUserColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  organizationId: users.organizationId,
  organizationName: organizations.name,
  isOrganizationAdmin: users.isOrganizationAdmin,
  timezone: users.timezone,
  liveAnnouncements: users.liveAnnouncements,
};

export async function loadUser(db: Database, userId: number): Promise<CurrentUser | null> {
  const [row] = await db
    .select(currentUserColumns)
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId));
  return row ? { ...row, role: row.role as RoleCode } : null;
}

/** The user of a live session by the session id's hash, and when the session ends: built once per database. */
function sessionUserQuery(db: Database) {
  return db
    .select({ ...currentUserColumns, sessionExpiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(sessions.idHash, sql.placeholder("idHash")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .prepare("session_user");
}
const sessionUserQueries = new WeakMap<Database, ReturnType<typeof sessionUserQuery>>();

/** The user of a live session, and when the session ends: kept in memory when it may be, else one query. */
async function loadSessionUser(
  db: Database,
  idHash: string,
  kept: SignedInUsers | undefined,
): Promise<SignedIn | null> {
  const known = kept?.get(idHash);
  if (known) return known;
  const mark = kept?.mark() ?? 0;
  let query = sessionUserQueries.get(db);
  if (!query) {
    query = sessionUserQuery(db);
    sessionUserQueries.set(db, query);
  }
  const [row] = await query.execute({ idHash, now: new Date().toISOString() });
  if (!row) return null;
  const { sessionExpiresAt, ...user } = row;
  const signedIn = { user: { ...user, role: user.role as RoleCode }, expiresAt: new Date(sessionExpiresAt) };
  kept?.keep(idHash, signedIn, mark);
  return signedIn;
}

/**
 * Root middleware: finds who is asking once per request (a staff API token in Authorization, else
 * the session cookie) and puts the user in the router context. A session in use is renewed once a
 * day, so it ends after a working week without use, not a week after signing in.
 */
export const currentUserMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { sessions: sessionStore, db } = context.get(appServicesContext);
  const authorization = request.headers.get("Authorization");
  if (authorization?.toLowerCase().startsWith("bearer ")) {
    const userId = await userIdForApiToken(db, authorization.slice(7).trim());
    context.set(currentUserContext, userId ? await loadUser(db, userId) : null);
    return;
  }
  const session = await sessionStore.sessionOf(request.headers.get("Cookie"));
  const kept = sessionStore.signedInUsers;
  const found = session ? await loadSessionUser(db, session.idHash, kept) : null;
  context.set(currentUserContext, found?.user ?? null);
  const renewalCookie = session && found ? await sessionStore.renewIfDue(session, found.expiresAt, request) : null;
  if (!renewalCookie) return;
  const response = await next();
  // Not when the answer sets the session cookie itself (signing in or out).
  if (response.headers.getSetCookie().some((header) => header.startsWith(`${SESSION_COOKIE_NAME}=`))) {
    return response;
  }
  const renewed = new Response(response.body, response);
  renewed.headers.append("Set-Cookie", renewalCookie);
  return renewed;
};

export function getCurrentUser(context: Readonly<RouterContextProvider>): CurrentUser | null {
  return context.get(currentUserContext);
}

/** The signed-in user, or a redirect to sign in that comes back to this page. */
export function requireUser(request: Request, context: Readonly<RouterContextProvider>): CurrentUser {
  const user = getCurrentUser(context);
  if (user) return user;
  const url = new URL(request.url);
  // "/" may stay as it is in a query (RFC 3986), so the address reads /login?ref=/account.
  const ref = encodeURIComponent(url.pathname + url.search).replaceAll("%2F", "/");
  throw redirect(`/login?ref=${ref}`);
}

/** A signed-in staff user; visitors go to sign in, other roles get 403. */
export function requireStaff(request: Request, context: Readonly<RouterContextProvider>): CurrentUser {
  const user = requireUser(request, context);
  if (user.role !== Role.Staff) throw data(null, { status: 403 });
  return user;
}

/** For /api writes: 401 without a session or token, 403 for any role but staff. */
export function requireStaffApi(context: Readonly<RouterContextProvider>): CurrentUser {
  const user = getCurrentUser(context);
  if (!user) {
    throw apiErrors(401, { form: "Sign in as staff or send a staff API token." }, { "WWW-Authenticate": "Bearer" });
  }
  if (user.role !== Role.Staff) throw apiErrors(403, { form: "Only staff can change the catalogue." });
  return user;
}

/**
 * Starts a new session for the user: the old session (if any) is destroyed and a new id issued,
 * so an id planted before sign-in is worthless after it. Answers the Set-Cookie header value.
 */
export async function startSession(request: Request, context: Readonly<RouterContextProvider>, userId: number) {
  const { sessions } = context.get(appServicesContext);
  const previous = await sessions.getSession(request.headers.get("Cookie"));
  if (previous.id) await sessions.destroySession(previous, request);
  const session = await sessions.getSession();
  session.set("userId", userId);
  return sessions.commitSession(session, request);
}

/** Ends the current session; answers the Set-Cookie header value that clears the cookie. */
export async function endSession(request: Request, context: Readonly<RouterContextProvider>) {
  const { sessions } = context.get(appServicesContext);
  const session = await sessions.getSession(request.headers.get("Cookie"));
  return sessions.destroySession(session, request);
}
