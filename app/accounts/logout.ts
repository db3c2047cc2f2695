import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endSession } from "./auth.server";

export async function action({ request, context }: Route.ActionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await endSession(request, context) } });
}

export function loader() {
  return redirect("/");
}
