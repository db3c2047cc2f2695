import { data } from "react-router";
import type { PageScripts } from "~/layout/no-javascript";
import { pageTitle } from "~/layout/page-title";
import { NotFoundContent } from "./not-found-content";

// Catch-all route: any path no other route claims answers 404 inside the normal layout.
export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

// Works without JavaScript: a first visit gets none (issue 20).
export const handle: PageScripts = { hydrate: false };

export function meta() {
  return [{ title: pageTitle("Page Not Found") }];
}

export default function NotFound() {
  return <NotFoundContent />;
}
