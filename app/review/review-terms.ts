import { utcDay } from "~/shared/dates";
import { REGISTRATION_TYPES } from "~/shared/roles";

// Words and codes of the review pages, shared by the pages and the server module.

export const REGISTRATION_STATUSES = [
  { value: "submitted", label: "Awaiting review" },
  { value: "changes_requested", label: "Changes requested" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number]["value"];

export const typeLabelOf = (code: number) => REGISTRATION_TYPES.find((type) => type.code === code)?.label ?? "Unknown";
export const statusLabelOf = (status: string) =>
  REGISTRATION_STATUSES.find((entry) => entry.value === status)?.label ?? status;

/** Days before an expiry date from which it is flagged as soon to expire. */
export const EXPIRING_WITHIN_DAYS = 30;

/** An expiry date (YYYY-MM-DD) against today: expired, expiring within 30 days, or fine. */
export function expiryState(date: string | null, today: string): "expired" | "expiring" | "valid" | "none" {
  if (!date) return "none";
  if (date < today) return "expired";
  const soon = new Date(`${today}T00:00:00Z`);
  soon.setUTCDate(soon.getUTCDate() + EXPIRING_WITHIN_DAYS);
  return date <= utcDay(soon) ? "expiring" : "valid";
}
