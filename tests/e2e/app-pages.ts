import type { Browser, Page } from "playwright-core";
import { onTestFinished } from "vitest";
import { type JavaScriptMode, openPage, waitForAppIfShipped } from "./browser";

// For browser tests that start their own app in-process (on its own address): pages on it and
// signing in.

/** A fresh page, in a context of its own, on the app at `baseURL()`; handed back when the test ends. */
export function pagesOn(browser: () => Browser, baseURL: () => string) {
  return async function open(mode: JavaScriptMode): Promise<Page> {
    const { context, page } = await openPage(browser(), mode, { baseURL: baseURL(), timeout: 15_000 });
    onTestFinished(() => context.close());
    return page;
  };
}

/**
 * Signs the page's context in and shows /account, as signing in through /login does, without
 * rendering the form: the form's own POST is sent by the context's request client, which shares the
 * context's cookies. Signing in through the form itself, with JavaScript on and off, is the subject
 * of accounts-sign-in.e2e.test.ts; here it is only the way in (two page loads fewer each time).
 */
export async function signInAs(
  page: Page,
  mode: JavaScriptMode,
  account: { email: string; password: string },
  path = "/account",
): Promise<void> {
  const response = await page.context().request.post("/login", {
    form: { email: account.email, password: account.password },
    // Not kept for the next sign-in: the context outlives the test (openPage), and a server that
    // closes an idle connection just as it is reused answers with "socket hang up" (test-server.ts).
    headers: { connection: "close" },
    maxRedirects: 0,
  });
  if (response.status() !== 302) {
    throw new Error(`signing in as ${account.email} answered ${response.status()}, not a redirect`);
  }
  await page.goto(path);
  if (mode === "js") await waitForAppIfShipped(page);
}
