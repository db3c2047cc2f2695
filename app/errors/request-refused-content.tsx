// The error page for a request refused as a whole (app/platform/request-body.server.ts): the body
// could not be read (400), is too large (413) or is of a kind the page does not take (415). A
// browser using the page's own form never sees it; a broken client or a tampered request does.

const REFUSED_STATUSES = new Set([400, 413, 415]);

export function isRequestRefusal(status: number): boolean {
  return REFUSED_STATUSES.has(status);
}

export const REQUEST_REFUSED_TITLE = "Request not accepted";

export function RequestRefusedContent({ status }: { status: number }) {
  return (
    <div className="narrow">
      <h1>{REQUEST_REFUSED_TITLE}</h1>
      <p>
        {status === 413
          ? "What was sent is larger than this page accepts, so nothing was saved."
          : "What was sent could not be read, so nothing was saved."}
      </p>
      <p>Please go back, reload the page and try again.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}
