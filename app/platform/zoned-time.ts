import { utcMinute } from "~/shared/dates";
// Times are stored in UTC and shown in each user's time zone (an IANA name such as
// "America/Edmonton"). These turn a wall-clock time typed into a datetime-local field into UTC and
// back, with Intl only (no library in the browser bundle), daylight saving included.

export const DEFAULT_TIMEZONE = "America/Edmonton";

/**
 * One formatter per zone and purpose: making a formatter costs far more than using one (a page shows
 * many times). Unknown zones throw, as Intl does.
 */
function formatterFor(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let formatter = cache.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", { ...options, timeZone });
    cache.set(timeZone, formatter);
  }
  return formatter;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
const partsFormatter = (timeZone: string) =>
  formatterFor(partsFormatters, timeZone, {
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });

export function isTimeZone(name: string): boolean {
  try {
    partsFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(
    partsFormatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Minutes the zone is ahead of UTC at that instant (Edmonton in winter: -420). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * "2026-12-01T09:00" in the zone → the UTC instant, or null when malformed. A time skipped by a
 * daylight-saving change moves forward; a repeated one takes its first occurrence.
 */
export function zonedLocalToUtc(local: string, timeZone: string): Date | null {
  const match = LOCAL_PATTERN.exec(local.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const naive = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(naive);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The offsets on either side of a possible daylight-saving change that day.
  const before = naive - offsetMinutes(new Date(naive - 86_400_000), timeZone) * 60_000;
  const after = naive - offsetMinutes(new Date(naive + 86_400_000), timeZone) * 60_000;
  const matching = [before, after].filter((time) => utcToZonedLocal(new Date(time), timeZone) === local.trim());
  // Skipped by a change: the clock read before the change, which lands after it.
  return new Date(matching.length > 0 ? Math.min(...matching) : before);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The instant as a datetime-local value in the zone: "2026-12-01T09:00". */
export function utcToZonedLocal(instant: Date, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

const readingFormatters = new Map<string, Intl.DateTimeFormat>();

/** For reading: "Tue, Dec 1, 2026, 9:00 a.m. MST". */
export function formatInZone(instant: Date | string, timeZone: string): string {
  return formatterFor(readingFormatters, timeZone, {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(typeof instant === "string" ? new Date(instant) : instant);
}

/** "2 h 05 min", "4 min 10 s": what is left of a duration, for people. */
export function formatDuration(milliseconds: number): string {
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${pad(minutes)} min`;
  if (minutes > 0) return `${minutes} min ${pad(seconds)} s`;
  return `${seconds} s`;
}

/**
 * Times already formatted for reading, by instant (an ISO 8601 UTC string): made on the server with
 * `zonedTexts` and shown as they are in the browser. The browser never formats a zoned time itself:
 * its time zone rules can differ from the server's (Debian's Chromium and Node disagree on
 * America/Edmonton from November 2026), and a text that differs at hydration is React error #418.
 */
export type TimeTexts = Readonly<Record<string, string>>;

const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Texts already made, by zone and instant: a busy page formats the same few hundred bid times on every
 * reload, and Intl formatting is most of what `zonedTexts` costs. Bounded: emptied when full.
 */
const madeTexts = new Map<string, string>();
const MADE_TEXTS_AT_MOST = 50_000;

function cachedFormatInZone(instant: string, timeZone: string): string {
  const key = `${timeZone} ${instant}`;
  let text = madeTexts.get(key);
  if (text === undefined) {
    text = formatInZone(instant, timeZone);
    if (madeTexts.size >= MADE_TEXTS_AT_MOST) madeTexts.clear();
    madeTexts.set(key, text);
  }
  return text;
}

/** Every instant (an ISO 8601 UTC string) anywhere in `value`, formatted for reading in the zone. */
export function zonedTexts(value: unknown, timeZone: string): Record<string, string> {
  const texts: Record<string, string> = {};
  const visit = (item: unknown) => {
    if (typeof item === "string") {
      if (UTC_INSTANT.test(item) && !(item in texts)) texts[item] = cachedFormatInZone(item, timeZone);
    } else if (Array.isArray(item)) {
      for (const element of item) visit(element);
    } else if (item && typeof item === "object") {
      for (const element of Object.values(item)) visit(element);
    }
  };
  visit(value);
  return texts;
}

/** The server's text for an instant; one it did not format reads in UTC ("2026-12-01 16:00 UTC"), the same everywhere. */
export function timeText(times: TimeTexts, instant: string): string {
  return times[instant] ?? utcMinute(instant);
}
