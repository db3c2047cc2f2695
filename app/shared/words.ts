// Words built from numbers and times, by the language's own rules (Intl.PluralRules) rather than by
// hand (issue 32): every message, page, e-mail and PDF that shows a count or a time range says it here.

const cardinalRules = new Intl.PluralRules("en-CA");
const ordinalRules = new Intl.PluralRules("en-CA", { type: "ordinal" });
const ORDINAL_SUFFIXES: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };

/** `one` for a count the language calls singular (1), `other` for the rest: ("bid was", "bids were"). */
export const pluralOf = <T extends string>(n: number, one: T, other: T): T =>
  cardinalRules.select(n) === "one" ? one : other;

/** 0 → "0 bids", 1 → "1 bid", 2 → "2 bids". */
export const counted = (n: number, one: string, other: string): string => `${n} ${pluralOf(n, one, other)}`;

/** In running text: 0 → "no bids", 1 → "one bid", 2 → "2 bids". */
export const countedInWords = (n: number, one: string, other: string): string =>
  n === 0 ? `no ${other}` : cardinalRules.select(n) === "one" ? `one ${one}` : counted(n, one, other);

/** How often: 0 → "never", 1 → "once", 2 → "2 times". */
export const howOften = (n: number): string =>
  n === 0 ? "never" : cardinalRules.select(n) === "one" ? "once" : counted(n, "time", "times");

/** "Bid" → "bid", for a phrase that starts a sentence elsewhere; "one bid" → "One bid". */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A moment or a span, as its ends read once formatted: "at 1:58 p.m." when both ends format the
 * same (two bids in the same minute), "between 1:58 p.m. and 2:03 p.m." otherwise.
 */
export function timeRange<T>(from: T, to: T, format: (time: T) => string): string {
  const first = format(from);
  const last = format(to);
  return first === last ? `at ${first}` : `between ${first} and ${last}`;
}

/** 1 → "1st", 2 → "2nd", 3 → "3rd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  return `${n}${ORDINAL_SUFFIXES[ordinalRules.select(n)] ?? "th"}`;
}

const conjunction = new Intl.ListFormat("en-CA", { type: "conjunction" });

/** ["2"] → "2", ["2", "3"] → "2 and 3", ["2", "3", "5"] → "2, 3 and 5". */
export const listOfWords = (items: readonly string[]): string => conjunction.format(items);

/** "15 minutes", "1 minute": for the messages that say how long to wait (never less than a minute). */
export function describeWait(seconds: number): string {
  return counted(Math.max(1, Math.ceil(seconds / 60)), "minute", "minutes");
}

/** How far off a day is: 0 → "today", 1 → "tomorrow", 2 → "in 2 days". */
export const inDays = (days: number): string =>
  days === 0 ? "today" : days === 1 ? "tomorrow" : `in ${counted(days, "day", "days")}`;
