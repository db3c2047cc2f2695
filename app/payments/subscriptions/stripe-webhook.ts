import { discardBody, readRawBody } from "~/platform/request-body.server";
import { appServicesContext } from "~/server/app-context";
import type { Route } from "./+types/stripe-webhook";
import { isProviderEvent } from "./provider-event";
import { drainSoon, storeProviderEvent } from "./provider-events.server";
import { verifyStripeEvent } from "./webhook-signature.server";

// POST /webhooks/stripe (issue 19): Stripe's events, verified on the raw body with
// STRIPE_WEBHOOK_SECRET, stored once by event id and answered at once; the work is done by the drain
// (provider-events.server.ts). Stripe sends neither Origin nor Sec-Fetch-Site, so the server's
// cross-origin check lets it through; nothing reads the body before this route.
//
// Answers: 200 stored (or a replay, which changes nothing); 400 a missing or wrong signature or a
// body that is not an event; 413 over 1 MB; 404 when STRIPE_WEBHOOK_SECRET is not set (no webhook
// here, as /dev/outbox is absent where it is shut; never a 5xx for what a client sends). Stripe
// retries any answer other than 2xx for days, so no event is lost once the secret is set.

/** Stripe's events are a few kilobytes; a megabyte is far more than any. */
const MAX_EVENT_BYTES = 1_000_000;

const answer = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appServicesContext);
  if (request.method !== "POST") {
    await discardBody(request);
    return answer(405, { error: "Only POST is accepted here." });
  }
  const secret = services.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    await discardBody(request);
    return answer(404, { error: "Not found." });
  }
  const signature = request.headers.get("stripe-signature");
  if (!signature) {
    await discardBody(request);
    return answer(400, { error: "The Stripe-Signature header is missing." });
  }
  const body = await readRawBody(request, MAX_EVENT_BYTES);
  if (body === "too-large") return answer(413, { error: "The event is too large." });
  if (body === "unreadable") return answer(400, { error: "The body could not be read." });
  const event = verifyStripeEvent(body, signature, secret);
  if (!event) return answer(400, { error: "The signature does not match the body." });
  if (!isProviderEvent(event)) return answer(400, { error: "The body is not an event." });
  const stored = await storeProviderEvent(services.db, event);
  // Processed outside the request; a crash before it runs leaves the row for the next drain.
  if (stored) void drainSoon(services);
  return answer(200, { received: true, ...(stored ? {} : { replay: true }) });
}

export function loader() {
  return answer(405, { error: "Only POST is accepted here." });
}
