import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  errorAlert,
  errorAlertText,
  expectAlertFocused,
  expectFieldMessage,
  fixtures,
  pathOf,
  SITE,
  signIn,
  submit,
  visit,
} from "./account-helpers";
import { baseURL, browserForFile, javaScriptModes } from "./browser";

// Sign-in on /login and Home, the signed-in navigation, sign-out, /account per role and the
// redirect after sign-in (issue 4, spec sections 2, 5 and 8), with JavaScript on and off.

const { open } = browserForFile({
  timeout: 15_000,
  // Nothing may ever leave for another origin (no open redirect).
  setUp: (context) =>
    context.route(
      (url) => url.hostname.endsWith("evil.example"),
      (route) => route.abort(),
    ),
});

const navigation = (page: Page) => page.getByRole("navigation", { name: "Main" });

async function expectSignedOutNavigation(page: Page): Promise<void> {
  const nav = navigation(page);
  expect(await nav.getByRole("link", { name: "Login", exact: true }).getAttribute("href")).toBe("/login");
  expect(await nav.getByRole("link", { name: "Sign up", exact: true }).getAttribute("href")).toBe("/signup");
  expect(await nav.getByRole("button", { name: /^Sign out/ }).count()).toBe(0);
}

async function expectSignedInNavigation(page: Page, email: string): Promise<void> {
  const nav = navigation(page);
  expect(await nav.getByRole("link", { name: "Account", exact: true }).getAttribute("href")).toBe("/account");
  expect(await nav.getByRole("link", { name: "Login", exact: true }).count()).toBe(0);
  expect(await nav.getByRole("link", { name: "Sign up", exact: true }).count()).toBe(0);
  // Sign-out is a POST form (a link would let any page sign the user out).
  const signOut = nav.getByRole("button", { name: `Sign out (${email})` });
  expect(await signOut.count()).toBe(1);
  const form = nav.locator("form").filter({ has: page.getByRole("button", { name: /^Sign out/ }) });
  expect((await form.getAttribute("method"))?.toLowerCase()).toBe("post");
  expect(await form.getAttribute("action")).toBe("/logout");
}

describe.each(javaScriptModes)("sign-in, JavaScript %s", (mode) => {
  it("/login: Email, Password, the links, and both messages for an empty form at the fields and under 'Error!'", async () => {
    const page = await open(mode);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    expect(await visit(page, mode, "/login")).toBe(200);
    expect(await page.title()).toBe(`Sign in | ${SITE}`);
    expect(await page.locator("h1").innerText()).toBe("Sign in");
    const main = page.getByRole("main");
    expect(await main.getByRole("link", { name: "Forgot your password?" }).getAttribute("href")).toBe(
      "/forgot-password",
    );
    expect(await main.getByRole("link", { name: "Create an account" }).getAttribute("href")).toBe("/signup");
    const email = main.getByLabel("Email", { exact: true });
    const password = main.getByLabel("Password", { exact: true });
    expect(await errorAlert(page).count()).toBe(0);

    await submit(page, mode, main.getByRole("button", { name: "Sign in" }), { clientSide: true });
    expect(await errorAlertText(page)).toContain("Please enter an email address");
    await expectFieldMessage(page, email, "Please enter an email address");
    await expectFieldMessage(page, password, "Please enter a password");
    await expectAlertFocused(page);
    // With JavaScript the browser checks the form itself; nothing is sent.
    if (mode === "js") expect(posts).toEqual([]);

    // A malformed address gets the same message; the password message goes once one is typed.
    await email.fill("not-an-address");
    await password.fill("whatever");
    await submit(page, mode, main.getByRole("button", { name: "Sign in" }), { clientSide: true });
    await expectFieldMessage(page, main.getByLabel("Email", { exact: true }), "Please enter an email address");
    await expect
      .poll(() => errorAlert(page).getByRole("link").allInnerTexts())
      .toEqual(["Please enter an email address"]);
    expect(await main.getByLabel("Email", { exact: true }).inputValue()).toBe("not-an-address");
  });

  it.each(["/login", "/"])(
    "%s: wrong credentials show 'Error!' with 'Invalid username or password.', keep the e-mail and empty the password",
    async (path) => {
      const page = await open(mode);
      const { mistyped } = fixtures();
      await visit(page, mode, path);
      await signIn(page, mode, { email: mistyped.email, password: "not-the-password" });
      expect(await errorAlertText(page)).toContain("Invalid username or password.");
      await expectAlertFocused(page);
      expect(pathOf(page)).toBe("/login");
      expect(await page.title()).toMatch(new RegExp(`Sign in \\| ${SITE}$`));
      const main = page.getByRole("main");
      expect(await main.getByLabel("Email", { exact: true }).inputValue()).toBe(mistyped.email);
      expect(await main.getByLabel("Password", { exact: true }).inputValue()).toBe("");
      await expectSignedOutNavigation(page);
      // The right password now works (and the e-mail needs no retyping).
      await main.getByLabel("Password", { exact: true }).fill(mistyped.password);
      await submit(page, mode, main.getByRole("button", { name: "Sign in" }));
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
    },
  );

  it("a signed-out visit to /account goes to /login?ref=/account and back there after sign-in; then the navigation is signed in until sign-out", async () => {
    const page = await open(mode);
    const { buyer } = fixtures();
    await visit(page, mode, "/account");
    expect(pathOf(page)).toBe("/login?ref=/account");
    await expectSignedOutNavigation(page);

    await signIn(page, mode, buyer);
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
    expect(pathOf(page)).toBe("/account");
    expect(await page.title()).toBe(`Your account | ${SITE}`);
    const main = page.getByRole("main");
    const text = await main.innerText();
    expect(text).toContain(`${buyer.name} (${buyer.email})`);
    expect(text).toContain(buyer.organization);
    expect(text).toMatch(/Role\s+Buyer/);
    expect(await main.getByRole("link", { name: "Staff area" }).count()).toBe(0);
    await expectSignedInNavigation(page, buyer.email);
    // The production server's session cookie: out of scripts' reach, not sent cross-site, HTTPS only.
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "__session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: true, path: "/" });

    // Other pages know who is signed in, and /login sends a signed-in visitor on.
    await visit(page, mode, "/about");
    await expectSignedInNavigation(page, buyer.email);
    await visit(page, mode, "/login");
    expect(pathOf(page)).toBe("/account");
    // A buyer cannot open the staff area.
    expect(await visit(page, mode, "/staff")).toBe(403);

    await visit(page, mode, "/account");
    await submit(page, mode, navigation(page).getByRole("button", { name: /^Sign out/ }));
    await expect.poll(() => pathOf(page)).toBe("/");
    await navigation(page).getByRole("link", { name: "Login", exact: true }).waitFor();
    await expectSignedOutNavigation(page);
    await visit(page, mode, "/account");
    expect(pathOf(page)).toBe("/login?ref=/account");
  });

  it("staff signing in on Home reach /account with the link to the staff area", async () => {
    const page = await open(mode);
    const { staff } = fixtures();
    await visit(page, mode, "/");
    await signIn(page, mode, staff);
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
    expect(pathOf(page)).toBe("/account");
    const main = page.getByRole("main");
    expect(await main.innerText()).toMatch(/Role\s+Staff/);
    await expectSignedInNavigation(page, staff.email);
    const staffLink = main.getByRole("link", { name: "Staff area" });
    expect(await staffLink.getAttribute("href")).toBe("/staff");
    if (mode === "no-js") {
      await Promise.all([page.waitForURL("**/staff"), staffLink.click()]);
    } else {
      await staffLink.click();
      await page.waitForURL("**/staff");
    }
    await page.getByRole("heading", { level: 1, name: "Staff area" }).waitFor();
  });

  it("after sign-in goes to ref when it is a path on this site, and never to another origin", async () => {
    const page = await open(mode);
    const { buyer } = fixtures();
    await visit(page, mode, `/login?ref=${encodeURIComponent("/faq?q=wcb")}`);
    await signIn(page, mode, buyer);
    await expect.poll(() => pathOf(page)).toBe("/faq?q=wcb");

    for (const ref of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
      await page.context().clearCookies();
      await visit(page, mode, `/login?ref=${encodeURIComponent(ref)}`);
      await signIn(page, mode, buyer);
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
      expect(page.url(), ref).toBe(`${baseURL()}/account`);
    }
  });

  it("an account with too many failed sign-ins is refused for a while with a clear message", async () => {
    const page = await open(mode);
    const { locked } = fixtures();
    await visit(page, mode, "/login");
    await signIn(page, mode, locked);
    expect(await errorAlertText(page)).toMatch(
      /Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\./,
    );
    expect(await page.getByRole("main").getByLabel("Email", { exact: true }).inputValue()).toBe(locked.email);
    expect(pathOf(page)).toBe("/login");
  });
});

describe("sign-in, JavaScript on: the button while sending", () => {
  it("is disabled while the sign-in is pending and enabled again after a failure", async () => {
    const page = await open("js");
    const { mistyped } = fixtures();
    await visit(page, "js", "/login");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/login*", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    const main = page.getByRole("main");
    const button = main.getByRole("button", { name: "Sign in" });
    await main.getByLabel("Email", { exact: true }).fill(mistyped.email);
    await main.getByLabel("Password", { exact: true }).fill("wrong-again");
    const posted = page.waitForResponse((response) => response.request().method() === "POST");
    await button.click();
    await expect.poll(() => button.isDisabled()).toBe(true);
    expect(await button.getAttribute("aria-disabled")).toBe("true");
    release();
    await posted;
    expect(await errorAlertText(page)).toContain("Invalid username or password.");
    await expect.poll(() => button.isDisabled()).toBe(false);
    expect(await button.getAttribute("aria-disabled")).toBeNull();
  });
});
