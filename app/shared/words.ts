// Words built from numbers, by the language's own rules (Intl.PluralRules) rather than by hand.

const ordinalRules = new Intl.PluralRules("en-CA", { type: "ordinal" });
const ORDINAL_SUFFIXES: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };

/** 1 → "1st", 2 → "2nd", 3 → "3rd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  return `${n}${ORDINAL_SUFFIXES[ordinalRules.select(n)] ?? "th"}`;
}

const conjunction = new Intl.ListFormat("en-CA", { type: "conjunction" });

/** ["2"] → "2", ["2", "3"] → "2 and 3", ["2", "3", "5"] → "2, 3 and 5". */
export const listOfWords = (items: readonly string[]): string => conjunction.format(items);
