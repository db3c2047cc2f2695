import { useMatches } from "react-router";

/**
 * A route's `handle` that says its page works without JavaScript (issue 20): a first visit to it gets
 * the server's HTML with no scripts at all, neither React Router's nor its module preloads. A visitor
 * who arrives there by a link inside the running app still gets it rendered by the app (the scripts
 * are already loaded), so navigation, the progress bar and scroll restoration behave as elsewhere.
 * `scripts` are small plain modules (URLs from a `?url` import) that enhance such a page instead.
 */
export type PageScripts = { hydrate: false; scripts?: string[] };

export function isPageScripts(handle: unknown): handle is PageScripts {
  return typeof handle === "object" && handle !== null && (handle as { hydrate?: unknown }).hydrate === false;
}

/**
 * What the document ships: the app's scripts, or (for a page whose route opts out) only its own small
 * enhancement scripts. Only the server's render can opt out: in the browser the app is running already.
 */
export function usePageScripts(): { app: true } | { app: false; scripts: string[] } {
  const matches = useMatches();
  if (typeof document !== "undefined") return { app: true };
  const optedOut = matches.filter((match) => isPageScripts(match.handle));
  if (optedOut.length === 0) return { app: true };
  return { app: false, scripts: optedOut.flatMap((match) => (match.handle as PageScripts).scripts ?? []) };
}
