import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { errorAlert, fixtures, signIn } from "./account-helpers";
import {
  baseURL,
  browserForFile,
  expectNoAxeViolations,
  openPage,
  openPageWithoutAppScripts,
  validateHtml,
  waitForAppIfShipped,
} from "./browser";

// axe (WCAG 2.2 AA) on every account screen and state (empty, with errors, done, bad link) with
// JavaScript on and in the no-JavaScript state, and their server HTML through the W3C Nu validator.

const { browser } = browserForFile();

type State = "js" | "no-app-scripts";

async function open(state: State): Promise<{ context: BrowserContext; page: Page }> {
  const opened = state === "js" ? await openPage(browser(), "js") : await openPageWithoutAppScripts(browser());
  onTestFinished(() => opened.context.close());
  opened.context.setDefaultTimeout(15_000);
  return opened;
}

/** Goes to a path; with the app's scripts, waits for hydration; without, checks they did not run. */
async function go(page: Page, state: State, path: string): Promise<void> {
  await page.goto(path);
  if (state === "js") await waitForAppIfShipped(page);
  else expect(await page.locator(".progress").count()).toBe(0);
}

/** Presses the main form's button and waits for the 'Error!' alert. */
async function submitForErrors(page: Page, button: string): Promise<void> {
  await page.getByRole("main").getByRole("button", { name: button }).click();
  await errorAlert(page).first().waitFor();
  await page.waitForLoadState("domcontentloaded");
}

type Screen = { name: string; visit: (page: Page, state: State) => Promise<void> };

const screens: Screen[] = [
  { name: "/login", visit: (page, state) => go(page, state, "/login") },
  {
    name: "/login with the empty-form messages",
    visit: async (page, state) => {
      await go(page, state, "/login");
      await submitForErrors(page, "Sign in");
    },
  },
  {
    name: "/login with 'Invalid username or password.'",
    visit: async (page, state) => {
      await go(page, state, "/login");
      await signIn(page, state === "js" ? "js" : "no-js", { email: fixtures().mistyped.email, password: "wrong-pw" });
      await errorAlert(page).first().waitFor();
    },
  },
  { name: "/forgot-password", visit: (page, state) => go(page, state, "/forgot-password") },
  {
    name: "/forgot-password with a malformed address",
    visit: async (page, state) => {
      await go(page, state, "/forgot-password");
      await page.getByRole("main").getByLabel("Email", { exact: true }).fill("not-an-address");
      await submitForErrors(page, "Submit");
    },
  },
  { name: "/forgot-password, request sent", visit: (page, state) => go(page, state, "/forgot-password?done=sent") },
  { name: "/set-password/{token}", visit: (page, state) => go(page, state, fixtures().setPasswordLinks.axe.path) },
  {
    name: "/set-password/{token} with 'Passwords do not match.'",
    visit: async (page, state) => {
      await go(page, state, fixtures().setPasswordLinks.axe.path);
      await page.getByRole("main").getByLabel("New Password", { exact: true }).fill("prairie-sky-1");
      await page.getByRole("main").getByLabel("Confirm Password", { exact: true }).fill("prairie-sky-2");
      await submitForErrors(page, "Submit");
    },
  },
  { name: "/account-setup/{token}", visit: (page, state) => go(page, state, fixtures().accountSetupLinks.axe.path) },
  {
    name: "/account-setup/{token} with every message",
    visit: async (page, state) => {
      await go(page, state, fixtures().accountSetupLinks.axe.path);
      await submitForErrors(page, "Submit");
    },
  },
  { name: "a bad reset link", visit: (page, state) => go(page, state, "/reset-password/not-a-real-token") },
  { name: "/reset-password/complete", visit: (page, state) => go(page, state, "/reset-password/complete") },
  { name: "/set-password/complete", visit: (page, state) => go(page, state, "/set-password/complete") },
  { name: "/account-setup/complete", visit: (page, state) => go(page, state, "/account-setup/complete") },
  {
    name: "/account for staff, signed in",
    visit: async (page, state) => {
      await go(page, state, "/login");
      await signIn(page, state === "js" ? "js" : "no-js", fixtures().staff);
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
    },
  },
  {
    name: "/account/notifications with a page of them and an older page, signed in",
    visit: async (page, state) => {
      await go(page, state, "/login");
      await signIn(page, state === "js" ? "js" : "no-js", fixtures().notified);
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
      await go(page, state, "/account/notifications");
      await page
        .getByRole("navigation", { name: "Pages of notifications" })
        .getByRole("link", { name: "Older" })
        .waitFor();
    },
  },
];

describe.each(["js", "no-app-scripts"] as const)("axe on the account screens, %s", (state) => {
  it.each(screens)("$name has no violations", async (screen) => {
    const { page } = await open(state);
    await screen.visit(page, state);
    await expectNoAxeViolations(page);
  });
});

describe("W3C Nu validator", () => {
  it("finds no errors in the server HTML of the account screens", async () => {
    const { setPasswordLinks, accountSetupLinks, staff, notified } = fixtures();
    const documents: Record<string, string> = {};
    const fetchPage = async (name: string, path: string, init?: RequestInit) => {
      const response = await fetch(`${baseURL()}${path}`, { redirect: "manual", ...init });
      expect(response.headers.get("content-type"), name).toMatch(/^text\/html/);
      documents[name] = await response.text();
      return response;
    };
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });

    // Signed in as staff, for /account; as a user with notifications, for /account/notifications.
    const cookieOf = async (account: { email: string; password: string }) => {
      const signedIn = await fetch(`${baseURL()}/login`, { ...form(account), redirect: "manual" });
      expect(signedIn.status).toBe(302);
      return (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    };
    const cookie = await cookieOf(staff);
    const notifiedCookie = await cookieOf(notified);

    await Promise.all([
      fetchPage("login", "/login"),
      fetchPage("login-empty", "/login", form({ email: "", password: "" })),
      fetchPage("forgot", "/forgot-password"),
      fetchPage("forgot-malformed", "/forgot-password", form({ email: "not-an-address" })),
      fetchPage("forgot-sent", "/forgot-password?done=sent"),
      fetchPage("set-password", setPasswordLinks.axe.path),
      fetchPage(
        "set-password-mismatch",
        setPasswordLinks.axe.path,
        form({ newPassword: "abcdef", confirmPassword: "x" }),
      ),
      fetchPage("account-setup", accountSetupLinks.axe.path),
      fetchPage("account-setup-empty", accountSetupLinks.axe.path, form({})),
      fetchPage("bad-link", "/reset-password/not-a-real-token"),
      fetchPage("reset-complete", "/reset-password/complete"),
      fetchPage("set-complete", "/set-password/complete"),
      fetchPage("setup-complete", "/account-setup/complete"),
      fetchPage("account", "/account", { headers: { cookie } }),
      fetchPage("account-notified", "/account", { headers: { cookie: notifiedCookie } }),
      fetchPage("notifications", "/account/notifications", { headers: { cookie: notifiedCookie } }),
      fetchPage("notifications-2", "/account/notifications?page=2", { headers: { cookie: notifiedCookie } }),
    ]);
    expect(documents.notifications).toContain("Auction closed: well 60");
    expect(documents["notifications-2"]).toContain("Auction closed: well 10");
    expect(documents.account).toContain("Your account");
    expect(await validateHtml(documents)).toEqual([]);
  });
});
