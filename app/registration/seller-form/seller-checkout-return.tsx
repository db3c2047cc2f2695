import { Link, redirect } from "react-router";
import { Alert } from "~/forms/alert";
import { hasDisallowedCharacters } from "~/forms/text-schema";
import { pageTitle } from "~/layout/page-title";
import { appServicesContext } from "~/platform/app-context";
import type { Route } from "./+types/seller-checkout-return";
import { SELLER_COMPLETE_PATH } from "./seller-registration.server";
import { completeSellerCheckout } from "./seller-registration-store.server";

// Where Stripe Checkout (setup mode) sends a seller back: once the card is saved the registration
// is complete. Reached only with Stripe configured, by browsers without JavaScript.

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appServicesContext);
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id");
  if (!sessionId || sessionId.length > 255 || hasDisallowedCharacters(sessionId))
    return { state: url.searchParams.has("cancelled") ? "cancelled" : "unknown" };
  try {
    const result = await completeSellerCheckout(services, sessionId);
    if (result.kind === "complete") throw redirect(SELLER_COMPLETE_PATH);
    return { state: result.kind };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("reading a Stripe Checkout session failed", error);
    return { state: "unavailable" as const };
  }
}

export function meta() {
  return [{ title: pageTitle("Card Not Saved") }];
}

const MESSAGES: Record<string, string> = {
  cancelled:
    "You left the payment page before your card was saved. Your registration has been kept but cannot be reviewed until a card is saved.",
  open: "Your card has not been saved yet. Your registration has been kept but cannot be reviewed until a card is saved.",
  expired: "The payment page expired before your card was saved.",
  unknown: "We could not find this payment.",
  unavailable: "Card payments are unavailable at the moment. Please reload this page in a few minutes.",
};

export default function SellerCheckoutReturn({ loaderData }: Route.ComponentProps) {
  return (
    <div className="narrow">
      <h1>Card Not Saved</h1>
      <Alert title="Error!">
        <p>{MESSAGES[loaderData.state] ?? MESSAGES.unknown}</p>
      </Alert>
      <p>
        Please <Link to="/about">contact us</Link> and we will help you finish your registration.
      </p>
    </div>
  );
}
