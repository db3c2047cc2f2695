import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  certificationOptions,
  keyPersonCertifications,
  keyPersonEducation,
  keyPersonWorkExperiences,
  outboxMessages,
  registrationContacts,
  registrationServiceAreas,
  registrationServices,
  registrationWcbs,
  sellerRegistrations,
} from "~db/schema";
import {
  accessTokenThroughSteps,
  registrationsOf as registrationsOfToken,
  startStepFiveApp,
} from "../../../tests/support/registration-steps";
import { NEXT_YEAR, sellerBody } from "../../../tests/support/seller-registration-body";
import { createClient, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Step 5 for sellers over the API, with the offline test card provider (Stripe's test-card behaviour).

const INCOMPLETE = "Please ensure all required fields are filled in.";
let nextNumber = 600;

describe.each(databaseKinds)("seller registration on %s", (kind) => {
  let app: TestApp;
  let industryId: number;
  let serviceAreaIds: number[];
  let serviceIds: number[];

  beforeAll(async () => {
    ({ app, industryId, serviceAreaIds } = await startStepFiveApp(kind, 2));
    const catalogue = (await (await fetch(`${app.baseURL}/api/services`)).json()) as {
      services: { id: number; parent: number | null }[];
    };
    // Leaves, so that a refused deletion below is down to the registration, not to child services.
    const leaves = catalogue.services.filter(
      (service) => !catalogue.services.some((other) => other.parent === service.id),
    );
    serviceIds = leaves.slice(0, 3).map((service) => service.id);
    expect(serviceIds.length).toBeGreaterThan(1);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const post = (path: string, json: unknown) => createClient(app.baseURL).request(path, { json });

  function sellerToken(organizationType: 2 | 3 = 3) {
    nextNumber += 1;
    return accessTokenThroughSteps(app, {
      organizationType,
      mobileNumber: `+1780555${String(nextNumber).padStart(4, "0")}`,
      clientAddress: `10.3.0.${nextNumber % 250}`,
      name: "Sam",
      organizationName: "Roughneck",
    });
  }

  const body = (token: string, changes: Record<string, unknown> = {}) =>
    sellerBody({
      reg_access_token: token,
      primary_industry: industryId,
      serviceAreas: serviceAreaIds,
      services: serviceIds,
      ...changes,
    });

  const registrationsOf = (token: string) => registrationsOfToken(app, token);

  it("saves the card, writes the whole registration in one go, spends the token and tells staff", async () => {
    const token = await sellerToken();
    const operationsContact = {
      first_name: "Ola",
      last_name: "Ops",
      phone: "780-555-0102",
      email: "ola@roughneck.example",
      workExperiences: [{ company_name: "Frac Co", start_year: 2015 }],
    };
    const response = await post("/api/registration/register_seller", body(token, { operationsContact }));
    expect(response.status).toBe(201);
    const { registration } = (await response.json()) as { registration: { id: number; status: string } };
    expect(registration.status).toBe("submitted");

    const { db } = app.services;
    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(tokenRow?.usedAt).toBeInstanceOf(Date);
    expect(rows).toEqual([
      expect.objectContaining({ id: registration.id, organizationType: 3, billingPreference: null, state: "AB" }),
    ]);
    const [seller] = await db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registration.id));
    expect(seller).toMatchObject({
      saWrittenSafetyProgram: true,
      scComplyWorksExpiry: `${NEXT_YEAR}-01-31`,
      scSecorExpiry: null,
      inCommercialGeneral: "$2,000,000 minimum",
      inAircraft: "No",
      inAircraftExpiry: null,
      inPollutionExpiry: `${NEXT_YEAR}-11-23`,
      paymentStatus: "card_saved",
      paymentProvider: "test",
      cardBrand: "visa",
      cardLast4: "4242",
    });
    expect(seller?.paymentCustomerId).toMatch(/^cus_test_/);
    expect(JSON.stringify(seller)).not.toContain("4242424242424242");

    const wcbs = await db.select().from(registrationWcbs).where(eq(registrationWcbs.registrationId, registration.id));
    expect(wcbs.map((row) => [row.state, row.number, row.expiresOn])).toEqual([
      ["AB", "1234567", `${NEXT_YEAR}-03-01`],
    ]);
    const chosen = await db
      .select()
      .from(registrationServices)
      .where(eq(registrationServices.registrationId, registration.id));
    expect(chosen.map((row) => row.serviceId).sort()).toEqual([...serviceIds].sort());
    const areas = await db
      .select()
      .from(registrationServiceAreas)
      .where(eq(registrationServiceAreas.registrationId, registration.id));
    expect(areas).toHaveLength(serviceAreaIds.length);

    const people = await db
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, registration.id))
      .orderBy(asc(registrationContacts.role));
    expect(people.map((row) => [row.role, row.firstName, row.email, row.experience])).toEqual([
      ["operations", "Ola", "ola@roughneck.example", null],
      ["sales", "Sam", "sam@roughneck.example", "20 years on rigs"],
    ]);
    const contactIds = people.map((row) => row.id);
    const work = await db
      .select()
      .from(keyPersonWorkExperiences)
      .where(inArray(keyPersonWorkExperiences.contactId, contactIds));
    expect(work.map((row) => row.companyName).sort()).toEqual(["Big Rig Co", "Frac Co"]);
    const certifications = await db
      .select({ name: certificationOptions.name, expiresOn: keyPersonCertifications.expiresOn })
      .from(keyPersonCertifications)
      .innerJoin(certificationOptions, eq(certificationOptions.id, keyPersonCertifications.certificationOptionId))
      .where(inArray(keyPersonCertifications.contactId, contactIds));
    expect(certifications).toEqual([{ name: "H2S Alive", expiresOn: `${NEXT_YEAR}-05-01` }]);
    const education = await db
      .select()
      .from(keyPersonEducation)
      .where(inArray(keyPersonEducation.contactId, contactIds));
    expect(education.map((row) => row.programName)).toEqual(["Petroleum Engineering Technology"]);

    const notice = await db.select().from(outboxMessages).where(eq(outboxMessages.to, "review@example.com"));
    expect(notice.at(-1)?.subject).toBe("New seller registration awaiting review: Roughneck Services Ltd.");

    // A service a seller chose can no longer be deleted from the catalogue (409, not 5xx).
    const staff = createClient(app.baseURL);
    const login = await staff.request("/api/account/login", {
      json: { email: "review@example.com", password: "staff-password" },
    });
    expect(login.status).toBe(200);
    const chosenService = serviceIds.at(-1);
    const deletion = await staff.request(`/api/services/${chosenService}`, { method: "DELETE" });
    expect(deletion.status).toBe(409);
    expect(await deletion.json()).toEqual({
      errors: { form: "This service is used by registrations and cannot be deleted." },
    });
  });

  it("answers a declined card with the provider's message and writes nothing; another card then works", async () => {
    const token = await sellerToken();
    for (const [stripeToken, message] of [
      ["tok_chargeDeclined", "Your card was declined."],
      ["pm_card_chargeDeclinedInsufficientFunds", "Your card has insufficient funds."],
    ]) {
      const declined = await post(
        "/api/registration/register_seller",
        body(token, { stripe_payment_token: stripeToken }),
      );
      expect(declined.status).toBe(402);
      expect(await declined.json()).toEqual({ errors: { card: message } });
    }
    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(tokenRow?.usedAt).toBeNull();
    expect(rows).toHaveLength(0);

    const retried = await post(
      "/api/registration/register_seller",
      body(token, { stripe_payment_token: "tok_mastercard" }),
    );
    expect(retried.status).toBe(201);
  });

  it("creates exactly one registration from a double submit", async () => {
    const token = await sellerToken();
    const responses = await Promise.all([1, 2, 3].map(() => post("/api/registration/register_seller", body(token))));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 201]);
    const { rows } = await registrationsOf(token);
    expect(rows).toHaveLength(1);
    const sellers = await app.services.db
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, rows[0]?.id ?? 0));
    expect(sellers).toHaveLength(1);
  });

  it("answers invalid data with field errors (4xx, never 5xx), leaving the token usable", async () => {
    const token = await sellerToken();
    const noService = await post("/api/registration/register_seller", body(token, { services: [] }));
    expect(noService.status).toBe(400);
    expect(await noService.json()).toEqual({
      errors: {
        services: "Please select at least one service category.",
        form: "Please select at least one service category.",
      },
    });

    const invalid = await post(
      "/api/registration/register_seller",
      body(token, {
        stripe_payment_token: "",
        in_third_party_automobile: "",
        wcbs: [{ state: "AB", number: "", expire_at: `${NEXT_YEAR}-01-01` }],
        salesContact: { ...(sellerBody().salesContact as object), confirm_email: "other@roughneck.example" },
      }),
    );
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { errors: Record<string, string> }).errors).toEqual({
      form: INCOMPLETE,
      card: "Please enter your card details.",
      in_third_party_automobile: "Please select the third party automobile liability coverage",
      "wcbs.0.number": "Please enter the WCB number",
      "salesContact.confirm_email": "Emails don't match.",
    });

    const unknownService = await post("/api/registration/register_seller", body(token, { services: [999999] }));
    expect(unknownService.status).toBe(400);
    expect(((await unknownService.json()) as { errors: Record<string, string> }).errors.services).toBe(
      "Please select at least one service category.",
    );

    const { token: tokenRow, rows } = await registrationsOf(token);
    expect(tokenRow?.usedAt).toBeNull();
    expect(rows).toHaveLength(0);
  });

  it("refuses a buyer's token and an unknown token without saving a card", async () => {
    const buyerToken = await sellerToken(2);
    const buyers = await post("/api/registration/register_seller", body(buyerToken));
    expect(buyers.status).toBe(409);
    expect(await buyers.json()).toEqual({
      errors: { form: "This registration link is for a buyer registration." },
    });
    expect((await registrationsOf(buyerToken)).token?.usedAt).toBeNull();
    const wrong = await post("/api/registration/register_seller", body("A".repeat(43)));
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ errors: { form: "Invalid access token." } });
  });
});
