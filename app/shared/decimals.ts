// Numbers as people type them in forms and spreadsheets: digits, optionally grouped by thousands
// with commas ("12,500"), and at most a given number of decimals. Kept as whole numbers of the
// smallest unit (cents for money, thousandths for quantities), never as floating point.

const patterns = new Map<number, RegExp>();

/**
 * "12,500.5" with 2 decimals → 1250050; null when the text is not such a number or its value is not
 * a safe integer. No sign, exponent, radix prefix or space inside.
 */
export function parseGroupedDecimal(text: string, decimals: number): number | null {
  let pattern = patterns.get(decimals);
  if (!pattern) {
    pattern = new RegExp(`^(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d{1,${decimals}}))?$`);
    patterns.set(decimals, pattern);
  }
  const match = pattern.exec(text);
  if (!match) return null;
  const whole = Number((match[1] ?? "").replaceAll(",", ""));
  const value = whole * 10 ** decimals + Number((match[2] ?? "").padEnd(decimals, "0"));
  return Number.isSafeInteger(value) ? value : null;
}
