import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  industries,
  outboxMessages,
  registrationChangeTokens,
  registrationContacts,
  registrationDecisions,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  users,
} from "~db/schema";
import { formBody } from "../../../tests/support/form-body";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { accessTokenThroughSteps } from "../../../tests/support/registration-steps";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { createClient } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { readStoredRegistration } from "./stored-registration.server";

// Staff ask an applicant for changes (issue 8): the message and a link are e-mailed, the link opens
// the applicant's own form pre-filled, and the resubmission replaces the data and puts the
// registration back in the queue, in one transaction. A browser without JavaScript, on both databases.

const LINK = /\/signup\/registration-changes\/([A-Za-z0-9_-]{43})/;

describe.each(databaseKinds)("asking for changes on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let staff: ReturnType<typeof createClient>;
  let submitted = 0;

  beforeAll(async () => {
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
    staff = createClient(context.app.baseURL);
    expect(
      (await staff.request("/login", { form: { email: "staff@example.com", password: "staff-password" } })).status,
    ).toBe(302);
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  const db = () => context.app.services.db;
  const decide = (id: number, form: Record<string, string>) => staff.request(`/staff/registrations/${id}`, { form });

  async function submittedSeller() {
    submitted += 1;
    const salesEmail = `sales-${submitted}@changes.example`;
    const form = context.completeForm({
      name: `Changes Test ${submitted} Ltd.`,
      email: `office-${submitted}@changes.example`,
      "salesContact.email": salesEmail,
      "salesContact.confirm_email": salesEmail,
    });
    expect((await context.submit(await context.sellerToken(), form)).status).toBe(302);
    const [row] = await db()
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, `office-${submitted}@changes.example`));
    return { id: row?.id ?? 0, salesEmail };
  }

  /** Asks for changes through the staff page (with its confirmation); answers the link's token. */
  async function askForChanges(id: number, salesEmail: string, message: string) {
    expect((await decide(id, { intent: "request-changes", message, confirm: "yes" })).status).toBe(302);
    const mails = await db().select().from(outboxMessages).where(eq(outboxMessages.to, salesEmail));
    const token = LINK.exec(mails.at(-1)?.text ?? "")?.[1];
    expect(token).toBeDefined();
    return token ?? "";
  }

  it("asks only with a message, after a confirmation, and e-mails it with a link", async () => {
    const { id, salesEmail } = await submittedSeller();
    const empty = await decide(id, { intent: "request-changes", message: " " });
    expect(empty.status).toBe(400);
    expectIn(await empty.text(), "Please say which changes the applicant should make");

    const asked = await decide(id, { intent: "request-changes", message: "Please add your WCB number." });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expectIn(question, "Ask the applicant for these changes?");
    expectIn(question, "Please add your WCB number.");
    const [waiting] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(waiting?.status).toBe("submitted");

    const done = await decide(id, {
      intent: "request-changes",
      message: "Please add your WCB number.",
      confirm: "yes",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/staff/registrations/${id}?done=changes_requested`);
    const [changed] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(changed?.status).toBe("changes_requested");
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, salesEmail));
    expect(mail?.subject).toBe("Please update your registration");
    expect(mail?.text).toContain("Please add your WCB number.");
    expect(mail?.text).toMatch(new RegExp(`${context.app.baseURL}/signup/registration-changes/[A-Za-z0-9_-]{43}`));
    const [token] = await db()
      .select()
      .from(registrationChangeTokens)
      .where(eq(registrationChangeTokens.registrationId, id));
    const days = ((token?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const page = await (await staff.request(`/staff/registrations/${id}?done=changes_requested`)).text();
    expectIn(page, "Changes requested by staff@example.com");
    expectIn(page, "Please add your WCB number.");
    const queue = await (await staff.request("/staff/registrations?status=changes_requested")).text();
    expectIn(queue, `href="/staff/registrations/${id}"`);
    // Nothing more can be decided until the applicant resubmits.
    expect((await decide(id, { intent: "approve", confirm: "yes" })).status).toBe(409);
  });

  it("opens the applicant's form pre-filled with staff's message, and takes the resubmission", async () => {
    const { id, salesEmail } = await submittedSeller();
    const token = await askForChanges(id, salesEmail, "Your WCB number looks wrong.");
    const applicant = createClient(context.app.baseURL);
    const page = await applicant.request(`/signup/registration-changes/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [
      "Update your registration",
      "Your WCB number looks wrong.",
      `value="Changes Test`,
      `value="1234567"`,
      `value="Big Rig Co"`,
      `value="${salesEmail}"`,
      "Visa ending 4242 stays on file",
      "Resubmit Registration",
    ]) {
      expectIn(html, text);
    }
    expectNotIn(html, 'name="card_number"');

    const stored = await readStoredRegistration(db(), id);
    if (!stored) throw new Error("no stored registration");
    const [before] = await db().select().from(sellerRegistrations).where(eq(sellerRegistrations.registrationId, id));

    // A mistake is answered at the field, with what was typed kept, and nothing written.
    const refused = await applicant.request(`/signup/registration-changes/${token}`, {
      form: formBody(stored.values, { "wcbs[0].number": "7654321", city: "" }),
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expectIn(refusedHtml, "Please ensure all required fields are filled in.");
    expectIn(refusedHtml, 'value="7654321"');
    const [stillWaiting] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(stillWaiting?.status).toBe("changes_requested");

    const resubmitted = await applicant.request(`/signup/registration-changes/${token}`, {
      form: formBody(stored.values, {
        "wcbs[0].number": "7654321",
        "salesContact.workExperiences[1].company_name": "Second Rig Ltd.",
        feedback: "Fixed the WCB number",
      }),
    });
    expect(resubmitted.status).toBe(302);
    expect(resubmitted.headers.get("location")).toBe("/signup/seller-registration-complete");

    const [registration] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(registration?.status).toBe("submitted");
    const wcbs = await db().select().from(registrationWcbs).where(eq(registrationWcbs.registrationId, id));
    expect(wcbs.map((wcb) => wcb.number)).toEqual(["7654321"]);
    const contacts = await db().select().from(registrationContacts).where(eq(registrationContacts.registrationId, id));
    expect(contacts.map((contact) => contact.role)).toEqual(["sales"]);
    const [after] = await db().select().from(sellerRegistrations).where(eq(sellerRegistrations.registrationId, id));
    expect(after?.feedback).toBe("Fixed the WCB number");
    // The card on file is untouched.
    expect(after).toMatchObject({
      paymentStatus: before?.paymentStatus,
      paymentCustomerId: before?.paymentCustomerId,
      paymentMethodId: before?.paymentMethodId,
      cardLast4: "4242",
    });
    const history = await db()
      .select()
      .from(registrationDecisions)
      .where(eq(registrationDecisions.registrationId, id))
      .orderBy(asc(registrationDecisions.id));
    expect(history.map((entry) => entry.decision)).toEqual(["changes_requested", "resubmitted"]);
    const staffMails = await db().select().from(outboxMessages).where(eq(outboxMessages.to, "staff@example.com"));
    expect(staffMails.some((mail) => mail.text.includes(`/staff/registrations/${id}`))).toBe(true);

    // The link is spent.
    expect((await applicant.request(`/signup/registration-changes/${token}`)).status).toBe(404);
    const again = await applicant.request(`/signup/registration-changes/${token}`, { form: formBody(stored.values) });
    expect(again.status).toBe(404);

    // Back in the queue: staff decide again, once.
    const page2 = await (await staff.request(`/staff/registrations/${id}`)).text();
    expectIn(page2, "Resubmitted by the applicant");
    expectIn(page2, "7654321");
    expect((await decide(id, { intent: "approve", confirm: "yes" })).status).toBe(302);
    expect(await db().select().from(users).where(eq(users.email, salesEmail))).toHaveLength(1);
    expect((await decide(id, { intent: "request-changes", message: "More", confirm: "yes" })).status).toBe(409);
  });

  it("keeps the form's blocks working without JavaScript: adding a WCB answers with one more, nothing saved", async () => {
    const { id, salesEmail } = await submittedSeller();
    const token = await askForChanges(id, salesEmail, "Add your BC WCB too.");
    const stored = await readStoredRegistration(db(), id);
    if (!stored) throw new Error("no stored registration");
    const body = formBody(stored.values);
    body.append("__intent__", JSON.stringify({ type: "insert", payload: { name: "wcbs" } }));
    const added = await createClient(context.app.baseURL).request(`/signup/registration-changes/${token}`, {
      form: body,
    });
    expect(added.status).toBe(200);
    const html = await added.text();
    expectIn(html, 'name="wcbs[1].number"');
    expectIn(html, 'value="1234567"');
    const [registration] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(registration?.status).toBe("changes_requested");
  });

  // A one-character change must really change the token (its last character may already be "A").
  const tamperedLastCharacter = (token: string) => token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");

  it("answers unknown, malformed and tampered links with 404, never a 5xx", async () => {
    const { id, salesEmail } = await submittedSeller();
    const first = await askForChanges(id, salesEmail, "First request");
    // Staff cannot ask twice while the applicant has not resubmitted; a second link comes only with a new request.
    expect((await decide(id, { intent: "request-changes", message: "Again", confirm: "yes" })).status).toBe(409);
    const client = createClient(context.app.baseURL);
    for (const token of ["nope", "x".repeat(43), "%3Cscript%3E", tamperedLastCharacter(first)]) {
      const answer = await client.request(`/signup/registration-changes/${token}`);
      expect(answer.status).toBe(404);
      expectIn(await answer.text(), "Please check the link and try again.");
    }
    const posted = await client.request(`/signup/registration-changes/${"y".repeat(43)}`, { form: { name: "x" } });
    expect(posted.status).toBe(404);
  });

  it("lets exactly one of an approval and a request for changes made at the same moment win", async () => {
    const { id } = await submittedSeller();
    const answers = await Promise.all([
      decide(id, { intent: "approve", confirm: "yes" }),
      decide(id, { intent: "request-changes", message: "Race", confirm: "yes" }),
      decide(id, { intent: "request-changes", message: "Race again", confirm: "yes" }),
    ]);
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(2);
    const history = await db().select().from(registrationDecisions).where(eq(registrationDecisions.registrationId, id));
    expect(history).toHaveLength(1);
  });

  it("works for a buyer too: the buyer form pre-filled, contacts replaced", async () => {
    const { app } = context;
    const accessToken = await accessTokenThroughSteps(app, {
      organizationType: 2,
      mobileNumber: `+1403557${String(1000 + submitted).padStart(4, "0")}`,
      clientAddress: "10.9.0.1",
      name: "Dana",
      organizationName: "Foothills",
    });
    const [industry] = await db().select().from(industries).orderBy(asc(industries.id)).limit(1);
    const contact = (firstName: string) => ({
      first_name: firstName,
      last_name: "Smith",
      phone: "403-555-0100",
      email: `${firstName.toLowerCase()}@foothills-changes.example`,
    });
    const created = await createClient(app.baseURL).request("/api/registration/register_buyer", {
      json: {
        reg_access_token: accessToken,
        name: "Foothills Changes Ltd.",
        address: "400 4 Ave SW",
        city: "Calgary",
        state: "AB",
        country: "CA",
        postal_zip: "T2P 1J9",
        phone: "403-555-0100",
        email: "office@foothills-changes.example",
        primary_industry: industry?.id,
        serviceAreas: [],
        primaryContact: contact("Dana"),
        accountingContact: contact("Robin"),
        billing_preference: "Email Invoice",
      },
    });
    expect(created.status).toBe(201);
    const [row] = await db()
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, "office@foothills-changes.example"));
    const id = row?.id ?? 0;
    const token = await askForChanges(id, "dana@foothills-changes.example", "Please add an alternate contact.");
    const page = await (await createClient(app.baseURL).request(`/signup/registration-changes/${token}`)).text();
    expectIn(page, 'value="Foothills Changes Ltd."');
    expectIn(page, 'value="robin@foothills-changes.example"');
    const stored = await readStoredRegistration(db(), id);
    if (!stored) throw new Error("no stored registration");
    const resubmitted = await createClient(app.baseURL).request(`/signup/registration-changes/${token}`, {
      form: formBody(stored.values, {
        "alternateContact.first_name": "Alex",
        "alternateContact.last_name": "Jones",
        "alternateContact.phone": "403-555-0199",
        "alternateContact.email": "alex@foothills-changes.example",
      }),
    });
    expect(resubmitted.status).toBe(302);
    expect(resubmitted.headers.get("location")).toBe("/signup/buyer-registration-complete");
    const contacts = await db().select().from(registrationContacts).where(eq(registrationContacts.registrationId, id));
    expect(contacts.map((entry) => entry.role).sort()).toEqual(["accounting", "alternate", "primary"]);
  });
});
