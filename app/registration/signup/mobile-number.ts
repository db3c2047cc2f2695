/**
 * Spec section 5: an optional plus and a country code of 1 to 4 digits, then 3 digits (optionally in
 * brackets), 3 digits and 4 digits, with optional dot or dash separators (spaces are let through too,
 * as people type them).
 */
export const MOBILE_NUMBER_PATTERN = /^(?:\+?(\d{1,4})[-. ]?)?(\(\d{3}\)|\d{3})[-. ]?(\d{3})[-. ]?(\d{4})$/;

/** The number in E.164 (+17805551234); North American (+1) when no country code is given. Undefined if invalid. */
export function normalizeMobileNumber(input: string): string | undefined {
  const match = MOBILE_NUMBER_PATTERN.exec(input.trim());
  if (!match) return undefined;
  const [, countryCode = "1", area = "", exchange = "", line = ""] = match;
  const areaDigits = area.replace(/[()]/g, "");
  if (countryCode.startsWith("0")) return undefined;
  // North American Numbering Plan: area code and exchange never start with 0 or 1.
  if (countryCode === "1" && (/^[01]/.test(areaDigits) || /^[01]/.test(exchange))) return undefined;
  return `+${countryCode}${areaDigits}${exchange}${line}`;
}

/** For people: +1 (780) 555-1234, or the E.164 form for other countries. */
export function formatMobileNumber(e164: string): string {
  const northAmerican = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return northAmerican ? `+1 (${northAmerican[1]}) ${northAmerican[2]}-${northAmerican[3]}` : e164;
}
