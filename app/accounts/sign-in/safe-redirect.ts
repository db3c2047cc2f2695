// Every redirect target that comes from a request (`ref` on /login, the sign-in form's
// `redirectTo`) goes through safeRedirect: it is the one check, so it reads the target exactly as a
// browser reads a Location header (the WHATWG URL parser), not as a string.

/** Any special-scheme origin resolves a path the same way; ours is a name that cannot be registered. */
const BASE = "https://our-site.invalid";
/** Longer targets are refused rather than carried around (browsers cap URLs at a few kB anyway). */
const MAX_TARGET_LENGTH = 2048;

/**
 * What the URL parser removes before it reads anything: leading and trailing C0 controls and spaces,
 * and every ASCII tab and newline (WHATWG URL, "basic URL parser", steps 1 to 3).
 */
function asBrowsersReadIt(to: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return to.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
}

/**
 * Where to go after sign-in: `to` when a browser would resolve it to a path on this site, otherwise
 * `fallback`. The answer is the path as resolved (dot segments and encoded dots applied, backslashes
 * read as slashes, the rest percent-encoded): always one "/" and then something other than "/" or
 * "\", so it cannot be read again as another origin (`//evil`, `/\evil`), and it is plain ASCII.
 */
export function safeRedirect(to: unknown, fallback = "/account"): string {
  if (typeof to !== "string" || to.length > MAX_TARGET_LENGTH) return fallback;
  const target = asBrowsersReadIt(to);
  // Only a path: "https://…", "javascript:…", "data:…", "evil.example" and "\\evil" are refused here.
  if (!target.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // "/.//evil", "/a/..//evil", "/%2e//evil" resolve to the path "//evil" on our origin, which a
  // browser given it as a Location would read as the host evil. Refused: no link of ours looks so.
  if (url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
