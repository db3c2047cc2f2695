import { data, Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/server/app-context";
import { requireAuctionOwner } from "../auction-access.server";
import { termsOpenForChange } from "../auction-rules";
import { lotTermsOf, pricedByLots } from "../lots/lots.server";
import type { Route } from "./+types/auction-edit";
import { auctionFormValues, loadAuctionFormOptions, parseAuctionForm } from "./auction-form.server";
import { bidRequirements, updateAuctionTerms } from "./auction-terms.server";
import { AuctionTermsForm } from "./auction-terms-form";

// /auctions/{id}/edit: the terms, while no bidding has started; afterwards they are fixed.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, auction } = await requireAuctionOwner(request, context, params.auctionId);
  const { db } = context.get(appServicesContext);
  const [options, requirements, lots] = await Promise.all([
    loadAuctionFormOptions(db, user),
    bidRequirements(db, auction.id),
    lotTermsOf(db, auction.id),
  ]);
  const editable = termsOpenForChange(auction, new Date());
  return {
    auctionId: auction.id,
    title: auction.title,
    editable,
    pricedByLots: pricedByLots(lots),
    options,
    values: auctionFormValues(
      auction,
      options.timezone,
      requirements.map((requirement) => requirement.name),
    ),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, auction, actor } = await requireAuctionOwner(request, context, params.auctionId);
  const services = context.get(appServicesContext);
  const parsed = await parseAuctionForm(request, services.db, user);
  if (parsed.kind === "answer") return parsed.response;
  const changed = await updateAuctionTerms(services, auction.id, actor, parsed.terms);
  if (changed.kind === "refused") return data({ refused: changed.message }, { status: changed.status });
  return redirect(`/auctions/${auction.id}?done=saved`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData ? `Edit: ${loaderData.title}` : "Edit auction") }];
}

export default function EditAuction({ loaderData, actionData }: Route.ComponentProps) {
  const refused = actionData && "refused" in actionData ? actionData.refused : undefined;
  return (
    <div className="narrow">
      <p>
        <Link to={`/auctions/${loaderData.auctionId}`}>Back to the auction</Link>
      </p>
      <h1>{`Edit: ${loaderData.title}`}</h1>
      {refused ? (
        <Alert title="Error!">
          <p>{refused}</p>
        </Alert>
      ) : null}
      {loaderData.editable ? (
        <AuctionTermsForm
          id="auction-edit"
          options={loaderData.options}
          defaultValue={loaderData.values}
          lastResult={actionData && "result" in actionData ? actionData.result : undefined}
          submitLabel="Save the terms"
          lotsLink={loaderData.pricedByLots ? `/auctions/${loaderData.auctionId}/lots` : undefined}
        />
      ) : (
        <p>Bidding has started: the terms of this auction can no longer change.</p>
      )}
    </div>
  );
}
