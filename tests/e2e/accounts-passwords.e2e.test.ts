import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  errorAlert,
  errorAlertText,
  expectAlertFocused,
  expectFieldMessage,
  fixtures,
  latestEmailTo,
  pathOf,
  SITE,
  signIn,
  submit,
  visit,
} from "./account-helpers";
import { baseURL, browserForFile, type JavaScriptMode, javaScriptModes, openPage } from "./browser";

// Forgot password, the whole reset loop from the dev outbox's e-mail link, set-password, account
// setup and bad links (issue 4, spec sections 2, 4, 5 and 8), with JavaScript on and off.

const LINK_PROBLEM = "Please check the link and try again.";
const SET_PASSWORD_PROBLEM = "Problem setting your password, please try again.";
const RESET_PROBLEM = "Problem sending password reset email, please check your email and try again.";

const { browser, open } = browserForFile({ timeout: 15_000 });

const main = (page: Page) => page.getByRole("main");
const newPassword = (page: Page) => main(page).getByLabel("New Password", { exact: true });
const confirmPassword = (page: Page) => main(page).getByLabel("Confirm Password", { exact: true });

/** Types two passwords and presses Submit; JavaScript catches what it can before sending. */
async function choosePasswords(
  page: Page,
  mode: JavaScriptMode,
  first: string,
  second: string,
  options: { clientSide?: boolean } = {},
): Promise<void> {
  await newPassword(page).fill(first);
  await confirmPassword(page).fill(second);
  await submit(page, mode, main(page).getByRole("button", { name: "Submit" }), options);
}

/** The password rules of spec section 5, on any of the three link pages. */
async function expectPasswordRules(page: Page, mode: JavaScriptMode): Promise<void> {
  await submit(page, mode, main(page).getByRole("button", { name: "Submit" }), { clientSide: true });
  await expectFieldMessage(page, newPassword(page), "Please enter a new password");
  await expectFieldMessage(page, confirmPassword(page), "Please confirm your new password");
  await expectAlertFocused(page);

  await choosePasswords(page, mode, "abc12", "abc12", { clientSide: true });
  await expectFieldMessage(page, newPassword(page), "Password must be at least 6 characters");

  await choosePasswords(page, mode, "prairie-sky-1", "prairie-sky-2", { clientSide: true });
  await expectFieldMessage(page, confirmPassword(page), "Passwords do not match.");
  // The earlier password messages are gone (the setup page still asks for its timezone).
  await expect
    .poll(async () =>
      (await errorAlert(page).getByRole("link").allInnerTexts()).filter((text) => /Password/.test(text)),
    )
    .toEqual(["Passwords do not match."]);
}

async function expectLinkProblem(page: Page): Promise<void> {
  expect(await errorAlertText(page)).toContain(LINK_PROBLEM);
  expect(await main(page).locator("form").count()).toBe(0);
  expect(await main(page).locator("input[type=password]").count()).toBe(0);
  expect(
    await main(page)
      .getByRole("link", { name: /new password reset link/ })
      .getAttribute("href"),
  ).toBe("/forgot-password");
}

/** A completion page: the message and a link to sign in, which works with the new password. */
async function expectCompletionAndSignIn(
  page: Page,
  mode: JavaScriptMode,
  expected: { path: string; message: string },
  account: { email: string; password: string },
): Promise<void> {
  await page.getByRole("heading", { name: expected.message }).waitFor();
  expect(pathOf(page)).toBe(expected.path);
  expect(await main(page).getByRole("status").innerText()).toContain(expected.message);
  const toLogin = main(page).getByRole("link", { name: "Go to sign in" });
  expect(await toLogin.getAttribute("href")).toBe("/login");
  await toLogin.click();
  await page.waitForURL("**/login");
  if (mode === "js") await page.locator(".progress [role=status]").waitFor({ state: "attached" });
  await signIn(page, mode, account);
  await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
  expect(await main(page).innerText()).toContain(account.email);
}

describe.each(javaScriptModes)("password recovery, JavaScript %s", (mode) => {
  it("/forgot-password: Email and Submit; an empty or malformed address gets the messages", async () => {
    const page = await open(mode);
    expect(await visit(page, mode, "/forgot-password")).toBe(200);
    expect(await page.title()).toBe(`Forgot your password? | ${SITE}`);
    const email = main(page).getByLabel("Email", { exact: true });
    expect(await email.getAttribute("type")).toBe("email");
    const button = main(page).getByRole("button", { name: "Submit" });

    await submit(page, mode, button, { clientSide: true });
    await expectFieldMessage(page, email, "Please enter an email address");
    expect(await errorAlertText(page)).not.toContain(RESET_PROBLEM);
    await expectAlertFocused(page);

    await email.fill("not-an-address");
    await submit(page, mode, button, { clientSide: true });
    await expectFieldMessage(page, main(page).getByLabel("Email", { exact: true }), "Please enter an email address");
    expect(await errorAlertText(page)).toContain(RESET_PROBLEM);
    expect(await main(page).getByLabel("Email", { exact: true }).inputValue()).toBe("not-an-address");
  });

  it("an address without an account gets the same answer as a real one, and no e-mail", async () => {
    const page = await open(mode);
    const address = `nobody-${mode}@prairie.example`;
    await visit(page, mode, "/forgot-password");
    await main(page).getByLabel("Email", { exact: true }).fill(address);
    await submit(page, mode, main(page).getByRole("button", { name: "Submit" }));
    const sent = main(page).getByRole("status");
    await sent.getByRole("heading", { name: "Password Reset Request Sent!" }).waitFor();
    expect(await sent.innerText()).toMatch(/check your email/i);
    expect(await main(page).locator("form").count()).toBe(0);
    expect(await latestEmailTo(address)).toBeUndefined();
  });

  it("the whole reset loop: request, the e-mail's link from the dev outbox, a new password, sign in; the link then is spent", async () => {
    const page = await open(mode);
    const account = fixtures().resetByMode[mode];
    const newSecret = `new-${mode}-password`;

    await visit(page, mode, "/login");
    await main(page).getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
    expect(pathOf(page)).toBe("/forgot-password");
    if (mode === "js") await page.locator(".progress [role=status]").waitFor({ state: "attached" });
    await main(page).getByLabel("Email", { exact: true }).fill(account.email.toUpperCase());
    await submit(page, mode, main(page).getByRole("button", { name: "Submit" }));
    await main(page).getByRole("heading", { name: "Password Reset Request Sent!" }).waitFor();

    const mail = await latestEmailTo(account.email);
    expect(mail?.subject).toBeTruthy();
    const escapedBase = baseURL().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const link = new RegExp(`${escapedBase}/reset-password/[A-Za-z0-9_-]{43}`).exec(mail?.text ?? "")?.[0];
    expect(link, mail?.text).toBeDefined();

    expect(await visit(page, mode, link ?? "")).toBe(200);
    expect(await page.title()).toBe(`Reset your password | ${SITE}`);
    expect(await page.locator("h1").innerText()).toBe("Reset your password");
    await expectPasswordRules(page, mode);
    await choosePasswords(page, mode, newSecret, newSecret);
    await expectCompletionAndSignIn(
      page,
      mode,
      { path: "/reset-password/complete", message: "Your password has been reset." },
      { email: account.email, password: newSecret },
    );

    // The old password is gone, and the link works only once.
    await page.context().clearCookies();
    await visit(page, mode, "/login");
    await signIn(page, mode, account);
    expect(await errorAlertText(page)).toContain("Invalid username or password.");
    expect(await visit(page, mode, link ?? "")).toBe(404);
    await expectLinkProblem(page);
  });

  it("set-password: 'Set your account password' with 'Choose a Password'; 'Password set!' and sign-in", async () => {
    const page = await open(mode);
    const { path, email } = fixtures().setPasswordLinks[mode];
    expect(await visit(page, mode, path)).toBe(200);
    expect(await page.title()).toBe(`Set your account password | ${SITE}`);
    expect(await page.locator("h1").innerText()).toBe("Set your account password");
    const group = main(page).getByRole("group", { name: "Choose a Password" });
    expect(await group.getByLabel("New Password", { exact: true }).count()).toBe(1);
    expect(await group.getByLabel("Confirm Password", { exact: true }).count()).toBe(1);
    await expectPasswordRules(page, mode);

    // A second tab on the same link: the first one to submit wins; the other hears it failed.
    const { context: otherContext, page: other } = await openPage(browser(), mode);
    onTestFinished(() => otherContext.close());
    await visit(other, mode, path);

    await choosePasswords(page, mode, "set-password-1", "set-password-1");
    await expectCompletionAndSignIn(
      page,
      mode,
      { path: "/set-password/complete", message: "Password set!" },
      { email, password: "set-password-1" },
    );

    await choosePasswords(other, mode, "set-password-2", "set-password-2");
    const failure = await errorAlertText(other);
    expect(failure).toContain(SET_PASSWORD_PROBLEM);
    expect(failure).toContain(LINK_PROBLEM);
    expect(await main(other).locator("input[type=password]").count()).toBe(0);
  });

  it("account setup: the intro, New Password, Confirm Password and Timezone; 'Setup Complete!' and sign-in", async () => {
    const page = await open(mode);
    const { path, email } = fixtures().accountSetupLinks[mode];
    expect(await visit(page, mode, path)).toBe(200);
    expect(await main(page).innerText()).toContain(
      "To complete your registration please set your account password and timezone.",
    );
    const timezone = main(page).getByLabel("Timezone", { exact: true });
    expect(await timezone.locator("option").first().innerText()).toBe("-- Please select --");
    expect(await timezone.locator("option").count()).toBeGreaterThan(10);
    await expectPasswordRules(page, mode);

    await choosePasswords(page, mode, "setup-password-1", "setup-password-1", { clientSide: true });
    await expectFieldMessage(page, main(page).getByLabel("Timezone", { exact: true }), "Please select a timezone");

    await main(page).getByLabel("Timezone", { exact: true }).selectOption("America/Edmonton");
    await choosePasswords(page, mode, "setup-password-1", "setup-password-1");
    await expectCompletionAndSignIn(
      page,
      mode,
      { path: "/account-setup/complete", message: "Setup Complete! Your account is now setup." },
      { email, password: "setup-password-1" },
    );
  });

  it("a bad, used, expired, tampered or wrong-kind link shows 'Please check the link and try again.' and no form", async () => {
    const page = await open(mode);
    for (const { label, path } of fixtures().deadLinks) {
      expect(await visit(page, mode, path), label).toBe(404);
      await expectLinkProblem(page);
    }
  });
});
