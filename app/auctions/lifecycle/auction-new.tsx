import { Link, redirect } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { requireAuctionRunner } from "../auction-access.server";
import type { Route } from "./+types/auction-new";
import { loadAuctionFormOptions, newAuctionValues, parseAuctionForm } from "./auction-form.server";
import { createAuction } from "./auction-terms.server";
import { AuctionTermsForm } from "./auction-terms-form";

// /auctions/new: a buyer (or a consultant for a buyer) writes the terms of a reverse auction; it is
// kept as a draft until sellers are invited and it is published.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAuctionRunner(request, context);
  const options = await loadAuctionFormOptions(context.get(appServicesContext).db, user);
  return { options, defaultValue: newAuctionValues(options.timezone) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAuctionRunner(request, context);
  const { db } = context.get(appServicesContext);
  const parsed = await parseAuctionForm(request, db, user);
  if (parsed.kind === "answer") return parsed.response;
  const auctionId = await createAuction(db, user, parsed.terms);
  return redirect(`/auctions/${auctionId}/sellers?done=created`);
}

export function meta() {
  return [{ title: pageTitle("New auction") }];
}

export default function NewAuction({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <p>
        <Link to="/auctions">Auctions</Link>
      </p>
      <h1>New auction</h1>
      <p>
        In a reverse auction sellers bid the price down from your reserve; with sealed bids each seller sends one bid
        with its documents, opened after the deadline. The best-ranked qualified bid wins unless you record a reason to
        pass it over. The auction is saved as a draft: next you choose the sellers to invite, then publish it.
      </p>
      <AuctionTermsForm
        id="auction-new"
        options={loaderData.options}
        defaultValue={loaderData.defaultValue}
        lastResult={actionData?.result}
        submitLabel="Save draft and choose sellers"
      />
    </div>
  );
}
