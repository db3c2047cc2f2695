import { z } from "zod";
import { cardCaptureSchema } from "~/payments/card-capture/card-capture";

// The form of /account/card, one schema for the browser's checks and the server's: the card and nothing else.

export const CARD_PATH = "/account/card";
export const CARD_CHECKOUT_RETURN_PATH = "/account/card/checkout";
export const CARD_REPLACED_PATH = "/account?done=card-replaced";

export const createCardReplacementSchema = (options: { cardFields: boolean }) => z.object(cardCaptureSchema(options));
