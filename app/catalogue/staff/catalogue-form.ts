import type { ServiceNode } from "../services.server";

/**
 * Splits a catalogue module's errors (API keys: a field name or "form") into what a Conform
 * reply shows at the fields and in the summary, so the pages and the API share one set of rules.
 */
export function catalogueReply(errors: Record<string, string>, fieldNames: readonly string[]) {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [key, message] of Object.entries(errors)) {
    if (fieldNames.includes(key)) fieldErrors[key] = [message];
    else formErrors.push(message);
  }
  return { fieldErrors, formErrors };
}

/** Where a list page's notice comes from: `?done=<what>` after a redirect (POST, redirect, GET). */
export const CATALOGUE_NOTICES = {
  created: "added.",
  updated: "saved.",
  deleted: "deleted.",
} as const;
export type CatalogueNotice = keyof typeof CATALOGUE_NOTICES;

export function noticeFrom(url: string, subject: string): string | null {
  const done = new URL(url).searchParams.get("done");
  return done && done in CATALOGUE_NOTICES ? `${subject} ${CATALOGUE_NOTICES[done as CatalogueNotice]}` : null;
}

/**
 * The services a service may be placed under: top groups and sub-services (a sub-sub-service has no
 * room below it), labelled with their path. On edit, the service itself and its own sub-services are
 * left out; the server refuses them anyway.
 */
export function parentOptions(tree: ServiceNode[], excludeId?: number): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = [];
  const visit = (node: ServiceNode, path: string[]) => {
    if (node.id === excludeId) return;
    const label = [...path, node.name].join(" › ");
    if (node.depth < 3) options.push({ value: String(node.id), label });
    for (const child of node.children) visit(child, [...path, node.name]);
  };
  for (const node of tree) visit(node, []);
  return options;
}
