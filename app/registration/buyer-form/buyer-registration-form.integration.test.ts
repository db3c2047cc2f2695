import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrationContacts, registrationServiceAreas } from "~db/schema";
import { buyerFormBody } from "../../../tests/support/buyer-registration-body";
import { expectIn } from "../../../tests/support/html";
import {
  accessTokenThroughSteps,
  registrationsOf as registrationsOfToken,
} from "../../../tests/support/registration-steps";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Step 5 in the browser's shape, without JavaScript: form posts to the buyer and consultant pages.

const INCOMPLETE = "Please ensure all required fields are filled in.";
const COMPLETE =
  "Your registration has been submitted. Once your application has been reviewed you will be notified by email.";
let nextNumber = 600;

type AreaData = { serviceAreas: { id: number; province: number }[]; serviceAreaProvinces: { id: number }[] };

describe.each(databaseKinds)("buyer and consultant registration forms on %s", (kind) => {
  let app: TestApp;
  let areas: AreaData;

  beforeAll(async () => {
    app = await startTestApp(kind, BEHIND_ONE_PROXY);
    areas = (await (await fetch(`${app.baseURL}/api/service_area_checkboxes`)).json()) as AreaData;
    expect(areas.serviceAreas.length).toBeGreaterThan(1);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const _post = (path: string, json: unknown) => createClient(app.baseURL).request(path, { json });
  const formPath = (type: "buyer" | "consultant", token: string) => `/signup/${type}-registration/${token}`;
  const submit = (type: "buyer" | "consultant", token: string, form: Record<string, string> | URLSearchParams) =>
    fetch(`${app.baseURL}${formPath(type, token)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
    });

  function tokenFor(organizationType: 2 | 3 | 4, steps: { privacy?: boolean; terms?: boolean } = {}) {
    nextNumber += 1;
    return accessTokenThroughSteps(app, {
      organizationType,
      mobileNumber: `+1403555${String(nextNumber).padStart(4, "0")}`,
      clientAddress: `10.3.0.${nextNumber % 250}`,
      name: "Dana",
      organizationName: "Foothills",
      ...steps,
    });
  }

  /** What a browser without JavaScript sends for a complete form (all three state controls included). */
  function completeForm(changes: Record<string, string> = {}): URLSearchParams {
    return buyerFormBody({
      reg_access_token: "whatever-the-page-said",
      "alternateContact.first_name": "",
      "alternateContact.last_name": "",
      "alternateContact.phone": "",
      "alternateContact.email": "",
      ...changes,
    });
  }

  const registrationsOf = (token: string) => registrationsOfToken(app, token);

  it("shows the form with its seven sections and all three state controls", async () => {
    const token = await tokenFor(2);
    const response = await fetch(`${app.baseURL}${formPath("buyer", token)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const heading of [
      "1.0 General",
      "2.0 Primary Contact",
      "3.0 Alternate Contact",
      "4.0 Accounting Contact",
      "5.0 Billing Preference",
      "6.0 Primary Industry",
      "7.0 Service Areas",
    ]) {
      expectIn(html, heading);
    }
    expectIn(html, "-- Please select --");
    expectIn(html, "Your account is created from the primary contact");
    for (const name of ["stateCA", "stateUS", "stateOther"]) expectIn(html, `name="${name}"`);
    for (const preference of ["Open Invoice", "Cortex", "Email Invoice", "Mail Invoice"]) {
      expectIn(html, `value="${preference}"`);
    }
  });

  it("answers a form with errors with every message and every typed value, writing nothing", async () => {
    const token = await tokenFor(2);
    const [first, second] = areas.serviceAreas;
    const form = completeForm({
      address: "",
      stateCA: "",
      "primaryContact.email": "not-an-email",
      "accountingContact.first_name": "",
      "accountingContact.last_name": "",
      "accountingContact.phone": "",
      "accountingContact.email": "",
      "alternateContact.last_name": "Typed Without First Name",
      billing_preference: "",
    });
    form.delete("billing_preference");
    form.append("serviceAreas", String(first?.id));
    form.append("serviceAreas", String(second?.id));
    const response = await submit("buyer", token, form);
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      INCOMPLETE,
      "Please enter the address",
      "Please enter the state or province",
      "Please enter an email address",
      "Please enter a first name",
      "Please choose a billing preference",
    ]) {
      expectIn(html, message);
    }
    expectIn(html, 'value="Foothills Energy Ltd."');
    expectIn(html, 'value="not-an-email"');
    expectIn(html, 'value="Typed Without First Name"');
    for (const area of [first, second]) {
      expect(html).toMatch(
        new RegExp(`id="service-areas-${area?.id}"[^>]*checked=""|checked=""[^>]*id="service-areas-${area?.id}"`),
      );
    }
    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(rows).toHaveLength(0);
    expect(tokenRow?.usedAt).toBeNull();
  });

  it("takes the state from the control matching the country, and a province box for all its cities", async () => {
    const usToken = await tokenFor(2);
    const us = await submit(
      "buyer",
      usToken,
      completeForm({ country: "US", stateCA: "AB", stateUS: "TX", stateOther: "Nowhere", postal_zip: "77002" }),
    );
    expect(us.status).toBe(302);
    expect((await registrationsOf(usToken)).rows[0]).toMatchObject({ countryCode: "US", state: "TX" });

    const abroadToken = await tokenFor(4);
    const province = areas.serviceAreaProvinces[0];
    const abroad = await submit(
      "consultant",
      abroadToken,
      completeForm({
        country: "GB",
        stateCA: "AB",
        stateOther: "Aberdeenshire",
        postal_zip: "AB10 1AB",
        serviceAreaProvinces: String(province?.id),
      }),
    );
    expect(abroad.status).toBe(302);
    expect(abroad.headers.get("location")).toBe("/signup/consultant-registration-complete");
    const [row] = (await registrationsOf(abroadToken)).rows;
    expect(row).toMatchObject({ countryCode: "GB", state: "Aberdeenshire", organizationType: 4 });
    const saved = await app.services.db
      .select()
      .from(registrationServiceAreas)
      .where(eq(registrationServiceAreas.registrationId, row?.id ?? 0));
    const provinceCities = areas.serviceAreas.filter((area) => area.province === province?.id).map((area) => area.id);
    expect(saved.map((entry) => entry.serviceAreaId).sort()).toEqual(provinceCities.sort());
  });

  it("writes one registration from a double submit and sends both to the completion page", async () => {
    const token = await tokenFor(2);
    const form = completeForm({ "alternateContact.first_name": "Sam", "alternateContact.email": "sam@x.example" });
    form.set("alternateContact.last_name", "Jones");
    form.set("alternateContact.phone", "403-555-0103");
    const responses = await Promise.all([submit("buyer", token, form), submit("buyer", token, form)]);
    for (const response of responses) {
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/signup/buyer-registration-complete");
    }
    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(rows).toHaveLength(1);
    expect(tokenRow?.usedAt).toBeInstanceOf(Date);
    const contacts = await app.services.db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, rows[0]?.id ?? 0));
    expect(contacts.map((contact) => contact.role).sort()).toEqual(["accounting", "alternate", "primary"]);

    // Back to the form afterwards: the link is spent.
    const again = await fetch(`${app.baseURL}${formPath("buyer", token)}`);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("Invalid access token.");
  });

  it("refuses bad, wrong-type and unfinished tokens without a 5xx", async () => {
    const bad = await fetch(`${app.baseURL}${formPath("buyer", "not-a-real-token-aaaaaaaaaaaaaaaa")}`);
    expect(bad.status).toBe(404);
    const badHtml = await bad.text();
    expectIn(badHtml, "Invalid access token.");
    expect(badHtml).not.toContain("1.0 General");
    const badPost = await submit("buyer", "not-a-real-token-aaaaaaaaaaaaaaaa", completeForm());
    expect(badPost.status).toBe(404);

    const consultantToken = await tokenFor(4);
    const wrongType = await fetch(`${app.baseURL}${formPath("buyer", consultantToken)}`);
    expect(wrongType.status).toBe(404);
    expect(await wrongType.text()).toContain("Invalid access token.");
    const wrongTypePost = await submit("buyer", consultantToken, completeForm());
    expect(wrongTypePost.status).toBe(409);
    expect(await wrongTypePost.text()).toContain("This registration link is for a consultant registration.");
    expect((await registrationsOf(consultantToken)).rows).toHaveLength(0);

    const noTerms = await tokenFor(2, { terms: false });
    const skipped = await fetch(`${app.baseURL}${formPath("buyer", noTerms)}`, { redirect: "manual" });
    expect(skipped.status).toBe(302);
    expect(skipped.headers.get("location")).toBe(`/signup/accept-terms-and-conditions/${noTerms}`);
    const skippedPost = await submit("buyer", noTerms, completeForm());
    // The action refuses; the page's loader then sends the applicant back to the step they skipped.
    expect([skippedPost.status, skippedPost.headers.get("location")]).toEqual([
      302,
      `/signup/accept-terms-and-conditions/${noTerms}`,
    ]);
    expect((await registrationsOf(noTerms)).rows).toHaveLength(0);

    const garbage = await submit("buyer", await tokenFor(2), { country: "x".repeat(5000), serviceAreas: "-1" });
    expect(garbage.status).toBe(400);
  });

  it("shows both completion pages", async () => {
    for (const type of ["buyer", "consultant"]) {
      const response = await fetch(`${app.baseURL}/signup/${type}-registration-complete`);
      expect(response.status).toBe(200);
      const html = await response.text();
      for (const text of ["Thank you", "Registration Complete", COMPLETE]) expectIn(html, text);
    }
  });
});

describe("buyer registration form when the database fails", () => {
  it("answers the browser's submission with 'Registration could not be processed.'", async () => {
    const app = await startTestApp("pglite");
    try {
      const json = (path: string, body: unknown) => createClient(app.baseURL).request(path, { json: body });
      const mobileNumber = "+14035559876";
      await createClient(app.baseURL).request("/api/registration/request_code", {
        json: { name: "Dana", organizationName: "Foothills", organizationType: 2, mobileNumber },
      });
      const [sms] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, mobileNumber));
      const verified = await json("/api/registration/verify_code", {
        mobileNumber,
        verificationCode: /\d{6}/.exec(sms?.text ?? "")?.[0],
      });
      const { accessToken } = (await verified.json()) as { accessToken: string };
      await json("/api/registration/accept_privacy_policy", { accessToken });
      await json("/api/registration/accept_terms_and_conditions", { accessToken });
      await app.closeDatabase();

      // What the page's script sends (a data request): the action's answer, the page keeps its data.
      const response = await fetch(`${app.baseURL}/signup/buyer-registration/${accessToken}.data`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: buyerFormBody({ billing_preference: "Cortex" }).toString(),
      });
      const body = await response.text();
      expect(body).toContain("Registration could not be processed. Please contact us for assistance.");
    } finally {
      await app.stop();
    }
  });
});
