import { BILLING_PREFERENCES, type BillingPreference, DELIVERY_STATES, type DeliveryState } from "~db/invoice-terms";

/** Rows of a page of invoices (the buyer's and the staff list). */
export const PAGE_SIZE = 50;

export type StaffFilter = { state?: DeliveryState; preference?: BillingPreference };

// What the pages call an invoice's delivery state, and the filters' words (no server code here).

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  to_email: "To be e-mailed",
  emailed: "E-mailed",
  to_mail: "To mail",
  mailed: "Mailed",
  to_export: "To export",
  exported: "Exported",
};

export const isDeliveryState = (value: unknown): value is DeliveryState =>
  (DELIVERY_STATES as readonly unknown[]).includes(value);
export const isBillingPreference = (value: unknown): value is BillingPreference =>
  (BILLING_PREFERENCES as readonly unknown[]).includes(value);

/** The staff list's filters from the address; anything unknown is no filter. */
export function readFilter(url: URL): StaffFilter {
  const state = url.searchParams.get("state");
  const preference = url.searchParams.get("preference");
  return {
    state: isDeliveryState(state) ? state : undefined,
    preference: isBillingPreference(preference) ? preference : undefined,
  };
}

export function filterQuery(filter: StaffFilter, page = 1): string {
  const query = new URLSearchParams();
  if (filter.state) query.set("state", filter.state);
  if (filter.preference) query.set("preference", filter.preference);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `?${text}` : "";
}
