import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

// Logs and metrics name a request by its route's pattern ("/reset-password/:passwordResetToken"),
// never by its URL: paths carry tokens and access codes, and raw URLs would give a metric a label
// value per visitor.

type FlatRoute = { id: string; parentId?: string; path?: string; index?: boolean };
type LabelledRoute = RouteObject & { pattern: string };

/** Static files, fast paths and anything no route matches get a label from this fixed set. */
export const UNMATCHED_ROUTE = "unmatched";
export const STATIC_FILE_ROUTE = "static file";

function join(parent: string, path: string | undefined): string {
  if (!path) return parent || "/";
  const base = parent === "/" ? "" : parent;
  return `${base}/${path}`.replace(/\/+/g, "/");
}

/** The route tree of a server build, each route carrying its full pattern. */
function routeTree(routes: Record<string, FlatRoute | undefined>): LabelledRoute[] {
  const childrenOf = new Map<string | undefined, FlatRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = childrenOf.get(route.parentId) ?? [];
    siblings.push(route);
    childrenOf.set(route.parentId, siblings);
  }
  const build = (parentId: string | undefined, parentPattern: string): LabelledRoute[] =>
    (childrenOf.get(parentId) ?? []).map((route) => {
      const pattern = join(parentPattern, route.path);
      const children = build(route.id, pattern);
      return route.index
        ? { id: route.id, index: true, pattern }
        : { id: route.id, path: route.path, pattern, children };
    });
  return build(undefined, "");
}

/** Paths remembered with their label; past this many the memory starts again (ids and tokens make paths without end). */
const REMEMBERED_PATHS = 2_000;
const NUMBER_SEGMENT = /\/\d+(?=\/|$)/g;

/** `labelOf(pathname)`: the pattern of the deepest route matching the path, or `UNMATCHED_ROUTE`. */
export function createRouteLabeller(build: Pick<ServerBuild, "routes">): (pathname: string) => string {
  const flat = build.routes as Record<string, FlatRoute | undefined>;
  const tree = routeTree(flat);
  // Matching ranks every route on each call (over a millisecond for the app's routes): each request
  // would pay it once per label. Paths are remembered instead, a number in a path standing for any
  // number (`/auctions/12` and `/auctions/13` match alike) unless some route spells a number itself.
  const numbersAreParameters = !Object.values(flat).some((route) => /(^|\/)\d+(\/|$)/.test(route?.path ?? ""));
  const labels = new Map<string, string>();
  return (pathname) => {
    const key = numbersAreParameters ? pathname.replace(NUMBER_SEGMENT, "/0") : pathname;
    const known = labels.get(key);
    if (known !== undefined) return known;
    const matches = matchRoutes(tree, pathname);
    const label = (matches?.at(-1)?.route as LabelledRoute | undefined)?.pattern ?? UNMATCHED_ROUTE;
    if (labels.size >= REMEMBERED_PATHS) labels.clear();
    labels.set(key, label);
    return label;
  };
}
