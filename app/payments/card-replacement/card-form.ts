import { z } from "zod";
import { textField } from "~/forms/text-schema";
import { cardFieldsSchema, STRIPE_TOKEN_FIELD } from "~/payments/card-capture/card-fields";

// The form of /account/card, one schema for the browser's checks and the server's.

export const CARD_PATH = "/account/card";
export const CARD_CHECKOUT_RETURN_PATH = "/account/card/checkout";
export const CARD_REPLACED_PATH = "/account?card=replaced";

export function createCardReplacementSchema(options: { cardFields: boolean }) {
  return z.object({
    /** What Stripe.js made of the card; empty without JavaScript (the card is then typed on Stripe Checkout). */
    [STRIPE_TOKEN_FIELD]: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      textField().max(255).optional(),
    ),
    ...(options.cardFields ? cardFieldsSchema : {}),
  });
}
