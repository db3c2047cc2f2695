import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  outboxMessages,
  registrationAccessTokens,
  registrationCodeSends,
  registrationContacts,
  registrationRequests,
  registrationServiceAreas,
  registrationServices,
  registrations,
  sellerRegistrations,
} from "~db/schema";
import { sellerBody } from "../../../tests/support/seller-registration-body";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// Whatever JSON a client throws at a registration call, it gets a 4xx (never a 5xx) and nothing is written.

const registrationFields = [
  "reg_access_token",
  "name",
  "address",
  "city",
  "state",
  "country",
  "postal_zip",
  "phone",
  "fax",
  "email",
  "primary_industry",
  "serviceAreas",
  "primaryContact",
  "alternateContact",
  "accountingContact",
  "billing_preference",
] as const;

const sellerFields = Object.keys(sellerBody());

const calls = {
  request_code: ["name", "organizationName", "organizationType", "mobileNumber"],
  verify_code: ["mobileNumber", "verificationCode"],
  verify_access_token: ["accessToken"],
  accept_privacy_policy: ["accessToken"],
  accept_terms_and_conditions: ["accessToken"],
  register_buyer: registrationFields,
  register_consultant: registrationFields,
  register_seller: sellerFields,
} as const;

/** Plausible-looking values mixed with anything at all, so the validators are exercised past the first check. */
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.constantFrom("", " ", "780-555-0199", "+1 (780) 555-0199", "2", "4", "123456", "Dana", "null"),
  fc.integer(),
  fc.double(),
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
);

function bodies(fields: readonly string[]) {
  return fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc
      .dictionary(fc.constantFrom(...fields, "__proto__", "constructor", "extra"), fieldValue)
      .map((value) => JSON.stringify(value)),
    fc
      .record(Object.fromEntries(fields.map((field) => [field, fieldValue])), { requiredKeys: [] })
      .map((value) => JSON.stringify(value)),
    fc.string(),
  );
}

describe.each(databaseKinds)("registration API under arbitrary JSON on %s", (kind) => {
  let app: TestApp;
  /** Verified, but the privacy policy and terms are not accepted: registering with it must be refused. */
  const seededToken = "";
  beforeAll(async () => {
    app = await startTestApp(kind);
    // Some rows to keep intact: a pending request and a verified one with its access token.
    const json = { "content-type": "application/json" };
    for (const mobileNumber of ["780-555-0198", "780-555-0199"]) {
      const body = JSON.stringify({ name: "Dana", organizationName: "Foothills", organizationType: 2, mobileNumber });
      expect(
        (await fetch(`${app.baseURL}/api/registration/request_code`, { method: "POST", headers: json, body })).status,
      ).toBe(200);
    }
    const [sms] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, "+17805550199"));
    const verificationCode = /\d{6}/.exec(sms?.text ?? "")?.[0];
    const body = JSON.stringify({ mobileNumber: "780-555-0199", verificationCode });
    expect(
      (await fetch(`${app.baseURL}/api/registration/verify_code`, { method: "POST", headers: json, body })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function snapshot() {
    const { db } = app.services;
    return {
      requests: await db.select().from(registrationRequests).orderBy(asc(registrationRequests.id)),
      sends: await db.select().from(registrationCodeSends).orderBy(asc(registrationCodeSends.id)),
      tokens: await db.select().from(registrationAccessTokens).orderBy(asc(registrationAccessTokens.id)),
      registrations: await db.select().from(registrations).orderBy(asc(registrations.id)),
      contacts: await db.select().from(registrationContacts).orderBy(asc(registrationContacts.id)),
      areas: await db.select().from(registrationServiceAreas),
      sellers: await db.select().from(sellerRegistrations),
      services: await db.select().from(registrationServices),
      outbox: await db.select().from(outboxMessages).orderBy(asc(outboxMessages.id)),
    };
  }

  it.each(Object.entries(calls))("POST /api/registration/%s", async (call, fields) => {
    await fc.assert(
      fc.asyncProperty(bodies(fields), async (body) => {
        const before = await snapshot();
        const response = await fetch(`${app.baseURL}/api/registration/${call}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        const status = response.status;
        const text = await response.text();
        expect(status, `${body} → ${status} ${text}`).toBeGreaterThanOrEqual(400);
        expect(status, `${body} → ${status} ${text}`).toBeLessThan(500);
        expect(JSON.parse(text)).toHaveProperty("errors");
        expect(await snapshot()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });

  it("POST /api/registration/register_seller with a plausible body, one field replaced by anything", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sellerFields), fieldValue, async (field, value) => {
        const before = await snapshot();
        const response = await fetch(`${app.baseURL}/api/registration/register_seller`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(sellerBody({ reg_access_token: seededToken, [field]: value })),
        });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(await snapshot()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });

  it.each(["register_buyer", "register_consultant"])(
    "POST /api/registration/%s with a plausible body, one field replaced by anything",
    async (call) => {
      const valid = (): Record<string, unknown> => ({
        reg_access_token: seededToken,
        name: "Foothills Energy",
        address: "400 4 Ave SW",
        city: "Calgary",
        state: "AB",
        country: "CA",
        postal_zip: "T2P 1J9",
        phone: "403-555-0100",
        email: "office@foothills.example",
        primary_industry: 1,
        serviceAreas: [1],
        primaryContact: { first_name: "Dana", last_name: "Smith", phone: "403-555-0100", email: "d@f.example" },
        accountingContact: { first_name: "Robin", last_name: "Lee", phone: "403-555-0101", email: "r@f.example" },
        billing_preference: "Cortex",
      });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...registrationFields), fieldValue, async (field, value) => {
          const before = await snapshot();
          const response = await fetch(`${app.baseURL}/api/registration/${call}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ...valid(), [field]: value }),
          });
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(await snapshot()).toEqual(before);
        }),
        { numRuns: 60 },
      );
    },
  );
});
