export const SITE_NAME = "Upstream Marketplace";

/** "<page> | Upstream Marketplace"; with errors, GOV.UK's "Error: " prefix so screen readers hear it first. */
export function pageTitle(page: string, options: { hasErrors?: boolean } = {}): string {
  return `${options.hasErrors ? "Error: " : ""}${page} | ${SITE_NAME}`;
}
