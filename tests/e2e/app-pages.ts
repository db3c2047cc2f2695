import type { Browser, Page } from "playwright-core";
import { submit, waitForNavigationRendered } from "./account-helpers";
import { type JavaScriptMode, openPage } from "./browser";

// For browser tests that start their own app in-process (on its own address): pages on it and
// signing in through the real form.

/** A fresh page, in a context of its own, on the app at `baseURL()`. */
export function pagesOn(browser: () => Browser, baseURL: () => string) {
  return async function open(mode: JavaScriptMode): Promise<Page> {
    const { context, page } = await openPage(browser(), mode, { baseURL: baseURL() });
    context.setDefaultTimeout(15_000);
    return page;
  };
}

/** Signs in through /login and waits for /account. */
export async function signInThroughForm(
  page: Page,
  mode: JavaScriptMode,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  if (mode === "js") {
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/account");
    // The address changes before /account is on screen (see waitForNavigationRendered).
    await waitForNavigationRendered(page);
  } else {
    await submit(page, mode, page.getByRole("button", { name: "Sign in" }));
  }
}
