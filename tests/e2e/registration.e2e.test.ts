import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  baseURL,
  expectNoAxeViolations,
  type JavaScriptMode,
  javaScriptModes,
  launchBrowser,
  openPage,
  openPageWithoutAppScripts,
  validateHtml,
  waitForHydration,
} from "./browser";

// Registration (issue 6) in Chromium, with JavaScript on and off, and axe on every step: steps 1-4,
// then the buyer and consultant forms (step 5) and their completion pages (step 6).

const INVALID_CODE = "Invalid access code. Please check the code and try again.";
const INVALID_TOKEN = "Invalid access token.";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let nextApplicant = 0;

/** A new mobile number and client address per flow: the SMS limits are per number and per client. */
function newApplicant() {
  nextApplicant += 1;
  const line = String(7000 + nextApplicant * 10 + (process.pid % 10));
  return { typed: `587-555-${line}`, e164: `+1587555${line}`, address: `10.9.${process.pid % 250}.${nextApplicant}` };
}

async function open(mode: JavaScriptMode | "no-app-scripts", address: string): Promise<Page> {
  const { context, page } =
    mode === "no-app-scripts" ? await openPageWithoutAppScripts(browser) : await openPage(browser, mode);
  await context.setExtraHTTPHeaders({ "x-forwarded-for": address });
  onTestFinished(() => context.close());
  return page;
}

async function goto(page: Page, mode: JavaScriptMode | "no-app-scripts", path: string) {
  await page.goto(path);
  if (mode === "js") await waitForHydration(page);
}

/** The newest SMS code sent to the number, from the dev outbox. */
async function codeSentTo(e164: string): Promise<string> {
  const response = await fetch(`${baseURL()}/dev/outbox.json`);
  const { messages } = (await response.json()) as { messages: { channel: string; to: string; text: string }[] };
  const message = messages.find((entry) => entry.channel === "sms" && entry.to === e164);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  if (!code) throw new Error(`no code for ${e164}`);
  return code;
}

async function expectErrorSummary(page: Page, messages: string[]) {
  const summary = page.locator(".alert--error").first();
  await summary.waitFor();
  for (const message of messages) await expect.poll(() => summary.textContent()).toContain(message);
  await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);
}

async function scrollLegalTextToEnd(page: Page) {
  const region = page.locator(".legal-scroll");
  await region.focus();
  await page.keyboard.press("End");
}

type Flow = { page: Page; token: string };

/** Steps 1 to 4, checking each screen on the way; `axe` runs axe on every step. */
async function walkSteps(
  mode: JavaScriptMode | "no-app-scripts",
  options: { axe: boolean; type?: "buyer" | "consultant" },
): Promise<Flow> {
  const type = options.type ?? "consultant";
  const applicant = newApplicant();
  const page = await open(mode, applicant.address);
  const axe = options.axe ? () => expectNoAxeViolations(page) : async () => {};

  // Step 1: type preselected, placeholder, every field required.
  await goto(page, mode, `/signup?type=${type}`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("Sign up");
  await expect.poll(() => page.getByLabel("Organization Type").inputValue()).toBe(type === "buyer" ? "2" : "4");
  await expect.poll(() => page.getByLabel("Mobile Number").getAttribute("placeholder")).toBe("xxx-xxx-xxxx");
  await axe();
  await page.getByLabel("Organization Name").fill("Foothills Consulting");
  await page.getByLabel("Mobile Number").fill("555-12");
  await page.getByRole("button", { name: "Request Code" }).click();
  await expectErrorSummary(page, [
    "Please enter your name",
    "Please enter a valid mobile number, for example 780-555-1234",
  ]);
  await expect.poll(() => page.getByLabel("Organization Name").inputValue()).toBe("Foothills Consulting");
  await expect.poll(() => page.getByLabel("Your Name").getAttribute("aria-describedby")).toMatch(/error/);
  await axe();
  await page.getByRole("link", { name: "Please enter your name" }).click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("signup-name");
  await page.getByLabel("Your Name").fill("Dana Smith");
  await page.getByLabel("Mobile Number").fill(applicant.typed);
  await page.getByRole("button", { name: "Request Code" }).click();

  // Step 2: where the code went; a wrong code; the resend link within the minute; the right code.
  await page.waitForURL(`**/signup/verify-access-code/${encodeURIComponent(applicant.e164)}`);
  if (mode === "js") await waitForHydration(page);
  await expect.poll(() => page.locator("main").textContent()).toContain(`+1 (587) 555-${applicant.typed.slice(-4)}`);
  await axe();
  await page
    .getByLabel("Verification code")
    .fill("000000" === (await codeSentTo(applicant.e164)) ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expectErrorSummary(page, [INVALID_CODE]);
  await axe();
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expectErrorSummary(page, ["less than a minute ago"]);
  await page.getByLabel("Verification code").fill(await codeSentTo(applicant.e164));
  await page.getByRole("button", { name: "Verify" }).click();

  // Step 3: the privacy policy in a focusable, labelled region; Agree waits for the end with JavaScript.
  await page.waitForURL("**/signup/accept-privacy-policy/*");
  const token = new URL(page.url()).pathname.split("/").pop() ?? "";
  if (mode === "js") await waitForHydration(page);
  const region = page.getByRole("region", { name: "Privacy Policy" });
  await expect.poll(() => region.getAttribute("tabindex")).toBe("0");
  const agree = page.getByRole("button", { name: "Agree" });
  // The effect that disables Agree runs just after the client-side navigation renders, so poll.
  await expect.poll(() => agree.isDisabled()).toBe(mode === "js");
  await axe();
  await scrollLegalTextToEnd(page);
  await expect.poll(() => agree.isEnabled()).toBe(true);
  await agree.click();

  // Step 4: the terms, same pattern; then the form of the type chosen in step 1.
  await page.waitForURL(`**/signup/accept-terms-and-conditions/${token}`);
  if (mode === "js") await waitForHydration(page);
  await page.getByRole("region", { name: "Terms & Conditions" }).waitFor();
  await expect.poll(() => page.getByRole("button", { name: "Agree" }).isDisabled()).toBe(mode === "js");
  await axe();
  await scrollLegalTextToEnd(page);
  await expect.poll(() => page.getByRole("button", { name: "Agree" }).isEnabled()).toBe(true);
  await page.getByRole("button", { name: "Agree" }).click();
  await page.waitForURL(`**/signup/${type}-registration/${token}`);
  // With JavaScript the address changes a moment before the new page is rendered.
  await page
    .getByRole("heading", { level: 1, name: type === "buyer" ? "Buyer Registration" : "Consultant Registration" })
    .waitFor();
  if (mode === "js") await waitForHydration(page);
  return { page, token };
}

describe.each(javaScriptModes)("registration steps 1-4, JavaScript %s", (mode) => {
  it("goes from the sign-up form to the consultant form", async () => {
    await walkSteps(mode, { axe: mode === "js" });
  });

  it("shows 'Invalid access token.' and no form for a bad token", async () => {
    const page = await open(mode, "10.8.0.1");
    for (const step of ["accept-privacy-policy", "accept-terms-and-conditions"]) {
      const response = await page.goto(`/signup/${step}/not-a-real-token-aaaaaaaaaaaaaaaa`);
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.locator("main").textContent()).toContain(INVALID_TOKEN);
      await expect.poll(() => page.getByRole("button", { name: "Agree" }).count()).toBe(0);
      if (mode === "js") await expectNoAxeViolations(page);
    }
  });

  it("preselects the type from ?type= and keeps the buyer path", async () => {
    const page = await open(mode, "10.8.0.2");
    await goto(page, mode, "/signup?type=buyer");
    await expect.poll(() => page.getByLabel("Organization Type").inputValue()).toBe("2");
    await goto(page, mode, "/signup?type=seller");
    await expect.poll(() => page.getByLabel("Organization Type").inputValue()).toBe("3");
    await goto(page, mode, "/signup");
    await expect.poll(() => page.getByLabel("Organization Type").inputValue()).toBe("");
  });
});

describe("registration steps 1-4, axe in the no-JavaScript state", () => {
  it("has no violations on any step", async () => {
    await walkSteps("no-app-scripts", { axe: true });
  });

  it("has no violations on the bad-token page", async () => {
    const page = await open("no-app-scripts", "10.8.0.3");
    await page.goto("/signup/accept-privacy-policy/not-a-real-token-aaaaaaaaaaaaaaaa");
    await expectNoAxeViolations(page);
  });
});

describe("registration steps 1-4, W3C Nu validator", () => {
  it("finds no errors in the server HTML of every step", async () => {
    const applicant = newApplicant();
    const headers = { "content-type": "application/json", "x-forwarded-for": applicant.address };
    const post = (path: string, body: unknown) =>
      fetch(`${baseURL()}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    await post("/api/registration/request_code", {
      name: "Dana",
      organizationName: "Foothills",
      organizationType: 2,
      mobileNumber: applicant.typed,
    });
    const verified = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: await codeSentTo(applicant.e164),
    });
    const { accessToken } = (await verified.json()) as { accessToken: string };
    await post("/api/registration/accept_privacy_policy", { accessToken });
    const paths = {
      signup: "/signup?type=buyer",
      verify: `/signup/verify-access-code/${encodeURIComponent(applicant.e164)}`,
      privacy: `/signup/accept-privacy-policy/${accessToken}`,
      terms: `/signup/accept-terms-and-conditions/${accessToken}`,
      badToken: "/signup/accept-terms-and-conditions/not-a-real-token-aaaaaaaaaaaaaaaa",
    };
    const documents: Record<string, string> = {};
    for (const [name, path] of Object.entries(paths)) {
      documents[name] = await (await fetch(`${baseURL()}${path}`)).text();
    }
    documents.signupErrors = await (
      await fetch(`${baseURL()}/signup`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "name=&organizationName=&organizationType=&mobileNumber=12",
      })
    ).text();
    await post("/api/registration/accept_terms_and_conditions", { accessToken });
    documents.buyerForm = await (await fetch(`${baseURL()}/signup/buyer-registration/${accessToken}`)).text();
    documents.buyerFormErrors = await (
      await fetch(`${baseURL()}/signup/buyer-registration/${accessToken}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "name=Foothills&country=CA&stateUS=TX&serviceAreas=1&alternateContact.last_name=Smith",
      })
    ).text();
    expect(documents.buyerFormErrors).toContain("Please ensure all required fields are filled in.");
    documents.buyerFormBadToken = await (
      await fetch(`${baseURL()}/signup/buyer-registration/not-a-real-token-aaaaaaaaaaaaaaaa`)
    ).text();
    documents.buyerComplete = await (await fetch(`${baseURL()}/signup/buyer-registration-complete`)).text();
    expect(await validateHtml(documents)).toEqual([]);
  });
});

// Step 5 and 6: the buyer and consultant forms and their completion pages.

const INCOMPLETE = "Please ensure all required fields are filled in.";
const COMPLETE =
  "Your registration has been submitted. Once your application has been reviewed you will be notified by email.";

const general = (page: Page) => page.getByRole("region", { name: "1.0 General" });
const contact = (page: Page, legend: string) => page.getByRole("group", { name: legend });

async function fillContact(page: Page, legend: string, first: string) {
  const group = contact(page, legend);
  await group.getByLabel("First Name").fill(first);
  await group.getByLabel("Last Name").fill("Smith");
  await group.getByLabel("Phone").fill("403-555-0199");
  await group.getByLabel("Email").fill(`${first.toLowerCase()}@foothills.example`);
}

/** Everything but the country and state, which the tests set themselves. */
async function fillRequiredFields(page: Page) {
  await general(page).getByLabel("Organization Name").fill("Foothills Energy Ltd.");
  await general(page).getByLabel("Address").fill("400 4 Ave SW");
  await general(page).getByLabel("City").fill("Calgary");
  await general(page).getByLabel("Phone").fill("403-555-0100");
  await general(page).getByLabel("Email").fill("office@foothills.example");
  await fillContact(page, "2.0 Primary Contact", "Dana");
  await fillContact(page, "4.0 Accounting Contact", "Robin");
  await page.getByLabel("Email Invoice").check();
  await page.getByLabel("Primary Industry", { exact: true }).selectOption({ label: "Utilities" });
}

async function expectCompletionPage(page: Page, type: "buyer" | "consultant") {
  await page.waitForURL(`**/signup/${type}-registration-complete`);
  await expect.poll(() => page.locator("h1").textContent()).toBe("Thank you");
  const main = (await page.locator("main").textContent()) ?? "";
  expect(main).toContain("Registration Complete");
  expect(main).toContain(COMPLETE);
}

describe("buyer and consultant forms", () => {
  it("takes the buyer from /signup to the completion page with JavaScript off", async () => {
    const { page } = await walkSteps("no-js", { axe: false, type: "buyer" });
    await expect.poll(() => page.locator("h1").textContent()).toBe("Buyer Registration");
    const headings = await page.locator("main h2").allTextContents();
    for (const section of ["1.0 General", "2.0 Primary Contact", "3.0 Alternate Contact", "4.0 Accounting Contact"]) {
      expect(headings).toContain(section);
    }
    expect(headings).toEqual(expect.arrayContaining(["5.0 Billing Preference", "6.0 Primary Industry"]));
    expect(headings).toContain("7.0 Service Areas");
    await expect
      .poll(() => page.locator("main").textContent())
      .toContain("Your account is created from the primary contact");
    await expect
      .poll(() => page.getByLabel("Country").locator("option").first().textContent())
      .toBe("-- Please select --");

    // Without JavaScript all three state controls show; the one matching the country counts.
    const province = page.getByLabel("Province (Canada)");
    const usState = page.getByLabel("State (United States)");
    const otherState = page.getByLabel("State / Province / Region (other countries)");
    for (const control of [province, usState, otherState]) await expect.poll(() => control.isVisible()).toBe(true);

    // An incomplete form: the summary at the top, focused; each error at its field; everything kept.
    await general(page).getByLabel("Organization Name").fill("Foothills Energy Ltd.");
    await page.getByLabel("Country").selectOption("CA");
    await usState.selectOption("TX");
    await contact(page, "3.0 Alternate Contact").getByLabel("Last Name").fill("Kept Without A First Name");
    await page.getByLabel("Cortex").check();
    await page.getByLabel("Grande Prairie (Alberta)").check();
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expectErrorSummary(page, [
      INCOMPLETE,
      "Please enter the address",
      "Please enter the state or province",
      "Please enter a first name",
      "Please select a primary industry",
    ]);
    await expect.poll(() => province.getAttribute("aria-describedby")).toMatch(/error/);
    await expect.poll(() => usState.getAttribute("aria-invalid")).toBeNull();
    await expect.poll(() => general(page).getByLabel("Address").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => general(page).getByLabel("Organization Name").inputValue()).toBe("Foothills Energy Ltd.");
    await expect.poll(() => page.getByLabel("Country").inputValue()).toBe("CA");
    await expect.poll(() => usState.inputValue()).toBe("TX");
    await expect
      .poll(() => contact(page, "3.0 Alternate Contact").getByLabel("Last Name").inputValue())
      .toBe("Kept Without A First Name");
    await expect.poll(() => page.getByLabel("Cortex").isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel("Grande Prairie (Alberta)").isChecked()).toBe(true);

    // The United States with the state list; a province box ticked without JavaScript selects its cities.
    await fillRequiredFields(page);
    await page.getByLabel("Country").selectOption("US");
    await general(page).getByLabel("Postal / Zip Code").fill("77002");
    await page.getByLabel("Check all British Columbia").check();
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expectCompletionPage(page, "buyer");
  });

  it("takes the consultant through the form with JavaScript on, showing one state control per country", async () => {
    const { page } = await walkSteps("js", { axe: false, type: "consultant" });
    await expect.poll(() => page.locator("h1").textContent()).toBe("Consultant Registration");
    await expectNoAxeViolations(page);

    const province = page.getByLabel("Province", { exact: true });
    const usState = page.getByLabel("State", { exact: true });
    const otherState = page.getByLabel("State / Province / Region", { exact: true });
    await expect.poll(() => province.isVisible()).toBe(false);
    await expect.poll(() => otherState.isVisible()).toBe(true);
    await page.getByLabel("Country").selectOption("CA");
    await expect.poll(() => province.isVisible()).toBe(true);
    await expect.poll(() => usState.isVisible()).toBe(false);
    await expect.poll(() => otherState.isVisible()).toBe(false);
    await page.getByLabel("Country").selectOption("US");
    await expect.poll(() => usState.isVisible()).toBe(true);
    await expect.poll(() => province.isVisible()).toBe(false);

    // Checked in the browser: the same messages, the summary focused, nothing sent.
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expectErrorSummary(page, [
      INCOMPLETE,
      "Please enter the organization name",
      "Please enter the state or province",
    ]);
    await expect.poll(() => usState.getAttribute("aria-invalid")).toBe("true");
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Please enter the state or province" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("stateUS");

    await fillRequiredFields(page);
    await page.getByLabel("Country").selectOption("CA");
    await province.selectOption("AB");
    await general(page).getByLabel("Postal / Zip Code").fill("T2P 1J9");
    await page.getByLabel("Check all Alberta").check();
    await expect.poll(() => page.getByLabel("Grande Prairie (Alberta)").isChecked()).toBe(true);
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expectCompletionPage(page, "consultant");
    await expectNoAxeViolations(page);
  });

  it("has no axe violations on the form, with errors, and the completion page without the app's scripts", async () => {
    const { page } = await walkSteps("no-app-scripts", { axe: false, type: "buyer" });
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Submit Registration" }).click();
    await expectErrorSummary(page, [INCOMPLETE]);
    await expectNoAxeViolations(page);
    await page.goto("/signup/buyer-registration-complete");
    await expectNoAxeViolations(page);
  });

  it.each(javaScriptModes)("shows 'Invalid access token.' and no form for a bad token, JavaScript %s", async (mode) => {
    const page = await open(mode, "10.8.0.4");
    for (const type of ["buyer", "consultant"]) {
      const response = await page.goto(`/signup/${type}-registration/not-a-real-token-aaaaaaaaaaaaaaaa`);
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.locator("main").textContent()).toContain(INVALID_TOKEN);
      await expect.poll(() => page.getByRole("button", { name: "Submit Registration" }).count()).toBe(0);
      if (mode === "js") await expectNoAxeViolations(page);
    }
  });
});
