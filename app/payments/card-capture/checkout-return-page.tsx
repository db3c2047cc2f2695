import type { ReactNode } from "react";
import { Alert } from "~/forms/alert";
import { CHECKOUT_UNAVAILABLE, type CheckoutReturnState } from "./card-capture";

/** What the page says for each way the return from Checkout can leave the card not in place. */
export type CheckoutReturnMessages = Record<Exclude<CheckoutReturnState, "unavailable">, string>;

/**
 * The page Stripe Checkout (setup mode) comes back to, once it is known the card is not in place:
 * why, then where to go from here (`children`). Reached only with Stripe configured, by browsers
 * without JavaScript; answerCheckoutReturn is its loader's part.
 */
export function CheckoutReturnPage({
  title,
  state,
  messages,
  children,
}: {
  title: string;
  state: CheckoutReturnState;
  messages: CheckoutReturnMessages;
  children: ReactNode;
}) {
  return (
    <div className="narrow">
      <h1>{title}</h1>
      <Alert title="Error!">
        <p>{state === "unavailable" ? CHECKOUT_UNAVAILABLE : (messages[state] ?? messages.unknown)}</p>
      </Alert>
      <p>{children}</p>
    </div>
  );
}
