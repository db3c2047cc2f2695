import { redirect } from "react-router";
import { readFormBody } from "~/platform/request-body.server";
import { endSession } from "~/sessions/auth.server";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  await readFormBody(request); // no fields, but a malformed body is refused like anywhere else
  return redirect("/", { headers: { "Set-Cookie": await endSession(request, context) } });
}

export function loader() {
  return redirect("/");
}
