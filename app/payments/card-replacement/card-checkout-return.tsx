import { Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { type CheckoutReturnMessages, CheckoutReturnPage } from "~/payments/card-capture/checkout-return-page";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/card-checkout-return";
import { loadCardCheckoutReturn, requireSellerAdmin } from "./card-page.server";
import { CARD_PATH } from "./card-schema";

// Where Stripe Checkout (setup mode) sends a seller's administrator back after typing a new card:
// once the session is complete the card is replaced and they go on to /account. Reached only with
// Stripe configured, by browsers without JavaScript.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireSellerAdmin(request, context);
  return loadCardCheckoutReturn(request, context.get(appServicesContext), user);
}

export function meta() {
  return [{ title: pageTitle("Card Not Replaced") }];
}

const MESSAGES: CheckoutReturnMessages = {
  cancelled: "You left the payment page before your new card was saved. Your card has not changed.",
  open: "Your new card has not been saved yet. Your card has not changed.",
  expired: "The payment page expired before your new card was saved. Your card has not changed.",
  unknown: "We could not find this card change.",
};

export default function CardCheckoutReturn({ loaderData }: Route.ComponentProps) {
  return (
    <CheckoutReturnPage title="Card Not Replaced" state={loaderData.state} messages={MESSAGES}>
      <Link to={CARD_PATH}>Replace the card</Link> or go back to <Link to="/account">your account</Link>.
    </CheckoutReturnPage>
  );
}
