import { data, redirect } from "react-router";
import { readFormBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import { parseId } from "~/shared/ids";
import { requireAuctionOwner } from "../auction-access.server";
import { timezoneOf } from "../lifecycle/auction-form.server";
import type { Route } from "./+types/auction-copy";
import { copyAuction } from "./auction-copy.server";

// POST /auctions/{id}/copy: "Copy to a new auction" (issue 21). Only the auction's own side copies it
// (staff and the evaluator 403, anyone else 404, as for the page); the copy is a new draft, shown
// with where it came from, its new dates to check and the sellers left out.

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  // The button's form has no fields, but a body this form would never send is refused (4xx), not acted on.
  await readFormBody(request);
  const copied = await copyAuction(context.get(appServicesContext).db, auction.id, actor, timezoneOf(user));
  if (copied.kind === "refused") throw data(null, { status: copied.status });
  return redirect(`/auctions/${copied.auctionId}?done=copied`);
}

/** Nothing to show: the button is on the auction's page. */
export function loader({ params }: Route.LoaderArgs) {
  const auctionId = parseId(params.auctionId);
  if (auctionId === undefined) throw data(null, { status: 404 });
  return redirect(`/auctions/${auctionId}`);
}
