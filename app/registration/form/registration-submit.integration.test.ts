import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrationContacts, registrationServiceAreas } from "~db/schema";
import {
  accessTokenThroughSteps,
  registrationsOf as registrationsOfToken,
  startStepFiveApp,
} from "../../../tests/support/registration-steps";
import { createClient, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Step 5 over the API: register_buyer and register_consultant (one transaction, token spent, idempotent).

const INCOMPLETE = "Please ensure all required fields are filled in.";
let nextNumber = 300;

describe.each(databaseKinds)("buyer and consultant registration on %s", (kind) => {
  let app: TestApp;
  let industryId: number;
  let serviceAreaIds: number[];

  beforeAll(async () => {
    ({ app, industryId, serviceAreaIds } = await startStepFiveApp(kind, 3));
    expect(serviceAreaIds.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const post = (path: string, json: unknown) => createClient(app.baseURL).request(path, { json });

  /** Steps 1-2 (and 3-4 unless told otherwise) for a new number: a token ready for the form. */
  function tokenFor(organizationType: 2 | 3 | 4, steps: { privacy?: boolean; terms?: boolean } = {}) {
    nextNumber += 1;
    return accessTokenThroughSteps(app, {
      organizationType,
      mobileNumber: `+1403555${String(nextNumber).padStart(4, "0")}`,
      clientAddress: `10.2.0.${nextNumber % 250}`,
      name: "Dana",
      organizationName: "Foothills",
      ...steps,
    });
  }

  const contact = (firstName: string) => ({
    first_name: firstName,
    last_name: "Smith",
    phone: "403-555-0100",
    email: `${firstName.toLowerCase()}@foothills.example`,
  });

  function buyerData(token: string, changes: Record<string, unknown> = {}) {
    return {
      reg_access_token: token,
      name: "Foothills Energy Ltd.",
      address: "400 4 Ave SW",
      city: "Calgary",
      state: "AB",
      country: "CA",
      postal_zip: "T2P 1J9",
      phone: "403-555-0100",
      fax: "",
      email: "Office@Foothills.example",
      primary_industry: industryId,
      serviceAreas: serviceAreaIds,
      primaryContact: contact("Dana"),
      alternateContact: { first_name: "", last_name: "", phone: "", email: "" },
      accountingContact: contact("Robin"),
      billing_preference: "Email Invoice",
      ...changes,
    };
  }

  const registrationsOf = (token: string) => registrationsOfToken(app, token);

  it("writes a buyer registration with its contacts and service areas, spends the token and tells staff", async () => {
    const token = await tokenFor(2);
    const response = await post("/api/registration/register_buyer", buyerData(token));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { registration: { id: number; status: string } };
    expect(body.registration.status).toBe("submitted");

    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(tokenRow?.usedAt).toBeInstanceOf(Date);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: body.registration.id,
      organizationType: 2,
      status: "submitted",
      name: "Foothills Energy Ltd.",
      state: "AB",
      countryCode: "CA",
      fax: null,
      email: "office@foothills.example",
      primaryIndustryId: industryId,
      billingPreference: "Email Invoice",
    });
    const contacts = await app.services.db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, body.registration.id))
      .orderBy(asc(registrationContacts.role));
    expect(contacts.map((row) => [row.role, row.firstName])).toEqual([
      ["accounting", "Robin"],
      ["primary", "Dana"],
    ]);
    const areas = await app.services.db
      .select()
      .from(registrationServiceAreas)
      .where(eq(registrationServiceAreas.registrationId, body.registration.id));
    expect(areas.map((row) => row.serviceAreaId).sort()).toEqual([...serviceAreaIds].sort());

    const notice = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, "review@example.com"));
    expect(notice.at(-1)?.subject).toContain("Foothills Energy Ltd.");
    expect(notice.at(-1)?.text).toContain(`${app.baseURL}/staff`);

    // The token is spent: the steps no longer accept it.
    expect((await post("/api/registration/verify_access_token", { accessToken: token })).status).toBe(404);
  });

  it("creates exactly one registration from a double submit or a retry", async () => {
    const token = await tokenFor(4);
    const data = buyerData(token, { alternateContact: contact("Sam") });
    const responses = await Promise.all([1, 2, 3].map(() => post("/api/registration/register_consultant", data)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 201]);
    const ids = await Promise.all(
      responses.map(async (response) => ((await response.json()) as { registration: { id: number } }).registration.id),
    );
    expect(new Set(ids).size).toBe(1);
    const retry = await post("/api/registration/register_consultant", data);
    expect(retry.status).toBe(200);
    const { rows } = await registrationsOf(token);
    expect(rows).toHaveLength(1);
    const contacts = await app.services.db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, rows[0]?.id ?? 0));
    expect(contacts.map((row) => row.role).sort()).toEqual(["accounting", "alternate", "primary"]);
  });

  it("refuses a token of another type, skipped steps and bad tokens, writing nothing", async () => {
    const consultantToken = await tokenFor(4);
    const wrongType = await post("/api/registration/register_buyer", buyerData(consultantToken));
    expect(wrongType.status).toBe(409);
    expect(await wrongType.json()).toEqual({
      errors: { form: "This registration link is for a consultant registration." },
    });
    const afterWrongType = await registrationsOf(consultantToken);
    expect(afterWrongType.rows).toHaveLength(0);
    expect(afterWrongType.token?.usedAt).toBeNull();
    expect((await post("/api/registration/register_consultant", buyerData(consultantToken))).status).toBe(201);

    const sellerToken = await tokenFor(3);
    expect((await post("/api/registration/register_buyer", buyerData(sellerToken))).status).toBe(409);

    const noTerms = await tokenFor(2, { terms: false });
    const skipped = await post("/api/registration/register_buyer", buyerData(noTerms));
    expect(skipped.status).toBe(409);
    expect(await skipped.json()).toEqual({
      errors: { form: "Please accept the privacy policy and the terms and conditions before registering." },
    });
    expect((await registrationsOf(noTerms)).rows).toHaveLength(0);

    const unknown = await post("/api/registration/register_buyer", buyerData("A".repeat(43)));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: { form: "Invalid access token." } });
  });

  it("answers invalid data with field errors and the form message, leaving the token usable", async () => {
    const token = await tokenFor(2);
    const missing = await post(
      "/api/registration/register_buyer",
      buyerData(token, {
        primaryContact: { first_name: "", last_name: "Smith", phone: "403-555-0100", email: "not-an-email" },
        accountingContact: undefined,
        billing_preference: "Cash",
        postal_zip: "12345",
      }),
    );
    expect(missing.status).toBe(400);
    const { errors } = (await missing.json()) as { errors: Record<string, string> };
    expect(errors).toMatchObject({
      form: INCOMPLETE,
      "primaryContact.first_name": "Please enter a first name",
      "primaryContact.email": "Please enter an email address",
      accountingContact: "Please enter the contact's details",
      billing_preference: "Please choose a billing preference",
    });

    const references = await post(
      "/api/registration/register_buyer",
      buyerData(token, { state: "ZZ", primary_industry: 99999, serviceAreas: [...serviceAreaIds, 99999] }),
    );
    expect(references.status).toBe(400);
    expect(((await references.json()) as { errors: Record<string, string> }).errors).toEqual({
      form: INCOMPLETE,
      state: "Please select a state or province",
      primary_industry: "Please select a primary industry",
      serviceAreas: "Please select service areas from the list",
    });

    // Outside Canada and the US the state is free text.
    const { token: before } = await registrationsOf(token);
    expect(before?.usedAt).toBeNull();
    const abroad = await post(
      "/api/registration/register_buyer",
      buyerData(token, { country: "GB", state: "Aberdeenshire", postal_zip: "AB10 1AB", serviceAreas: [] }),
    );
    expect(abroad.status).toBe(201);
  });
});
