import { Link } from "react-router";

// "Newer" and "Older" links under a paged list; each only where there is such a page.

export function PageLinks({ label, newer, older }: { label: string; newer: string | null; older: string | null }) {
  return (
    <nav aria-label={label} className="button-row">
      {newer ? <Link to={newer}>Newer</Link> : null}
      {older ? <Link to={older}>Older</Link> : null}
    </nav>
  );
}
