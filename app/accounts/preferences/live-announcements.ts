import { redirect, replace } from "react-router";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { requireUser } from "~/sessions/auth.server";
import type { Route } from "./+types/live-announcements";
import { liveAnnouncementsReturn, setLiveAnnouncements } from "./live-announcements.server";

// POST /account/live-announcements (issue 32): turns spoken updates on live auction pages off or on
// for the signed-in user, then goes back to the auction's page (in place, with JavaScript).

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await readFormBody(request);
  const choice = form.get("announcements");
  if (choice !== "on" && choice !== "off") {
    return new Response("Choose on or off.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  await setLiveAnnouncements(context.get(appServicesContext).db, user.id, choice === "on");
  // Replace: the page the user came from, not a second entry of it in the history.
  return replace(liveAnnouncementsReturn(form.get("returnTo")), 303);
}

export function loader() {
  return redirect("/account");
}
