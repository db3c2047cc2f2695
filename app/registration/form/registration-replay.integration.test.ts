import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestCardPayments } from "~/payments/payments";
import { registrationContacts, registrationServiceAreas, registrations, sellerRegistrations } from "~db/schema";
import { buyerFormBody } from "../../../tests/support/buyer-registration-body";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { accessTokenThroughSteps, registrationsOf } from "../../../tests/support/registration-steps";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { sellerBody } from "../../../tests/support/seller-registration-body";
import { createClient } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// A registration call replayed with its access token already spent (issue 17): the same data is
// answered with the first registration, other data is refused (409, 'Invalid access token.') and
// changes nothing. Over the API and the page forms, for buyers, consultants and sellers, with the
// offline test card provider (which keeps Stripe's idempotency: one key, one customer).

const INVALID = "Invalid access token.";
let nextNumber = 100;

describe.each(databaseKinds)("registration replays on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let serviceAreaIds: number[];
  let leafServiceIds: number[];

  beforeAll(async () => {
    context = await startSellerFormApp(kind);
    const { baseURL } = context.app;
    const areas = (await (await fetch(`${baseURL}/api/service_area_checkboxes`)).json()) as {
      serviceAreas: { id: number }[];
    };
    serviceAreaIds = areas.serviceAreas.slice(0, 3).map((area) => area.id);
    const checkboxes = (await (await fetch(`${baseURL}/api/service_checkboxes`)).json()) as {
      services: { children?: { id: number }[] }[];
    };
    leafServiceIds = checkboxes.services.flatMap((group) => group.children ?? []).map((service) => service.id);
    expect(serviceAreaIds.length).toBeGreaterThan(1);
    expect(leafServiceIds.length).toBeGreaterThan(1);
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  const post = (path: string, json: unknown) => createClient(context.app.baseURL).request(path, { json });
  const testProvider = () => context.app.services.payments as TestCardPayments;

  function tokenFor(organizationType: 2 | 3 | 4) {
    nextNumber += 1;
    return accessTokenThroughSteps(context.app, {
      organizationType,
      mobileNumber: `+1587557${String(nextNumber).padStart(4, "0")}`,
      clientAddress: `10.17.0.${nextNumber % 250}`,
      name: "Dana",
      organizationName: "Foothills",
    });
  }

  /** The registration with its contacts and service areas, as stored. */
  async function stored(token: string) {
    const { token: tokenRow, rows } = await registrationsOf(context.app, token);
    const ids = rows.map((row) => row.id);
    const { db } = context.app.services;
    const contacts = await db
      .select()
      .from(registrationContacts)
      .where(inArray(registrationContacts.registrationId, ids))
      .orderBy(asc(registrationContacts.id));
    const areas = await db
      .select()
      .from(registrationServiceAreas)
      .where(inArray(registrationServiceAreas.registrationId, ids))
      .orderBy(asc(registrationServiceAreas.serviceAreaId));
    const sellers = await db.select().from(sellerRegistrations).where(inArray(sellerRegistrations.registrationId, ids));
    return { tokenRow, rows, contacts, areas, sellers };
  }

  const contact = (firstName: string) => ({
    first_name: firstName,
    last_name: "Smith",
    phone: "403-555-0100",
    email: `${firstName.toLowerCase()}@foothills.example`,
  });

  const buyerData = (token: string, changes: Record<string, unknown> = {}) => ({
    reg_access_token: token,
    name: "Foothills Energy Ltd.",
    address: "400 4 Ave SW",
    city: "Calgary",
    state: "AB",
    country: "CA",
    postal_zip: "T2P 1J9",
    phone: "403-555-0100",
    fax: "",
    email: "office@foothills.example",
    primary_industry: 1,
    serviceAreas: serviceAreaIds,
    primaryContact: contact("Dana"),
    accountingContact: contact("Robin"),
    billing_preference: "Email Invoice",
    ...changes,
  });

  it.each([
    ["register_buyer", 2, "register_consultant"],
    ["register_consultant", 4, "register_buyer"],
  ] as const)(
    "%s: the same data again answers the first registration; other data is refused with 409 and changes nothing",
    async (endpoint, organizationType, otherEndpoint) => {
      const token = await tokenFor(organizationType);
      const first = await post(`/api/registration/${endpoint}`, buyerData(token));
      expect(first.status).toBe(201);
      const created = (await first.json()) as { registration: { id: number; status: string } };
      const before = await stored(token);
      expect(before.rows).toHaveLength(1);

      // The same submission spelt differently (letter case, order of the chosen areas, a blank fax left out).
      const { fax: _fax, ...withoutFax } = buyerData(token, {
        email: "Office@Foothills.EXAMPLE",
        state: "ab",
        serviceAreas: [...serviceAreaIds].reverse(),
      });
      for (const replay of [buyerData(token), withoutFax]) {
        const again = await post(`/api/registration/${endpoint}`, replay);
        expect(again.status).toBe(200);
        expect(await again.json()).toEqual(created);
      }

      for (const [path, changed] of [
        [endpoint, buyerData(token, { name: "Someone Else Ltd." })],
        [endpoint, buyerData(token, { billing_preference: "Cortex" })],
        [endpoint, buyerData(token, { serviceAreas: serviceAreaIds.slice(0, 1) })],
        [endpoint, buyerData(token, { alternateContact: contact("Alex") })],
        [endpoint, buyerData(token, { primaryContact: { ...contact("Dana"), phone: "403-555-0199" } })],
        // The same data at the other type's address is another request.
        [otherEndpoint, buyerData(token)],
      ] as const) {
        const refused = await post(`/api/registration/${path}`, changed);
        expect(refused.status).toBe(409);
        expect(await refused.json()).toEqual({ errors: { form: INVALID } });
      }
      expect(await stored(token)).toEqual(before);
    },
  );

  it("answers ids beyond the database's integers with field errors before anything is checked or saved (4xx, not 5xx)", async () => {
    const token = await tokenFor(2);
    const tooLarge = 3_000_000_000;
    const response = await post(
      "/api/registration/register_buyer",
      buyerData(token, { primary_industry: tooLarge, serviceAreas: [tooLarge] }),
    );
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: Record<string, string> };
    expect(errors.primary_industry).toBe("Please select a primary industry");
    expect(errors["serviceAreas.0"]).toBe("Please select service areas from the list");
    expect((await stored(token)).rows).toEqual([]);
  });

  const sellerData = (token: string, changes: Record<string, unknown> = {}) =>
    sellerBody({
      reg_access_token: token,
      primary_industry: 1,
      serviceAreas: serviceAreaIds,
      services: leafServiceIds.slice(0, 2),
      ...changes,
    });

  /** The test provider's customers made for this access token's registration. */
  async function customersOf(token: string) {
    const { token: tokenRow } = await registrationsOf(context.app, token);
    return testProvider()
      .listCustomers()
      .filter((customer) => customer.holder.reference === `registration-token-${tokenRow?.id}`);
  }

  it("register_seller: the same data again answers the first registration without a second customer; other data is refused with 409, no customer made", async () => {
    const token = await tokenFor(3);
    const first = await post("/api/registration/register_seller", sellerData(token));
    expect(first.status).toBe(201);
    const created = await first.json();
    const before = await stored(token);
    const customers = await customersOf(token);
    expect(customers.map((customer) => customer.id)).toEqual([before.sellers[0]?.paymentCustomerId]);

    for (const replay of [
      sellerData(token),
      sellerData(token, { services: leafServiceIds.slice(0, 2).reverse(), email: "OFFICE@roughneck.example" }),
      // Stripe.js makes a new token for every submit: a double submit differs only there. The card on file stays.
      sellerData(token, { stripe_payment_token: "tok_mastercard" }),
    ]) {
      const again = await post("/api/registration/register_seller", replay);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(created);
    }

    for (const changed of [
      sellerData(token, { feedback: "Changed my mind" }),
      sellerData(token, { services: leafServiceIds.slice(0, 1) }),
      sellerData(token, { in_commercial_general: "$5,000,000 minimum" }),
      sellerData(token, { wcbs: [] }),
      sellerData(token, { feedback: "Another card too", stripe_payment_token: "tok_amex" }),
    ]) {
      const refused = await post("/api/registration/register_seller", changed);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({ errors: { form: INVALID } });
    }
    expect(await stored(token)).toEqual(before);
    expect(await customersOf(token)).toEqual(customers);
  });

  it("register_seller: simultaneous submits, with the same card or another, leave one registration and one customer at the provider", async () => {
    const token = await tokenFor(3);
    const responses = await Promise.all(
      ["tok_visa", "tok_visa", "tok_visa", "tok_mastercard", "pm_card_amex"].map((card) =>
        post("/api/registration/register_seller", sellerData(token, { stripe_payment_token: card })),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const { rows, sellers } = await stored(token);
    expect(rows).toHaveLength(1);
    // The attempts that lost the token deleted the customers they had made; the identical ones shared one.
    const customers = await customersOf(token);
    expect(customers.map((customer) => customer.id)).toEqual([sellers[0]?.paymentCustomerId]);
  });

  it("the buyer page: the same form again goes to the complete page; other data shows 'Invalid access token.' (409) and changes nothing", async () => {
    const token = await tokenFor(2);
    const form = (changes: Record<string, string> = {}) => buyerFormBody(changes);
    const submit = (body: URLSearchParams) =>
      fetch(`${context.app.baseURL}/signup/buyer-registration/${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: body.toString(),
        redirect: "manual",
      });
    const first = await submit(form());
    expect(first.status).toBe(302);
    const complete = first.headers.get("location");
    const before = await stored(token);
    expect(before.rows).toHaveLength(1);

    const again = await submit(form({ email: "OFFICE@foothills.example" }));
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(complete);

    const refused = await submit(form({ name: "Someone Else Ltd." }));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expectIn(html, INVALID);
    expectNotIn(html, 'name="primaryContact.first_name"');
    expect(await stored(token)).toEqual(before);
  });

  it("the seller page: the same form again goes to the complete page; other data shows 'Invalid access token.' (409), no customer made", async () => {
    const token = await context.sellerToken();
    const first = await context.submit(token, context.completeForm());
    expect(first.status).toBe(302);
    const complete = first.headers.get("location");
    const before = await stored(token);
    expect(before.rows).toHaveLength(1);
    const customers = await customersOf(token);
    expect(customers).toHaveLength(1);

    const again = await context.submit(token, context.completeForm());
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(complete);

    const refused = await context.submit(token, context.completeForm({ feedback: "Something else" }));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expectIn(html, INVALID);
    expectNotIn(html, 'name="salesContact.first_name"');
    expect(await stored(token)).toEqual(before);
    expect(await customersOf(token)).toEqual(customers);
    const { db } = context.app.services;
    expect(
      await db
        .select()
        .from(registrations)
        .where(eq(registrations.id, before.rows[0]?.id ?? 0)),
    ).toEqual(before.rows);
  });
});
