import { expect } from "vitest";
import { registrations } from "~db/schema";
import { accessTokenThroughSteps } from "./registration-steps";
import { NEXT_YEAR } from "./seller-registration-body";
import { BEHIND_ONE_PROXY, createClient, startTestApp } from "./test-app";
import type { DatabaseKind } from "./test-database";

let nextNumber = 700;

type Checkboxes = { services: { id: number; children?: { id: number }[] }[] };

/**
 * The built app with what seller form tests need: access tokens through steps 1-4 by the API, the
 * complete form as a browser without JavaScript sends it, and a way to post it.
 */
export async function startSellerFormApp(
  kind: DatabaseKind,
  environment: NodeJS.ProcessEnv = {},
  options: Parameters<typeof startTestApp>[2] = {},
) {
  // Each applicant comes from its own address (X-Forwarded-For), as the request-code throttle wants.
  const app = await startTestApp(kind, { ...BEHIND_ONE_PROXY, ...environment }, options);
  const client = createClient(app.baseURL);
  const _post = (path: string, json: unknown) => client.request(path, { json });

  /** An access token through steps 1-4 by the API, as the browser pages would get it. */
  function sellerToken() {
    nextNumber += 1;
    return accessTokenThroughSteps(app, {
      organizationType: 3,
      mobileNumber: `+1403556${String(nextNumber).padStart(4, "0")}`,
      clientAddress: `10.4.0.${nextNumber % 250}`,
      name: "Sam",
      organizationName: "Roughneck",
    });
  }
  const checkboxes = (await (await fetch(`${app.baseURL}/api/service_checkboxes`)).json()) as Checkboxes;
  const leafService = checkboxes.services.flatMap((group) => group.children ?? [])[0]?.id;
  expect(leafService).toBeDefined();

  /** What a browser without JavaScript sends for a complete form. */
  function completeForm(changes: Record<string, string | null> = {}): URLSearchParams {
    const fields: Record<string, string | null> = {
      name: "Roughneck Services Ltd.",
      address: "10 Industrial Way",
      city: "Nisku",
      country: "CA",
      stateCA: "AB",
      stateUS: "",
      stateOther: "",
      postal_zip: "T9E 7N5",
      phone: "780-555-0100",
      fax: "",
      email: "office@roughneck.example",
      sa_written_safety_program: "Yes",
      sc_comply_works: "yes",
      sc_comply_works_expiry: `${NEXT_YEAR}-01-31`,
      // Unticked: the expiry typed is not kept.
      sc_secor_expiry: `${NEXT_YEAR}-02-01`,
      in_commercial_general: "$2,000,000 minimum",
      in_commercial_general_expiry: `${NEXT_YEAR}-06-30`,
      in_third_party_automobile: "$1,000,000 minimum",
      in_third_party_automobile_expiry: `${NEXT_YEAR}-06-30`,
      in_aircraft: "",
      in_aircraft_expiry: `${NEXT_YEAR}-06-30`,
      "wcbs[0].state": "AB",
      "wcbs[0].number": "1234567",
      "wcbs[0].expire_at": `${NEXT_YEAR}-03-01`,
      "wcbs[1].state": "",
      "wcbs[1].number": "",
      "wcbs[1].expire_at": "",
      primary_industry: "1",
      services: String(leafService),
      "salesContact.first_name": "Sam",
      "salesContact.last_name": "Driller",
      "salesContact.phone": "780-555-0101",
      "salesContact.email": "sam@roughneck.example",
      "salesContact.confirm_email": "sam@roughneck.example",
      "salesContact.experience": "20 years on rigs",
      "salesContact.skills": "Well control",
      "salesContact.workExperiences[0].company_name": "Big Rig Co",
      "salesContact.workExperiences[0].start_year": "2001",
      "salesContact.workExperiences[1].company_name": "",
      "salesContact.workExperiences[1].position": "dropped: no company name",
      // Typed, but the operations contact was not added: not kept.
      "operationsContact.first_name": "Olga",
      operations_contact_added: "",
      feedback: "Found you at a trade show",
      card_number: "4242 4242 4242 4242",
      card_exp_month: "12",
      card_exp_year: String(NEXT_YEAR).slice(-2),
      card_cvc: "123",
      stripe_payment_token: "",
      ...changes,
    };
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
    return form;
  }

  const submit = (token: string, form: URLSearchParams) =>
    fetch(`${app.baseURL}/signup/seller-registration/${token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      redirect: "manual",
    });

  async function registrationCount() {
    return (await app.services.db.select({ id: registrations.id }).from(registrations)).length;
  }

  return { app, sellerToken, completeForm, submit, registrationCount };
}
