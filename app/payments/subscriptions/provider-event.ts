// The part of Stripe's event shape the lifecycle reads (issue 19). Events are stored as sent and read
// back from the database, possibly from older API versions, so each field is read defensively.

export type ProviderEvent = {
  id: string;
  object?: "event";
  type: string;
  /** Seconds since the epoch, Stripe's clock. */
  created: number;
  livemode?: boolean;
  api_version?: string | null;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
};

/** A string field of an object, or of an expanded object's id ("cus_…" or { id: "cus_…" }). */
export function idField(object: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = object?.[name];
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") {
    return (value as { id: string }).id;
  }
  return undefined;
}

export function objectField(object: Record<string, unknown> | undefined, name: string) {
  const value = object?.[name];
  return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

export function numberField(object: Record<string, unknown> | undefined, name: string): number | undefined {
  const value = object?.[name];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The subscription an invoice is for: `parent.subscription_details.subscription` (2025 API) or `subscription` (older). */
export function invoiceSubscriptionId(invoice: Record<string, unknown>): string | undefined {
  const details = objectField(objectField(invoice, "parent"), "subscription_details");
  return idField(details, "subscription") ?? idField(invoice, "subscription");
}

/** Whether a body that verified is an event we can store: an id, a type, a time and an object. */
export function isProviderEvent(value: unknown): value is ProviderEvent {
  if (!value || typeof value !== "object") return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.id === "string" &&
    event.id.length > 0 &&
    event.id.length <= 255 &&
    typeof event.type === "string" &&
    typeof event.created === "number" &&
    Number.isFinite(event.created) &&
    Boolean(objectField(objectField(event, "data"), "object"))
  );
}

/** The provider's ids an event names, by which staff see the seller it concerns (as the lifecycle finds it). */
export function eventReferences(event: ProviderEvent): {
  subscriptionId?: string;
  customerId?: string;
  paymentMethodId?: string;
} {
  const object = event.data.object;
  return {
    subscriptionId: event.type.startsWith("invoice.")
      ? invoiceSubscriptionId(object)
      : event.type.startsWith("customer.subscription.")
        ? idField(object, "id")
        : undefined,
    customerId: idField(object, "customer") ?? idField(event.data.previous_attributes, "customer"),
    paymentMethodId: event.type.startsWith("payment_method.") ? idField(object, "id") : undefined,
  };
}
