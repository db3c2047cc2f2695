import { Link } from "react-router";

// Page links under a long list (the staff queue, the auction list): plain links that keep the list's
// other query parameters (its filters), so they work without JavaScript.

/** The page asked for in `?page=`: a whole number from 1 (at most six digits); anything else is the first. */
export function pageOf(url: URL): number {
  const value = url.searchParams.get("page");
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** How many pages `total` rows make at `size` a page (at least one). */
export const pageCountOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** "?status=submitted&page=2": the current search with another page (none for the first). */
function searchFor(search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const text = params.toString();
  return text ? `?${text}` : "?";
}

/** Previous and next page links and where the reader is; nothing when everything fits on one page. */
export function Pager({
  page,
  pageCount,
  search,
  label,
}: {
  page: number;
  pageCount: number;
  search: string;
  label: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="button-row">
      {page > 1 ? <Link to={searchFor(search, page - 1)}>Previous page</Link> : null}
      <span>{`Page ${Math.min(page, pageCount)} of ${pageCount}`}</span>
      {page < pageCount ? <Link to={searchFor(search, page + 1)}>Next page</Link> : null}
    </nav>
  );
}
