import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrations, registrationWcbs } from "~db/schema";
import { startSellerFormApp } from "../support/seller-form-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, expectNoAxeViolations, javaScriptModes } from "./browser";

// Issue 8's second part in Chromium, with JavaScript on and off: staff ask a seller for changes, the
// seller follows the e-mailed link to the form filled in with what they sent, fixes it and
// resubmits; staff approve; the seller's administrator then edits the organization's profile and
// staff see the change, field by field.

const STAFF = { email: "changes-staff@example.com", password: "changes-staff-password" };

let app: Awaited<ReturnType<typeof startSellerFormApp>>;
beforeAll(async () => {
  app = await startSellerFormApp("pglite", { SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password });
});
afterAll(async () => {
  await app?.app.stop();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.app.baseURL);

const mainText = (page: Page) => page.locator("main").textContent();

/** The newest e-mail to `to` whose text has a link matching `pattern`: the link. */
async function linkMailedTo(to: string, pattern: RegExp) {
  const mails = await app.app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));
  const link = mails
    .map((mail) => pattern.exec(mail.text)?.[0])
    .filter(Boolean)
    .at(-1);
  expect(link).toBeDefined();
  return link ?? "";
}

describe.each(javaScriptModes)("changes and the profile with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  // The whole flow with axe at every step: over a minute when the machine is busy.
  it("asks for changes, takes the resubmission, approves, and records the profile's later changes", {
    timeout: 240_000,
  }, async () => {
    const salesEmail = `changes-${mode}@seller.example`;
    const name = `Changes Seller ${mode} Ltd.`;
    const registered = await app.submit(
      await app.sellerToken(),
      app.completeForm({
        name,
        email: `office-changes-${mode}@seller.example`,
        "salesContact.email": salesEmail,
        "salesContact.confirm_email": salesEmail,
      }),
    );
    expect(registered.status).toBe(302);
    const [row] = await app.app.services.db.select().from(registrations).where(eq(registrations.name, name));
    const id = row?.id ?? 0;

    // Staff ask for changes: an empty message is refused at the field, then the confirmation.
    const staffPage = await open(mode);
    await signInAs(staffPage, mode, STAFF);
    await staffPage.goto(`/staff/registrations/${id}`);
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Ask for changes" }));
    await expect.poll(() => mainText(staffPage)).toContain("Please say which changes the applicant should make");
    await axe(staffPage);
    await staffPage.getByLabel("Changes the applicant should make").fill("Your WCB number has a typo.");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Ask for changes" }));
    await staffPage.getByRole("heading", { name: "Ask the applicant for these changes?" }).waitFor();
    await axe(staffPage);
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Yes, ask for changes" }));
    await expect.poll(() => mainText(staffPage)).toContain(`Changes requested by ${STAFF.email}`);
    await axe(staffPage);

    // The applicant: the link, the message, the form filled in; a fix and the resubmission.
    const changesLink = await linkMailedTo(salesEmail, /https?:\/\/\S+\/signup\/registration-changes\/[\w-]+/);
    const applicant = await open(mode);
    await applicant.goto(changesLink);
    await expect.poll(() => mainText(applicant)).toContain("Your WCB number has a typo.");
    expect(await applicant.getByLabel("Organization Name").inputValue()).toBe(name);
    const wcbNumber = applicant.getByLabel("WCB Number", { exact: true });
    expect(await wcbNumber.inputValue()).toBe("1234567");
    await axe(applicant);
    await wcbNumber.fill("7654321");
    await submit(applicant, mode, applicant.getByRole("button", { name: "Resubmit Registration" }));
    await expect.poll(() => applicant.url()).toContain("/signup/seller-registration-complete");
    await applicant.context().close();
    const wcbs = await app.app.services.db
      .select()
      .from(registrationWcbs)
      .where(eq(registrationWcbs.registrationId, id));
    expect(wcbs.map((wcb) => wcb.number)).toEqual(["7654321"]);

    // Back in the queue: staff approve.
    await staffPage.goto(`/staff/registrations/${id}`);
    expect(await mainText(staffPage)).toContain("Resubmitted by the applicant");
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Approve", exact: true }));
    await submit(staffPage, mode, staffPage.getByRole("button", { name: "Yes, approve" }));
    await expect.poll(() => mainText(staffPage)).toContain("Registration approved");

    // The seller sets up the account and changes the organization's phone number.
    const setupLink = await linkMailedTo(salesEmail, /https?:\/\/\S+\/account-setup\/[\w-]+/);
    const seller = await open(mode);
    await seller.goto(setupLink);
    await seller.getByLabel("New Password").fill("changes-password-1");
    await seller.getByLabel("Confirm Password").fill("changes-password-1");
    await seller.getByLabel("Timezone").selectOption({ index: 1 });
    await submit(seller, mode, seller.getByRole("button", { name: "Submit" }));
    await expect.poll(() => mainText(seller)).toContain("Setup Complete!");
    await signInAs(seller, mode, { email: salesEmail, password: "changes-password-1" });
    await submit(seller, mode, seller.getByRole("link", { name: "Your organization's profile" }), { clientSide: true });
    await seller.getByRole("heading", { level: 1, name: "Organization profile" }).waitFor();
    await axe(seller);
    const phone = seller.getByLabel("Phone", { exact: true }).first();
    await phone.fill("780-555-0199");
    await submit(seller, mode, seller.getByRole("button", { name: "Save changes" }));
    await expect.poll(() => mainText(seller)).toContain("profile has been saved");
    await axe(seller);
    await seller.context().close();

    // Staff see what changed.
    await staffPage.goto(`/staff/registrations/${id}`);
    const log = (await mainText(staffPage)) ?? "";
    expect(log).toContain(`Profile changed by ${salesEmail}`);
    expect(log).toContain("780-555-0100");
    expect(log).toContain("780-555-0199");
    await axe(staffPage);
    await staffPage.context().close();
  });
});
