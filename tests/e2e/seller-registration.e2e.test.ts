import { desc, eq, sql } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { hashToken } from "~/shared/secret-tokens.server";
import { outboxMessages, registrationAccessTokens, registrations, sellerRegistrations } from "~db/schema";
import { startSellerFormApp } from "../support/seller-form-app";
import { NEXT_YEAR } from "../support/seller-registration-body";
import { waitForNavigationRendered } from "./account-helpers";
import {
  browserForFile,
  expectNoAxeViolations,
  type JavaScriptMode,
  javaScriptModes,
  openPage,
  type PageKind,
  validateHtml,
  waitForHydration,
} from "./browser";
import { fillRequiredSellerFields, fillTestCard } from "./seller-form-steps";

// Issue 7 in Chromium, with JavaScript on and off, on the built app with the offline test card
// provider (its database at hand): the whole seller path from /signup?type=seller, what the form
// shows, the error summary, the rules between fields, the repeatable blocks, a declined card, and
// axe (WCAG 2.2 AA) on each state. User-facing strings are spec sections 2-5, 8 and 9, verbatim.

const INCOMPLETE = "Please ensure all required fields are filled in.";
const NO_SERVICE = "Please select at least one service category.";
const EMAILS_DONT_MATCH = "Emails don't match.";
const DATE_IN_PAST = "Please choose a date from today onward";
const DECLINED = "Your card was declined.";
const REMOVE_WCB = "Are you sure you want to remove this WCB?";
const RECOMMENDED =
  "We recommend completing this section: preference may be given to sellers with complete information.";
const ADDITIONAL_INSURED =
  "When work is done on a buyer's worksite, the buyer must be named as additional insured, not as certificate holder.";
const COMPLETE =
  "Your registration has been submitted. Once your application has been reviewed you will be notified by email.";
const SECTIONS = [
  "1.0 General",
  "2.0 Safety Program Information",
  "3.0 Safety / Certifications",
  "4.0 Insurance & WCB",
  "5.0 Primary Industry",
  "6.0 Service Areas",
  "7.0 Service Categories",
  "8.0 Key Personnel",
  "9.0 Feedback",
  "10.0 Payment",
];
const COVERAGE_TIERS = [
  "$500,000 - $1,000,000",
  "$1,000,000 minimum",
  "$2,000,000 minimum",
  "$5,000,000 minimum",
  "more than $5 million",
];
const GOOD_CARD = "4242 4242 4242 4242";
const DECLINED_CARD = "4000 0000 0000 0002";
/** The test card's number as typed and as digits: neither may be kept anywhere. */
const CARD_NUMBERS = [GOOD_CARD, GOOD_CARD.replaceAll(" ", ""), DECLINED_CARD, DECLINED_CARD.replaceAll(" ", "")];
/** The day before the first day the form takes (the app's "today" is the earliest one on Earth, UTC-12). */
const BEFORE_TODAY = new Date(Date.now() - 36 * 60 * 60 * 1000).toISOString().slice(0, 10);

let seller: Awaited<ReturnType<typeof startSellerFormApp>>;
beforeAll(async () => {
  seller = await startSellerFormApp(process.env.DATABASE_URL ? "postgres" : "pglite");
});
afterAll(async () => {
  await seller?.app.stop();
});
const { browser } = browserForFile();

// ---- Pages and waits ----

type PageMode = PageKind;

/** A context of its own (cookies, client address) and page on the app, handed back when the test ends. */
async function open(mode: PageMode, clientAddress = "10.5.0.1"): Promise<Page> {
  const { context, page } = await openPage(browser(), mode, {
    baseURL: seller.app.baseURL,
    extraHTTPHeaders: { "x-forwarded-for": clientAddress },
    timeout: 15_000,
  });
  onTestFinished(() => context.close());
  return page;
}

async function goto(page: Page, mode: PageMode, path: string): Promise<void> {
  await page.goto(path);
  if (mode === "js") await waitForHydration(page);
}

const submitButton = (page: Page) => page.getByRole("button", { name: "Submit Registration" });

async function openForm(page: Page, mode: PageMode, token: string): Promise<void> {
  await goto(page, mode, `/signup/seller-registration/${token}`);
  await submitButton(page).waitFor();
}

/**
 * Clicks a button of the form and waits for the answer: without the app's scripts, the next document;
 * with them, when the click `posts`, the POST's answer and the router settling. With JavaScript a
 * refused form and Conform's add/remove buttons post nothing: the caller waits for what it expects.
 */
async function press(page: Page, mode: PageMode, button: Locator, options: { posts?: boolean } = {}): Promise<void> {
  if (mode !== "js") {
    await Promise.all([
      page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() }),
      button.click(),
    ]);
    await page.waitForLoadState("domcontentloaded");
    return;
  }
  if (!options.posts) {
    await button.click();
    return;
  }
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  await button.click();
  await answered;
  await waitForNavigationRendered(page);
}

// ---- The form's parts ----

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const salesContact = (page: Page) => page.getByRole("group", { name: "Sales Contact", exact: true });
const block = (scope: Locator | Page, legend: string) => scope.getByRole("group", { name: legend, exact: true });
const organizationName = (page: Page) => region(page, "1.0 General").getByLabel("Organization Name");
const activeName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("name"));

/** Every required field, a service and a card: a form the server takes. */
async function fillCompleteForm(page: Page, mode: PageMode, options: { email: string; card?: string }) {
  await fillRequiredSellerFields(page, { email: options.email, hydrated: mode === "js" });
  await page.getByLabel("Drill bits (Drilling)").check();
  await fillTestCard(page, options.card ?? GOOD_CARD);
}

/** The 'Error!' summary at the top of the form (not the card's alert in the payment area). */
const errorSummary = (page: Page) =>
  page.locator(".alert--error").filter({ has: page.locator("#error-summary-title") });

async function expectErrorSummary(page: Page, messages: string[]): Promise<void> {
  const summary = errorSummary(page);
  await summary.waitFor();
  for (const message of messages) await expect.poll(() => summary.textContent()).toContain(message);
  await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await summary.getByRole("heading").textContent()).toBe("Error!");
}

/** The message shown at a control (tied to it by aria-describedby), "" when none. */
function errorAt(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .map((id) => document.getElementById(id))
      .filter((node) => node?.classList.contains("field__error"))
      .map((node) => (node?.textContent ?? "").replace(/^\s*Error:\s*/, "").trim())
      .join(" "),
  );
}

/** The message at the control, the control marked invalid, and a summary link to it. */
async function expectErrorAt(page: Page, control: Locator, message: string): Promise<void> {
  await expect.poll(() => errorAt(control)).toBe(message);
  expect(await control.getAttribute("aria-invalid")).toBe("true");
  const link = errorSummary(page).getByRole("link", { name: message, exact: true });
  expect(await link.getAttribute("href")).toBe(`#${await control.getAttribute("id")}`);
}

async function expectCompletionPage(page: Page): Promise<void> {
  await page.waitForURL("**/signup/seller-registration-complete");
  await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Thank you");
  const main = await page.getByRole("main").textContent();
  expect(main).toContain("Registration Complete");
  expect(main).toContain(COMPLETE);
}

// ---- Steps 1-4 in the browser ----

let applicants = 0;

/** A new mobile number and client address per walk: the SMS limits are per number and per client. */
function newApplicant() {
  applicants += 1;
  const line = String(8100 + applicants);
  return { typed: `587-555-${line}`, e164: `+1587555${line}`, address: `10.6.0.${applicants}` };
}

/** The newest SMS code sent to the number (the dev outbox, read from the app's database). */
async function codeSentTo(e164: string): Promise<string> {
  const [sms] = await seller.app.services.db
    .select({ text: outboxMessages.text })
    .from(outboxMessages)
    .where(eq(outboxMessages.to, e164))
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(sms?.text ?? "")?.[1];
  if (!code) throw new Error(`no code for ${e164}`);
  return code;
}

/** /signup?type=seller, the SMS code, the privacy policy and the terms; answers the access token. */
async function walkToSellerForm(page: Page, mode: JavaScriptMode, applicant: ReturnType<typeof newApplicant>) {
  await goto(page, mode, "/signup?type=seller");
  expect(await page.getByLabel("Organization Type").inputValue()).toBe("3");
  await page.getByLabel("Your Name").fill("Sam Driller");
  await page.getByLabel("Organization Name").fill("Roughneck Services Ltd.");
  await page.getByLabel("Mobile Number").fill(applicant.typed);
  await page.getByRole("button", { name: "Request Code" }).click();
  await page.waitForURL(`**/signup/verify-access-code/${encodeURIComponent(applicant.e164)}`);
  if (mode === "js") await waitForHydration(page);
  await page.getByLabel("Verification code").fill(await codeSentTo(applicant.e164));
  await page.getByRole("button", { name: "Verify" }).click();
  for (const [step, text] of [
    ["accept-privacy-policy", "Privacy Policy"],
    ["accept-terms-and-conditions", "Terms & Conditions"],
  ] as const) {
    await page.waitForURL(`**/signup/${step}/*`);
    if (mode === "js") await waitForHydration(page);
    // Agree waits, with JavaScript, until the end of the text has been scrolled into view.
    await page.getByRole("region", { name: text }).focus();
    await page.keyboard.press("End");
    const agree = page.getByRole("button", { name: "Agree" });
    await expect.poll(() => agree.isEnabled()).toBe(true);
    await agree.click();
  }
  await page.waitForURL("**/signup/seller-registration/*");
  await page.getByRole("heading", { level: 1, name: "Seller Registration" }).waitFor();
  if (mode === "js") await waitForHydration(page);
  await submitButton(page).waitFor();
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

// ---- The database ----

/** The registrations written with an access token, with what was kept of the card. */
function registrationsFor(token: string) {
  return seller.app.services.db
    .select({
      email: registrations.email,
      paymentStatus: sellerRegistrations.paymentStatus,
      paymentProvider: sellerRegistrations.paymentProvider,
      cardBrand: sellerRegistrations.cardBrand,
      cardLast4: sellerRegistrations.cardLast4,
      complyWorksExpiry: sellerRegistrations.scComplyWorksExpiry,
    })
    .from(registrations)
    .innerJoin(registrationAccessTokens, eq(registrationAccessTokens.id, registrations.accessTokenId))
    .leftJoin(sellerRegistrations, eq(sellerRegistrations.registrationId, registrations.id))
    .where(eq(registrationAccessTokens.tokenHash, hashToken(token)));
}

/** The tables (all of the schema, whole rows as text) holding any of the strings. */
async function tablesHolding(needles: string[]): Promise<string[]> {
  const { db } = seller.app.services;
  // postgres.js answers an array of rows, PGlite an object with `rows`.
  const rowsOf = (result: unknown) =>
    (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
  const tables = rowsOf(
    await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  ).map((row) => String(row.table_name));
  expect(tables).toContain("seller_registrations");
  const found: string[] = [];
  for (const table of tables) {
    const anyNeedle = sql.join(
      needles.map((needle) => sql`position(${needle} in row_text.t::text) > 0`),
      sql` or `,
    );
    const [row] = rowsOf(
      await db.execute(
        sql`select count(*)::int as hits from ${sql.identifier(table)} as row_text(t) where ${anyNeedle}`,
      ),
    );
    if (Number(row?.hits) > 0) found.push(table);
  }
  return found;
}

// ---- The tests ----

describe.each(javaScriptModes)("the seller registration form with %s", (mode) => {
  const hydrated = mode === "js";

  it("takes a seller from /signup?type=seller through the code, the policy and the terms to the completion page", async () => {
    const applicant = newApplicant();
    const page = await open(mode, applicant.address);
    const token = await walkToSellerForm(page, mode, applicant);
    const email = `full-path-${mode}@roughneck.example`;
    await fillCompleteForm(page, mode, { email });
    // A few of the optional answers too.
    await page
      .getByRole("group", { name: "Do you have a written safety program? (optional)" })
      .getByLabel("Yes")
      .check();
    await page.getByLabel("We hold ComplyWorks").check();
    await page.getByLabel("ComplyWorks Expiry Date").fill(`${NEXT_YEAR}-01-31`);
    await block(salesContact(page), "Work Experience 1").getByLabel("Company Name").fill("Big Rig Co");
    await page.getByLabel("How did you hear about us", { exact: false }).fill("A trade show");

    await press(page, mode, submitButton(page), { posts: true });
    await expectCompletionPage(page);
    expect(await registrationsFor(token)).toEqual([
      {
        email,
        paymentStatus: "card_saved",
        paymentProvider: "test",
        cardBrand: "visa",
        cardLast4: "4242",
        complyWorksExpiry: `${NEXT_YEAR}-01-31`,
      },
    ]);
    expect(await tablesHolding(CARD_NUMBERS)).toEqual([]);
  });

  it("shows the ten sections, the notes, the fee table, the card brands and the year lists", async () => {
    const page = await open(mode);
    await openForm(page, mode, await seller.sellerToken());

    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings.filter((text) => /^\d+\.0 /.test(text))).toEqual(SECTIONS);
    // Sections 2 to 4 recommend completion, and no other section does; 4 names the additional insured.
    for (const section of SECTIONS.slice(1, 4)) {
      expect(await region(page, section).textContent()).toContain(RECOMMENDED);
    }
    expect(await page.getByText(RECOMMENDED).count()).toBe(3);
    expect(await region(page, "4.0 Insurance & WCB").textContent()).toContain(ADDITIONAL_INSURED);

    // Coverage tiers; the optional coverages default to 'No'.
    const general = block(page, "Commercial General Liability").getByLabel("Coverage");
    expect((await general.locator("option").allTextContents()).slice(1)).toEqual(COVERAGE_TIERS);
    const aircraft = block(page, "Aircraft Liability (optional)").getByLabel("Coverage");
    expect(await aircraft.locator("option").allTextContents()).toEqual(["No", ...COVERAGE_TIERS]);
    expect(await aircraft.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text)).toBe("No");

    // 10.0 Payment: the fee table, the brands, no charge today.
    const payment = region(page, "10.0 Payment");
    const rows = await payment
      .getByRole("table", { name: "Fees" })
      .locator("tbody tr, tfoot tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent?.trim())));
    expect(rows).toEqual([
      ["7-day free trial", "$0.00"],
      ["Yearly subscription (non-refundable, starts after the trial)", "$200.00"],
      ["Processing fee", "$7.00"],
      ["GST", "$10.35"],
      ["Total", "$217.35"],
    ]);
    const paymentText = await payment.textContent();
    expect(paymentText).toContain("We accept Visa, Mastercard and American Express.");
    expect(paymentText).toContain("No charge is taken today.");

    // Every year list runs from the current year down to 1950.
    const currentYear = new Date().getUTCFullYear();
    const years = Array.from({ length: currentYear - 1950 + 1 }, (_, index) => String(currentYear - index));
    const yearSelects = salesContact(page).locator('select[name$="_year"]');
    expect(await yearSelects.count()).toBe(4);
    for (const select of await yearSelects.all()) {
      expect((await select.locator("option").allTextContents()).slice(1)).toEqual(years);
    }
  });

  it("an empty submit: the 'Error!' summary takes focus, links to the fields, and what was typed stays", async () => {
    const page = await open(mode);
    await openForm(page, mode, await seller.sellerToken());
    const address = region(page, "1.0 General").getByLabel("Address");
    const written = block(page, "Do you have a written safety program? (optional)").getByLabel("Yes");
    await organizationName(page).fill("Roughneck Services Ltd.");
    await written.check();
    await page.getByLabel("Nisku (Alberta)").check();
    await page.getByLabel("Primary Industry", { exact: true }).selectOption({ label: "Utilities" });
    await salesContact(page).getByLabel("First Name").fill("Sam");
    await page.getByLabel("How did you hear about us", { exact: false }).fill("A trade show");

    await press(page, mode, submitButton(page));
    await expectErrorSummary(page, [
      INCOMPLETE,
      "Please enter the address",
      NO_SERVICE,
      "Please enter the card number",
    ]);
    expect(await errorSummary(page).textContent()).not.toContain("Please enter the organization name");
    await expectErrorAt(page, address, "Please enter the address");

    // Kept (without JavaScript the server sent them back).
    expect(await organizationName(page).inputValue()).toBe("Roughneck Services Ltd.");
    expect(await written.isChecked()).toBe(true);
    expect(await page.getByLabel("Nisku (Alberta)").isChecked()).toBe(true);
    const industry = page.getByLabel("Primary Industry", { exact: true });
    expect(await industry.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text)).toBe("Utilities");
    expect(await salesContact(page).getByLabel("First Name").inputValue()).toBe("Sam");
    expect(await page.getByLabel("How did you hear about us", { exact: false }).inputValue()).toBe("A trade show");

    // A summary link takes the keyboard to its field.
    await errorSummary(page).getByRole("link", { name: "Please enter the address", exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await address.getAttribute("id"));
  });

  it("asks for a service alone when everything else is valid", async () => {
    const page = await open(mode);
    const token = await seller.sellerToken();
    await openForm(page, mode, token);
    await fillRequiredSellerFields(page, { email: `no-service-${mode}@roughneck.example`, hydrated });
    await fillTestCard(page, GOOD_CARD);

    await press(page, mode, submitButton(page));
    await expectErrorSummary(page, [NO_SERVICE]);
    const summary = errorSummary(page);
    expect(await summary.textContent()).not.toContain(INCOMPLETE);
    expect(await summary.getByRole("link").allTextContents()).toEqual([NO_SERVICE]);
    // The link leads to the first box of 7.0 Service Categories.
    const firstBox = await page.locator("fieldset#services input[type=checkbox]").first().getAttribute("id");
    expect(await summary.getByRole("link").getAttribute("href")).toBe(`#${firstBox}`);
    expect(await registrationsFor(token)).toEqual([]);
  });

  it("checks the rules between fields: confirm email, ticked certification, chosen coverage, WCB entry, past dates", async () => {
    const page = await open(mode);
    const token = await seller.sellerToken();
    await openForm(page, mode, token);
    await fillCompleteForm(page, mode, { email: `rules-${mode}@roughneck.example` });
    const confirmEmail = salesContact(page).getByLabel("Confirm Email");
    const aircraft = block(page, "Aircraft Liability (optional)");
    const wcb = block(page, "WCB 1");
    await confirmEmail.fill("someone-else@roughneck.example");
    await page.getByLabel("We hold ComplyWorks").check();
    await aircraft.getByLabel("Coverage").selectOption("$1,000,000 minimum");
    await wcb.getByLabel("Province / State").selectOption("AB");
    await wcb.getByLabel("Expiry Date").fill(`${NEXT_YEAR}-03-01`);
    // The date input's min (today) does not stop a typed date; the schema refuses it, here and on the server.
    await page.getByLabel("WCB Expiry Date").fill(BEFORE_TODAY);

    await press(page, mode, submitButton(page));
    await expectErrorSummary(page, [INCOMPLETE]);
    await expectErrorAt(page, confirmEmail, EMAILS_DONT_MATCH);
    await expectErrorAt(page, page.getByLabel("ComplyWorks Expiry Date"), "Please enter the ComplyWorks expiry date");
    await expectErrorAt(page, aircraft.getByLabel("Expiry Date"), "Please enter the aircraft liability expiry date");
    await expectErrorAt(page, wcb.getByLabel("WCB Number"), "Please enter the WCB number");
    await expectErrorAt(page, page.getByLabel("WCB Expiry Date"), DATE_IN_PAST);
    expect(await errorSummary(page).getByRole("link").count()).toBe(5);
    expect(await registrationsFor(token)).toEqual([]);
  });

  it("adds and removes blocks, keeping what was typed; removing a WCB asks first with JavaScript", async () => {
    const page = await open(mode);
    await openForm(page, mode, await seller.sellerToken());
    const sales = salesContact(page);
    const companyName = (n: number) => block(sales, `Work Experience ${n}`).getByLabel("Company Name");
    await organizationName(page).fill("Roughneck Services Ltd.");
    await companyName(1).fill("Big Rig Co");

    // Work experience: add a second block, then remove the first; the second moves up.
    await press(page, mode, sales.getByRole("button", { name: "+ Add work experience" }));
    await companyName(2).fill("Second Rig Ltd.");
    expect(await companyName(1).inputValue()).toBe("Big Rig Co");
    expect(await organizationName(page).inputValue()).toBe("Roughneck Services Ltd.");
    await press(page, mode, sales.getByRole("button", { name: "Remove work experience 1" }));
    await expect.poll(() => block(sales, "Work Experience 2").count()).toBe(0);
    expect(await companyName(1).inputValue()).toBe("Second Rig Ltd.");

    // The optional operations contact, with its own first blocks.
    await press(page, mode, page.getByRole("button", { name: "+ Add Operations Contact" }));
    const operations = page.getByRole("group", { name: "Operations Contact (optional)", exact: true });
    await operations.getByLabel("First Name").waitFor();
    await expect.poll(() => block(operations, "Work Experience 1").count()).toBe(1);
    expect(await companyName(1).inputValue()).toBe("Second Rig Ltd.");

    // WCB: '+ Add WCB'; with JavaScript removal asks first, without it the button removes at once.
    const wcbNumber = (n: number) => block(page, `WCB ${n}`).getByLabel("WCB Number");
    await wcbNumber(1).fill("AB-1234567");
    await press(page, mode, page.getByRole("button", { name: "+ Add WCB" }));
    await wcbNumber(2).fill("BC-7654321");
    const removeSecond = page.getByRole("button", { name: "Remove WCB 2" });
    const asked: string[] = [];
    if (hydrated) {
      page.once("dialog", (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await removeSecond.click();
      expect(asked).toEqual([REMOVE_WCB]);
      expect(await wcbNumber(2).inputValue()).toBe("BC-7654321");
      page.once("dialog", (dialog) => {
        asked.push(dialog.message());
        void dialog.accept();
      });
    }
    await press(page, mode, removeSecond);
    await expect.poll(() => block(page, "WCB 2").count()).toBe(0);
    expect(asked).toEqual(hydrated ? [REMOVE_WCB, REMOVE_WCB] : []);
    expect(await wcbNumber(1).inputValue()).toBe("AB-1234567");
    expect(await organizationName(page).inputValue()).toBe("Roughneck Services Ltd.");
    expect(await operations.getByLabel("First Name").count()).toBe(1);
  });

  it("shows a declined card in the payment area with focus on the card number, writes nothing, then takes 4242", async () => {
    const page = await open(mode);
    const token = await seller.sellerToken();
    await openForm(page, mode, token);
    const email = `declined-${mode}@roughneck.example`;
    await fillCompleteForm(page, mode, { email, card: DECLINED_CARD });

    await press(page, mode, submitButton(page), { posts: true });
    const payment = region(page, "10.0 Payment");
    const alert = payment.getByRole("alert");
    await expect.poll(() => alert.textContent()).toContain(DECLINED);
    expect(await alert.getByRole("heading").textContent()).toBe("Error!");
    await expect.poll(() => activeName(page)).toBe("card_number");
    expect(await payment.getByLabel("Card Number").getAttribute("aria-invalid")).toBe("true");
    expect(await errorSummary(page).count()).toBe(0);
    expect(await registrationsFor(token)).toEqual([]);
    expect(await organizationName(page).inputValue()).toBe("Roughneck Services Ltd.");
    expect(await page.getByLabel("Drill bits (Drilling)").isChecked()).toBe(true);

    // The card is typed again (card fields never come back from the server).
    await fillTestCard(page, GOOD_CARD);
    await press(page, mode, submitButton(page), { posts: true });
    await expectCompletionPage(page);
    expect(await registrationsFor(token)).toMatchObject([{ email, paymentStatus: "card_saved", cardLast4: "4242" }]);
  });

  it("passes axe (WCAG 2.2 AA): the empty form, with errors, after a declined card, and the completion page", {
    timeout: 120_000,
  }, async () => {
    // axe needs JavaScript: the no-JavaScript state is the page with the app's scripts blocked.
    const axeMode: PageMode = hydrated ? "js" : "no-app-scripts";
    const page = await open(axeMode);
    await openForm(page, axeMode, await seller.sellerToken());
    await expectNoAxeViolations(page);

    await press(page, axeMode, submitButton(page));
    await expectErrorSummary(page, [INCOMPLETE]);
    await expectNoAxeViolations(page);

    await fillCompleteForm(page, axeMode, { email: `axe-${mode}@roughneck.example`, card: DECLINED_CARD });
    await press(page, axeMode, submitButton(page), { posts: true });
    await expect.poll(() => region(page, "10.0 Payment").getByRole("alert").textContent()).toContain(DECLINED);
    await expectNoAxeViolations(page);

    await fillTestCard(page, GOOD_CARD);
    await press(page, axeMode, submitButton(page), { posts: true });
    await expectCompletionPage(page);
    await expectNoAxeViolations(page);
  });
});

describe("the seller registration form's HTML", () => {
  it("has no errors in the W3C validator: empty, with every message, after a declined card, and complete", async () => {
    const token = await seller.sellerToken();
    const formUrl = `${seller.app.baseURL}/signup/seller-registration/${token}`;
    const post = (form: URLSearchParams) =>
      fetch(formUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        redirect: "manual",
      });
    const empty = await (await fetch(formUrl)).text();
    const invalid = await post(new URLSearchParams({ card_number: "" }));
    expect(invalid.status).toBe(400);
    const declined = await post(seller.completeForm({ card_number: DECLINED_CARD }));
    expect(declined.status).toBe(400);
    const complete = await (await fetch(`${seller.app.baseURL}/signup/seller-registration-complete`)).text();
    expect(
      await validateHtml({
        "seller-form": empty,
        "seller-form-errors": await invalid.text(),
        "seller-form-declined": await declined.text(),
        "seller-complete": complete,
      }),
    ).toEqual([]);
  });
});
