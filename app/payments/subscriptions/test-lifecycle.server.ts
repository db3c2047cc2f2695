import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { MessageServices } from "~/messaging/messaging.server";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import type { AppServices } from "~/server/app-context";
import type { Database } from "~db/database.server";
import { registrations, sellerRegistrations } from "~db/schema";
import type { ProviderEvent } from "./provider-event";
import { drainProviderEvents, storeProviderEvent } from "./provider-events.server";
import { sellerSubscriptionOf } from "./seller-subscription.server";
import type { TestLifecycleStep } from "./test-lifecycle-schema";

// The test card provider's side of the subscription lifecycle (issue 19): what Stripe would send when
// a trial ends, a renewal fails, Stripe gives up retrying, or the renewal is paid after all, made as
// events in Stripe's own shapes (ids evt_test_…) and put through the same store and processing as
// the webhook's. Staff trigger these from the registration page, and `npm run subscription:test`
// from a shell; only for subscriptions on the test provider while it is the provider in use.

const API_VERSION = "2025-03-31.basil";
const testId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

type Subscription = { id: string; customer: string; trialEnd: number | null };

function event(type: string, created: number, object: Record<string, unknown>, previous?: Record<string, unknown>) {
  return {
    id: testId("evt"),
    object: "event",
    api_version: API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
  } satisfies ProviderEvent & Record<string, unknown>;
}

function subscriptionObject(subscription: Subscription, status: string, created: number) {
  return {
    id: subscription.id,
    object: "subscription",
    customer: subscription.customer,
    status,
    collection_method: "charge_automatically",
    cancel_at_period_end: false,
    created,
    trial_end: subscription.trialEnd,
    livemode: false,
  };
}

function invoiceObject(subscription: Subscription, paid: boolean, created: number) {
  return {
    id: testId("in"),
    object: "invoice",
    customer: subscription.customer,
    status: paid ? "paid" : "open",
    billing_reason: "subscription_cycle",
    collection_method: "charge_automatically",
    currency: "cad",
    amount_due: SELLER_FEES_TOTAL,
    amount_paid: paid ? SELLER_FEES_TOTAL : 0,
    amount_remaining: paid ? 0 : SELLER_FEES_TOTAL,
    attempt_count: 1,
    attempted: true,
    created,
    livemode: false,
    parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
  };
}

/** The events Stripe sends for each step, in the order it sends them. */
export function testLifecycleEvents(step: TestLifecycleStep, subscription: Subscription, now = new Date()) {
  const created = Math.floor(now.getTime() / 1000);
  switch (step) {
    case "trial-ends":
      return [
        event(
          "customer.subscription.trial_will_end",
          created,
          subscriptionObject(
            { ...subscription, trialEnd: subscription.trialEnd ?? created + 3 * 86_400 },
            "trialing",
            created,
          ),
        ),
      ];
    case "renewal-fails":
      return [
        event("invoice.payment_failed", created, invoiceObject(subscription, false, created)),
        event("customer.subscription.updated", created, subscriptionObject(subscription, "past_due", created), {
          status: "active",
        }),
      ];
    case "retries-exhausted":
      return [
        event("customer.subscription.updated", created, subscriptionObject(subscription, "unpaid", created), {
          status: "past_due",
        }),
      ];
    case "renewal-recovers":
      return [
        event("invoice.paid", created, invoiceObject(subscription, true, created)),
        event("customer.subscription.updated", created, subscriptionObject(subscription, "active", created), {
          status: "past_due",
        }),
      ];
  }
}

/** The organization's subscription when the test lifecycle applies to it: on the test provider, in use now. */
export async function testSubscriptionOf(services: Pick<AppServices, "db" | "payments">, organizationId: number) {
  if (services.payments.provider !== "test") return undefined;
  const subscription = await sellerSubscriptionOf(services.db, organizationId);
  if (subscription?.provider !== "test" || !subscription.subscriptionId) return undefined;
  if (subscription.status === "failed" || subscription.status === "cancelled") return undefined;
  const customer = await customerOf(services.db, organizationId);
  return {
    id: subscription.subscriptionId,
    customer: customer ?? "cus_test_unknown",
    trialEnd: subscription.trialEndsAt ? Math.floor(subscription.trialEndsAt.getTime() / 1000) : null,
    status: subscription.status,
  };
}

async function customerOf(db: Database, organizationId: number) {
  const [row] = await db
    .select({ customerId: sellerRegistrations.paymentCustomerId })
    .from(sellerRegistrations)
    .innerJoin(registrations, eq(registrations.id, sellerRegistrations.registrationId))
    .where(eq(registrations.organizationId, organizationId));
  return row?.customerId ?? undefined;
}

/**
 * Moves a test subscription one step: its events stored and processed at once (the same code as
 * the webhook's), so the page that asked shows the result. Answers false when the lifecycle does not
 * apply to this organization.
 */
export async function moveTestSubscription(
  services: MessageServices & Pick<AppServices, "payments">,
  organizationId: number,
  step: TestLifecycleStep,
  now = new Date(),
): Promise<boolean> {
  const subscription = await testSubscriptionOf(services, organizationId);
  if (!subscription) return false;
  for (const made of testLifecycleEvents(step, subscription, now)) await storeProviderEvent(services.db, made);
  await drainProviderEvents(services);
  return true;
}

/**
 * After a seller replaced the card while past due, the test provider charges the open invoice on it
 * at once, as Stripe does when the invoice is paid with the new card.
 */
export async function payOpenTestInvoice(
  services: MessageServices & Pick<AppServices, "payments">,
  organizationId: number,
) {
  const subscription = await testSubscriptionOf(services, organizationId);
  if (subscription?.status !== "past_due") return;
  await moveTestSubscription(services, organizationId, "renewal-recovers");
}
