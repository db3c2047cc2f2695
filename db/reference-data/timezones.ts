export interface TimezoneOption {
  /** IANA zone name, e.g. "America/Edmonton". */
  name: string;
  /** Offset from UTC in minutes at the requested instant (east positive). */
  offsetMinutes: number;
  /** Display label, e.g. "(UTC-07:00) America/Edmonton". */
  label: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      timeZoneName: "longOffset",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Parses "GMT", "GMT-07:00", "GMT+05:45" (or "GMT+05:45:30") into minutes. */
export function parseGmtOffset(text: string): number {
  const match = /^(?:GMT|UTC)(?:([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/.exec(text.trim());
  if (!match) {
    throw new Error(`Unrecognised UTC offset: ${text}`);
  }
  const [, sign, hours, minutes, seconds] = match;
  if (!sign) return 0;
  const total = Number(hours) * 60 + Number(minutes ?? 0) + Number(seconds ?? 0) / 60;
  return (sign === "-" ? -1 : 1) * Math.round(total);
}

/** The zone's offset from UTC, in minutes, at the given instant. */
export function timezoneOffsetMinutes(timeZone: string, at: Date): number {
  const part = formatterFor(timeZone)
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  return part ? parseGmtOffset(part.value) : 0;
}

/** Formats minutes as "UTC-07:00" / "UTC+00:00" / "UTC+05:45". */
export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${sign}${hh}:${mm}`;
}

/**
 * Every IANA time zone the runtime knows (plus "UTC"), labelled with its
 * offset at `at`, sorted by offset and then by name.
 */
export function listTimezones(at: Date = new Date()): TimezoneOption[] {
  const names = new Set(Intl.supportedValuesOf("timeZone"));
  names.add("UTC");
  const options: TimezoneOption[] = [];
  for (const name of names) {
    const offsetMinutes = timezoneOffsetMinutes(name, at);
    options.push({
      name,
      offsetMinutes,
      label: `(${formatUtcOffset(offsetMinutes)}) ${name}`,
    });
  }
  options.sort((a, b) => a.offsetMinutes - b.offsetMinutes || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return options;
}
