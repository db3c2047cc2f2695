import Stripe from "stripe";

// Stripe's webhook signatures, checked by Stripe's own SDK on the raw bytes of the body (issue 19).
// Kept apart so the SDK-wide Stripe client can take it over in one place.

/** What a verified event gives the app: Stripe's event as sent (the SDK parses it). */
export type VerifiedEvent = Stripe.Event;

/** The event, when the signature matches the body and the secret (within Stripe's 5-minute tolerance); null otherwise. */
export function verifyStripeEvent(rawBody: Buffer, signature: string, secret: string): VerifiedEvent | null {
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    // A wrong or stale signature, or a body that is not an event: the sender's mistake, answered 400.
    return null;
  }
}

/** A `Stripe-Signature` header for a body, as Stripe makes it: for tests and the development command. */
export function signStripePayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
