/**
 * Where to go after sign-in: `to` only when it is a path on this site, otherwise the default.
 * Refuses other origins in every spelling browsers accept: //evil, /\evil, https://evil, \\evil,
 * and control characters that browsers strip.
 */
export function safeRedirect(to: unknown, fallback = "/account"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  const base = "http://placeholder.invalid";
  try {
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
