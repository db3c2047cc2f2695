export function NotFoundContent() {
  return (
    <div className="narrow">
      <h1>Page Not Found</h1>
      <p className="error-code">Error 404</p>
      <p>The page you are looking for does not exist.</p>
      <p>
        Check the address, or go to the <a href="/">home page</a>.
      </p>
    </div>
  );
}
