import { utcToZonedLocal, zonedLocalToUtc } from "~/platform/zoned-time";

// The period of a report (issue 21): ?from=YYYY-MM-DD&to=YYYY-MM-DD, both days included, in the
// reader's time zone; either may be left empty (no bound). An auction belongs to the period its
// award falls in. A malformed date is a message at its field, and that bound is not applied: the
// page still answers 200 with what it can show (a GET filter must never 5xx on a typing mistake).

export type ReportFilter = {
  from: string;
  to: string;
  /** Inclusive lower bound, UTC. */
  fromUtc: Date | null;
  /** Exclusive upper bound, UTC: the start of the day after `to`. */
  toUtc: Date | null;
  errors: { from?: string; to?: string };
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-02-30" → null; "2026-02-28" → the date's UTC midnight as a Date (calendar arithmetic only). */
function calendarDay(value: string): Date | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

export const FROM_MESSAGE = "Enter the start of the period as a date like 2026-03-31";
export const TO_MESSAGE = "Enter the end of the period as a date like 2026-03-31";
export const ORDER_MESSAGE = "The end of the period must be on or after its start";

export function readReportFilter(url: URL, timeZone: string): ReportFilter {
  const from = (url.searchParams.get("from") ?? "").trim().slice(0, 20);
  const to = (url.searchParams.get("to") ?? "").trim().slice(0, 20);
  const errors: ReportFilter["errors"] = {};
  const fromDay = from ? calendarDay(from) : null;
  const toDay = to ? calendarDay(to) : null;
  if (from && !fromDay) errors.from = FROM_MESSAGE;
  if (to && !toDay) errors.to = TO_MESSAGE;
  if (fromDay && toDay && fromDay > toDay) errors.to = ORDER_MESSAGE;
  const fromUtc = fromDay && !errors.from ? zonedLocalToUtc(`${from}T00:00`, timeZone) : null;
  let toUtc: Date | null = null;
  if (toDay && !errors.to) {
    const next = new Date(toDay.getTime() + 86_400_000).toISOString().slice(0, 10);
    toUtc = zonedLocalToUtc(`${next}T00:00`, timeZone);
  }
  return { from, to, fromUtc, toUtc, errors };
}

/** "?from=…&to=…" for links that keep the period (the CSV link); "" when there is none. */
export function filterSearch(filter: Pick<ReportFilter, "from" | "to">): string {
  const params = new URLSearchParams();
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The month an instant falls in, in the zone: "2026-03". */
export const monthIn = (instant: Date, timeZone: string) => utcToZonedLocal(instant, timeZone).slice(0, 7);

/** The day an instant falls in, in the zone: "2026-03-31". */
export const dayIn = (instant: Date, timeZone: string) => utcToZonedLocal(instant, timeZone).slice(0, 10);
