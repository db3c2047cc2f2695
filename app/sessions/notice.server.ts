import type { RouterContextProvider } from "react-router";
import { appServicesContext } from "~/server/app-context";

/** Stores a one-time notice ("Service created.") for the next page; answers the Set-Cookie value. */
export async function flashNotice(request: Request, context: Readonly<RouterContextProvider>, notice: string) {
  const { sessions } = context.get(appServicesContext);
  const session = await sessions.getSession(request.headers.get("Cookie"));
  session.flash("notice", notice);
  return sessions.commitSession(session, request);
}

/** Reads (and so removes) the pending notice; send `headers` with the response. */
export async function takeNotice(request: Request, context: Readonly<RouterContextProvider>) {
  const { sessions } = context.get(appServicesContext);
  const session = await sessions.getSession(request.headers.get("Cookie"));
  const notice = session.get("notice") ?? null;
  const headers: HeadersInit = notice ? { "Set-Cookie": await sessions.commitSession(session, request) } : {};
  return { notice, headers };
}
