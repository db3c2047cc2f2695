import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { registrations, users } from "~db/schema";
import type { startSellerFormApp } from "../support/seller-form-app";
import { NEXT_YEAR } from "../support/seller-registration-body";
import type { createClient } from "../support/test-app";

// Filling the seller form in a browser, and approved sellers made through it, shared by the seller
// browser tests.

/** Every required field except the card and the service categories (so each test picks its own). */
export async function fillRequiredSellerFields(page: Page, options: { email: string; hydrated: boolean }) {
  await page.getByLabel("Organization Name").fill("Roughneck Services Ltd.");
  await page.getByLabel("Address").fill("10 Industrial Way");
  await page.getByLabel("City").fill("Nisku");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByLabel(options.hydrated ? "Province" : "Province (Canada)", { exact: true }).selectOption("AB");
  await page.getByLabel("Postal / Zip Code").fill("T9E 7N5");
  const general = page.getByRole("region", { name: "1.0 General" });
  await general.getByLabel("Phone", { exact: true }).fill("780-555-0100");
  await general.getByLabel("Email", { exact: true }).fill(options.email);
  for (const index of [0, 1]) {
    await page.getByLabel("Coverage").nth(index).selectOption({ index: 1 });
    await page.getByLabel("Expiry Date", { exact: true }).nth(index).fill(`${NEXT_YEAR}-06-30`);
  }
  await page.getByLabel("Primary Industry", { exact: true }).selectOption({ index: 1 });
  const sales = page.getByRole("group", { name: "Sales Contact" });
  await sales.getByLabel("First Name").fill("Sam");
  await sales.getByLabel("Last Name").fill("Driller");
  await sales.getByLabel("Phone").fill("780-555-0101");
  await sales.getByLabel("Email", { exact: true }).fill(`sales-${options.email}`);
  await sales.getByLabel("Confirm Email").fill(`sales-${options.email}`);
  await sales.getByLabel("Experience Summary").fill("20 years on rigs");
  await sales.getByLabel("Skills Summary").fill("Well control");
}

/** The offline test provider's card fields. */
export async function fillTestCard(page: Page, number: string) {
  await page.getByLabel("Card Number").fill(number);
  await page.getByLabel("Expiry Month (MM)").fill("12");
  await page.getByLabel("Expiry Year (YY)").fill(String(NEXT_YEAR).slice(-2));
  await page.getByLabel("CVC").fill("123");
}

type SellerFormApp = Awaited<ReturnType<typeof startSellerFormApp>>;

/**
 * A seller registered through the form (the offline Visa test card unless `form` says otherwise),
 * approved by a signed-in staff client, its administrator's password set.
 */
export async function approvedSeller(
  app: SellerFormApp,
  staff: ReturnType<typeof createClient>,
  seller: { office: string; email: string; password: string; form?: Record<string, string | null> },
): Promise<{ email: string; registrationId: number }> {
  const registered = await app.submit(
    await app.sellerToken(),
    app.completeForm({
      ...seller.form,
      email: seller.office,
      "salesContact.email": seller.email,
      "salesContact.confirm_email": seller.email,
    }),
  );
  expect(registered.status).toBe(302);
  const { db } = app.app.services;
  const [registration] = await db.select().from(registrations).where(eq(registrations.email, seller.office));
  const approved = await staff.request(`/staff/registrations/${registration?.id}`, {
    form: { intent: "approve", confirm: "yes" },
  });
  expect(approved.status).toBe(302);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(seller.password) })
    .where(eq(users.email, seller.email));
  return { email: seller.email, registrationId: registration?.id ?? 0 };
}
