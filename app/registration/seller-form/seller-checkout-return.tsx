import { Link } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { answerCheckoutReturn } from "~/payments/card-capture/card-capture.server";
import { type CheckoutReturnMessages, CheckoutReturnPage } from "~/payments/card-capture/checkout-return-page";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/seller-checkout-return";
import { SELLER_COMPLETE_PATH } from "./seller-registration.server";
import { completeSellerCheckout } from "./seller-registration-store.server";

// Where Stripe Checkout (setup mode) sends a seller back: once the card is saved the registration
// is complete. Reached only with Stripe configured, by browsers without JavaScript.

export function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appServicesContext);
  return answerCheckoutReturn(request, {
    complete: async (sessionId) => (await completeSellerCheckout(services, sessionId)).kind,
    completedPath: SELLER_COMPLETE_PATH,
    what: "reading a Stripe Checkout session",
  });
}

export function meta() {
  return [{ title: pageTitle("Card Not Saved") }];
}

const MESSAGES: CheckoutReturnMessages = {
  cancelled:
    "You left the payment page before your card was saved. Your registration has been kept but cannot be reviewed until a card is saved.",
  open: "Your card has not been saved yet. Your registration has been kept but cannot be reviewed until a card is saved.",
  expired: "The payment page expired before your card was saved.",
  unknown: "We could not find this payment.",
};

export default function SellerCheckoutReturn({ loaderData }: Route.ComponentProps) {
  return (
    <CheckoutReturnPage title="Card Not Saved" state={loaderData.state} messages={MESSAGES}>
      Please <Link to="/about">contact us</Link> and we will help you finish your registration.
    </CheckoutReturnPage>
  );
}
