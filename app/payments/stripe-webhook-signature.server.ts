import Stripe from "stripe";

// The events Stripe posts to /webhooks/stripe, checked with the SDK against the endpoint's signing
// secret (STRIPE_WEBHOOK_SECRET): https://docs.stripe.com/webhooks#verify-events

export type StripeEvent = Stripe.Event;

/** The request header Stripe signs its events in. */
export const STRIPE_SIGNATURE_HEADER = "stripe-signature";

/** How old a signed event may be (Stripe's default, which its own retries respect): replays of older ones are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The payload was not signed by Stripe with this secret, or is too old: answer 400 and do nothing. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/**
 * The event in a webhook request, when its Stripe-Signature header proves Stripe sent exactly this body
 * for this secret less than WEBHOOK_TOLERANCE_SECONDS ago. `rawBody` is the body as received (the text
 * or bytes, never re-serialized JSON: any change breaks the signature). Throws WebhookSignatureError.
 */
export function verifyStripeWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: { now?: Date } = {},
): StripeEvent {
  if (!signatureHeader) throw new WebhookSignatureError("No Stripe-Signature header");
  try {
    return Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      options.now?.getTime(),
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new WebhookSignatureError(error.message);
    }
    // A body that is signed but is not JSON cannot be Stripe's either.
    throw new WebhookSignatureError(`Unreadable webhook payload: ${(error as Error).message}`);
  }
}

/**
 * For tests: the Stripe-Signature header Stripe would send with this payload (the exact text posted),
 * signed with `secret` at `timestamp` (default now).
 */
export function signStripeWebhookPayload(payload: string, secret: string, options: { timestamp?: Date } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: options.timestamp ? Math.floor(options.timestamp.getTime() / 1000) : undefined,
  });
}
