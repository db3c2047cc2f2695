import { logger } from "~/platform/logger.server";
import { CardError, PAYMENT_UNAVAILABLE, PaymentProviderError } from "./payments";

/** Why a call to the card provider gave no answer: the card was refused, or the provider failed. */
export type ProviderRefusal =
  | { kind: "card-refused"; message: string }
  | { kind: "payment-unavailable"; message: string };

/** A call to the card provider: its answer, or why not as an outcome (a refused card, an outage). */
export async function askProvider<Answer>(
  what: string,
  call: () => Promise<Answer>,
): Promise<{ kind: "answer"; answer: Answer } | ProviderRefusal> {
  try {
    return { kind: "answer", answer: await call() };
  } catch (error) {
    if (error instanceof CardError) return { kind: "card-refused", message: error.message };
    if (error instanceof PaymentProviderError) {
      logger.error({ err: error }, `${what} failed`);
      return { kind: "payment-unavailable", message: PAYMENT_UNAVAILABLE };
    }
    throw error;
  }
}
