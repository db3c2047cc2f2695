import { utcDay } from "~/shared/dates";

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
