import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrations } from "~db/schema";
import { startSellerFormApp } from "../support/seller-form-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, expectNoAxeViolations, javaScriptModes } from "./browser";

// Issue 8's first part in Chromium, with JavaScript on and off: a seller registers, staff find the
// registration in the queue, read it and approve it after the confirmation; the seller follows the
// e-mailed link, sets up the account, signs in and sees the free trial.

const STAFF = { email: "review-staff@example.com", password: "review-staff-password" };

let app: Awaited<ReturnType<typeof startSellerFormApp>>;
beforeAll(async () => {
  app = await startSellerFormApp("pglite", { SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
});
afterAll(async () => {
  await app?.app.stop();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.app.baseURL);

describe.each(javaScriptModes)("staff review with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("takes a seller from registration through approval to a signed-in account", async () => {
    const salesEmail = `approved-${mode}@seller.example`;
    const name = `Approved Seller ${mode} Ltd.`;
    const token = await app.sellerToken();
    const registered = await app.submit(
      token,
      app.completeForm({
        name,
        email: `office-${mode}@seller.example`,
        "salesContact.email": salesEmail,
        "salesContact.confirm_email": salesEmail,
      }),
    );
    expect(registered.status).toBe(302);

    // Staff: the queue, the registration, the confirmation, the decision.
    const staffPage = await open(mode);
    await signInAs(staffPage, mode, STAFF);
    await staffPage.goto("/staff/registrations?status=submitted");
    await axe(staffPage);
    await submit(staffPage, mode, staffPage.getByRole("link", { name }), { clientSide: true });
    await staffPage.getByRole("heading", { level: 1, name }).waitFor();
    await axe(staffPage);
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Approve", exact: true }));
    await staffPage.getByRole("heading", { name: "Approve this registration?" }).waitFor();
    await axe(staffPage);
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Yes, approve" }));
    await expect.poll(() => staffPage.locator("main").textContent()).toContain("Registration approved");
    expect(await staffPage.locator("main").textContent()).toContain(`Approved by ${STAFF.email}`);
    await axe(staffPage);
    const [row] = await app.app.services.db.select().from(registrations).where(eq(registrations.name, name));
    expect(row?.status).toBe("approved");
    await staffPage.context().close();

    // The seller: the e-mailed link, account setup, sign in.
    const [mail] = await app.app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, salesEmail));
    const link = /https?:\/\/\S+\/account-setup\/[A-Za-z0-9_-]+/.exec(mail?.text ?? "")?.[0];
    expect(link).toBeDefined();
    const sellerPage = await open(mode);
    await sellerPage.goto(link ?? "");
    await sellerPage.getByLabel("New Password").fill("seller-password-1");
    await sellerPage.getByLabel("Confirm Password").fill("seller-password-1");
    await sellerPage.getByLabel("Timezone").selectOption({ index: 1 });
    await submit(sellerPage, mode, sellerPage.getByRole("button", { name: "Submit" }));
    await expect.poll(() => sellerPage.locator("main").textContent()).toContain("Setup Complete!");
    await signInAs(sellerPage, mode, { email: salesEmail, password: "seller-password-1" });
    await expect.poll(() => sellerPage.locator("main").textContent()).toContain(name);
    const account = (await sellerPage.locator("main").textContent()) ?? "";
    expect(account).toContain("Seller");
    // The trial started at approval: its end, the first charge and the card.
    expect(account).toContain("Free trial until");
    expect(account).toContain("$217.35");
    expect(account).toContain("Visa ending 4242");
    await axe(sellerPage);
    await sellerPage.context().close();
  });
});
