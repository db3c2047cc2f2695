import { data } from "react-router";
import { pageTitle } from "~/layout/page-title";
import { NotFoundContent } from "./not-found-content";

// Catch-all route: any path no other route claims answers 404 inside the normal layout.
export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: pageTitle("Page Not Found") }];
}

export default function NotFound() {
  return <NotFoundContent />;
}
