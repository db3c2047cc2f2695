import type { Locator, Page } from "playwright-core";
import { expect, inject } from "vitest";
import type { Account } from "./account-fixtures";
import { baseURL, type JavaScriptMode, waitForAppIfShipped } from "./browser";

// Shared steps of the account browser tests.

export const fixtures = () => inject("accountFixtures");
export const SITE = "Upstream Marketplace";

/**
 * Goes to a path; with JavaScript on, waits until React has hydrated (the progress region appears),
 * on pages that ship the app's scripts (some need none: decision 017).
 */
export async function visit(page: Page, mode: JavaScriptMode, path: string): Promise<number | undefined> {
  const response = await page.goto(path);
  if (mode === "js") await waitForAppIfShipped(page);
  return response?.status();
}

/**
 * Presses a submit button and waits until the answer is on screen: without JavaScript the next
 * document; with JavaScript the POST's answer and the router settling. `clientSide` is for a form
 * that JavaScript checks before anything is sent.
 */
export async function submit(
  page: Page,
  mode: JavaScriptMode,
  button: Locator,
  options: { clientSide?: boolean } = {},
): Promise<void> {
  if (mode === "no-js") {
    await Promise.all([
      page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() }),
      button.click(),
    ]);
    await page.waitForLoadState("domcontentloaded");
    return;
  }
  if (options.clientSide) {
    await button.click();
    return;
  }
  const posted = page.waitForResponse((response) => response.request().method() === "POST");
  await button.click();
  await posted;
  await waitForNavigationRendered(page);
}

/**
 * Waits until the router is idle and its page is on screen. React renders a navigation in a
 * transition, so the router is idle (and the address changed) before the new page is committed;
 * the progress bar names the location it was rendered for.
 */
export async function waitForNavigationRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const router = (
      window as unknown as {
        __reactRouterDataRouter?: { state: { navigation: { state: string }; location: { key: string } } };
      }
    ).__reactRouterDataRouter;
    if (router?.state.navigation.state !== "idle") return false;
    return document.querySelector(".progress")?.getAttribute("data-location") === router.state.location.key;
  });
}

/** The red 'Error!' alert in main (the error summary, or the alert of a bad link). */
export function errorAlert(page: Page): Locator {
  return page.getByRole("main").locator(".alert--error");
}

/** Its text, once it is there. */
export async function errorAlertText(page: Page): Promise<string> {
  const alert = errorAlert(page);
  await alert.first().waitFor();
  expect(await alert.count()).toBe(1);
  expect((await alert.getByRole("heading").innerText()).trim()).toBe("Error!");
  return alert.innerText();
}

/** The inline error tied to a control by aria-describedby ("" when none). */
export function fieldError(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    return ids
      .map((id) => document.getElementById(id))
      .filter((node): node is HTMLElement => Boolean(node?.classList.contains("field__error")))
      .map((node) => (node.textContent ?? "").replace(/^\s*Error:\s*/, "").trim())
      .join(" ");
  });
}

/**
 * Checks the GOV.UK pattern for one field: the message at the field (aria-describedby, aria-invalid)
 * and the same message as a link in the summary that points at the field.
 */
export async function expectFieldMessage(page: Page, control: Locator, message: string): Promise<void> {
  await expect.poll(() => fieldError(control)).toBe(message);
  expect(await control.getAttribute("aria-invalid")).toBe("true");
  const id = await control.getAttribute("id");
  const link = errorAlert(page).getByRole("link", { name: message, exact: true });
  expect(await link.count()).toBe(1);
  expect(await link.getAttribute("href")).toBe(`#${id}`);
}

/** The error summary (or alert) has keyboard focus, so it is read first. */
export async function expectAlertFocused(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest(".alert--error")))).toBe(true);
}

export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Fills and sends a sign-in form (the one in main) and waits for the outcome. */
export async function signIn(page: Page, mode: JavaScriptMode, account: Account): Promise<void> {
  const main = page.getByRole("main");
  await main.getByLabel("Email", { exact: true }).fill(account.email);
  await main.getByLabel("Password", { exact: true }).fill(account.password);
  await submit(page, mode, main.getByRole("button", { name: "Sign in" }));
}

type OutboxMessage = { id: number; channel: string; to: string; subject: string | null; text: string };

/** The newest e-mail to an address in the dev outbox, if any. */
export async function latestEmailTo(address: string): Promise<OutboxMessage | undefined> {
  const response = await fetch(`${baseURL()}/dev/outbox.json`);
  expect(response.status).toBe(200);
  const { messages } = (await response.json()) as { messages: OutboxMessage[] };
  return messages.find((message) => message.channel === "email" && message.to === address);
}
