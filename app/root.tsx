import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { currentUserMiddleware, getCurrentUser } from "~/sessions/auth.server";
import type { Route } from "./+types/root";
import { NotFoundContent } from "./errors/not-found-content";
import { isRequestRefusal, REQUEST_REFUSED_TITLE, RequestRefusedContent } from "./errors/request-refused-content";
import { usePageScripts } from "./layout/no-javascript";
import { useNonce } from "./layout/nonce";
import { pageTitle } from "./layout/page-title";
import { ProgressBar } from "./layout/progress-bar";
import { SiteFooter } from "./layout/site-footer";
import { SiteHeader } from "./layout/site-header";
import { StagingBanner } from "./layout/staging-banner";
import { isStagingCopy } from "./platform/env.server";
import { appServicesContext } from "./server/app-context";
import stylesheet from "./styles/app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const middleware: Route.MiddlewareFunction[] = [currentUserMiddleware];

/** Only what the layout needs: who is signed in, and whether this server is a staging copy. */
export function loader({ context }: Route.LoaderArgs) {
  const user = getCurrentUser(context);
  const staging = isStagingCopy(context.get(appServicesContext).env);
  return { signedInAs: user ? { email: user.email } : null, staging };
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const pageScripts = usePageScripts();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          Skip to main content
        </a>
        <ProgressBar />
        {rootData?.staging ? <StagingBanner /> : null}
        <SiteHeader signedInAs={rootData?.signedInAs ?? null} />
        <main id="main-content" className="page" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter />
        {pageScripts.app ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          pageScripts.scripts.map((src) => <script key={src} type="module" src={src} />)
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function meta({ error }: Route.MetaArgs) {
  if (!error) return [];
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title =
    status === 404
      ? "Page Not Found"
      : status === 403
        ? "No access"
        : isRequestRefusal(status)
          ? REQUEST_REFUSED_TITLE
          : "Something went wrong";
  return [{ title: pageTitle(title) }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="narrow">
        <h1>You do not have access to this page</h1>
        <p>
          Your account cannot open this page. If you think it should, contact your organization's administrator or us.
        </p>
        <p>
          <a href="/account">Go to your account</a>
        </p>
      </div>
    );
  }
  if (isRouteErrorResponse(error) && isRequestRefusal(error.status))
    return <RequestRefusedContent status={error.status} />;
  // Never show the error itself: it may hold internals. The server log has the details.
  return (
    <div className="narrow">
      <h1>Something went wrong</h1>
      <p>Sorry, we could not show this page. Please try again in a few minutes.</p>
      <p>
        If the problem continues, contact us at{" "}
        <a href="mailto:support@upstream-marketplace.ca">support@upstream-marketplace.ca</a>.
      </p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}
