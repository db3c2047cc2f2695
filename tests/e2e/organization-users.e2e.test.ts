import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { organizations, users } from "~db/schema";
import { startTestApp, type TestApp } from "../support/test-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, javaScriptModes } from "./browser";

// /account/users in Chromium, with JavaScript on and off: the administrator's invitation refused at
// its fields (summary first, what was typed kept), then sent. Any page error fails the test.

const PASSWORD = "users-admin-password";
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp("pglite");
  const { db } = app.services;
  const [organization] = await db
    .insert(organizations)
    .values({ name: "Pumpjack Services Ltd.", organizationType: 3 })
    .returning();
  const passwordHash = await hashPassword(PASSWORD);
  await db.insert(users).values(
    javaScriptModes.map((mode) => ({
      email: `admin-${mode}@pumpjack.example`,
      role: 3,
      organizationId: organization?.id,
      passwordHash,
      isOrganizationAdmin: true,
    })),
  );
});
afterAll(async () => {
  await app?.stop();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.baseURL);

describe.each(javaScriptModes)("inviting a user with %s", (mode) => {
  it("refuses a bad address and a missing last name at their fields, keeps what was typed, then sends", async () => {
    const page = await open(mode);
    await signInAs(page, mode, { email: `admin-${mode}@pumpjack.example`, password: PASSWORD });
    await page.goto("/account/users");
    await page.getByLabel("Email", { exact: true }).fill("dana-at-pumpjack");
    await page.getByLabel("First Name", { exact: true }).fill("Dana");
    // With JavaScript the browser answers as the server would, without a round trip.
    await submit(page, mode, page.getByRole("button", { name: "Send invitation" }), { clientSide: mode === "js" });

    const summary = page.locator(".alert--error").filter({ has: page.locator("#error-summary-title") });
    await expect.poll(() => summary.textContent()).toContain("Please enter an email address");
    expect(await summary.textContent()).toContain("Please enter a last name");
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("alert--error"))).toBe(true);
    expect(await summary.getByRole("link", { name: "Please enter a last name" }).getAttribute("href")).toBe(
      "#invite-lastName",
    );
    const email = page.getByLabel("Email", { exact: true });
    expect(await email.inputValue()).toBe("dana-at-pumpjack");
    expect(await page.getByLabel("First Name", { exact: true }).inputValue()).toBe("Dana");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    const errorText = await page.locator(`[id="${describedBy.split(" ").at(-1)}"]`).textContent();
    expect(errorText).toContain("Please enter an email address");

    await email.fill(`dana-${mode}@pumpjack.example`);
    await page.getByLabel("Last Name", { exact: true }).fill("Moreau");
    await submit(page, mode, page.getByRole("button", { name: "Send invitation" }));
    await expect.poll(() => page.locator("main").textContent()).toContain("Invitation sent");
    expect(await page.locator("main").textContent()).toContain(`dana-${mode}@pumpjack.example`);
  });
});
