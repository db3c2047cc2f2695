import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { readStoredRegistration } from "~/registration/changes/stored-registration.server";
import {
  organizationChanges,
  organizations,
  registrationContacts,
  registrations,
  registrationWcbs,
  sellerRegistrations,
  users,
} from "~db/schema";
import { formBody } from "../../../tests/support/form-body";
import { expectIn, expectNotIn } from "../../../tests/support/html";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { createClient } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// /account/organization (issue 8): an approved organization's administrator edits its profile with
// the registration form's sections; every save that changes something is recorded, field by field,
// for staff. Other users read it; nobody else reaches it. A browser without JavaScript, both databases.

describe.each(databaseKinds)("the organization profile on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let staff: ReturnType<typeof createClient>;
  let admin: ReturnType<typeof createClient>;
  let registrationId: number;
  let organizationId: number;

  beforeAll(async () => {
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
    const { db } = context.app.services;
    staff = createClient(context.app.baseURL);
    await staff.request("/login", { form: { email: "staff@example.com", password: "staff-password" } });
    const form = context.completeForm({
      name: "Profile Test Ltd.",
      email: "office@profile.example",
      "salesContact.email": "admin@profile.example",
      "salesContact.confirm_email": "admin@profile.example",
    });
    expect((await context.submit(await context.sellerToken(), form)).status).toBe(302);
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, "office@profile.example"));
    registrationId = registration?.id ?? 0;
    const approved = await staff.request(`/staff/registrations/${registrationId}`, {
      form: { intent: "approve", confirm: "yes" },
    });
    expect(approved.status).toBe(302);
    await db
      .update(users)
      .set({ passwordHash: await hashPassword("admin-password") })
      .where(eq(users.email, "admin@profile.example"));
    const [user] = await db.select().from(users).where(eq(users.email, "admin@profile.example"));
    organizationId = user?.organizationId ?? 0;
    admin = createClient(context.app.baseURL);
    expect(
      (await admin.request("/login", { form: { email: "admin@profile.example", password: "admin-password" } })).status,
    ).toBe(302);
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  const db = () => context.app.services.db;
  async function storedValues() {
    const stored = await readStoredRegistration(db(), registrationId);
    if (!stored) throw new Error("no stored registration");
    return stored.values;
  }
  const changeLog = () =>
    db().select().from(organizationChanges).where(eq(organizationChanges.organizationId, organizationId));

  it("shows the administrator the registration form's sections, pre-filled, without the card or feedback", async () => {
    const page = await admin.request("/account/organization");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [
      "Organization profile",
      'value="Profile Test Ltd."',
      'value="1234567"',
      'value="Big Rig Co"',
      "4.0 Insurance &amp; WCB",
      "7.0 Service Categories",
      "8.0 Key Personnel",
      "Save changes",
    ]) {
      expectIn(html, text);
    }
    expectNotIn(html, 'name="card_number"');
    expectNotIn(html, "9.0 Feedback");
    const account = await (await admin.request("/account")).text();
    for (const text of [
      'href="/account/organization"',
      "10 Industrial Way",
      "Sales contact",
      "admin@profile.example",
    ]) {
      expectIn(account, text);
    }
  });

  it("saves changes in place, renames the organization, and records each changed field for staff", async () => {
    const values = await storedValues();
    const saved = await admin.request("/account/organization", {
      form: formBody(values, {
        name: "Profile Test Renamed Ltd.",
        phone: "780-555-0199",
        "wcbs[0].number": "7654321",
        "salesContact.skills": "Well control and coiled tubing",
      }),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/account?done=profile-saved");
    expectIn(await (await admin.request("/account?done=profile-saved")).text(), "profile has been saved.");

    const [registration] = await db().select().from(registrations).where(eq(registrations.id, registrationId));
    expect(registration).toMatchObject({
      name: "Profile Test Renamed Ltd.",
      phone: "780-555-0199",
      status: "approved",
    });
    const [organization] = await db().select().from(organizations).where(eq(organizations.id, organizationId));
    expect(organization?.name).toBe("Profile Test Renamed Ltd.");
    const wcbs = await db().select().from(registrationWcbs).where(eq(registrationWcbs.registrationId, registrationId));
    expect(wcbs.map((wcb) => wcb.number)).toEqual(["7654321"]);
    const [seller] = await db()
      .select()
      .from(sellerRegistrations)
      .where(eq(sellerRegistrations.registrationId, registrationId));
    // The registration's feedback and the card stay as they were.
    expect(seller).toMatchObject({
      feedback: "Found you at a trade show",
      cardLast4: "4242",
      paymentStatus: "card_saved",
    });

    const [entry, ...more] = await changeLog();
    expect(more).toHaveLength(0);
    expect(entry?.subject).toBe("profile");
    const [user] = await db().select().from(users).where(eq(users.email, "admin@profile.example"));
    expect(entry?.userId).toBe(user?.id);
    expect(entry?.changes).toEqual([
      { field: "Organization name", before: "Profile Test Ltd.", after: "Profile Test Renamed Ltd." },
      { field: "Phone", before: "780-555-0100", after: "780-555-0199" },
      { field: "WCB 1, Number", before: "1234567", after: "7654321" },
      { field: "Sales contact, Skills summary", before: "Well control", after: "Well control and coiled tubing" },
    ]);

    const staffPage = await (await staff.request(`/staff/registrations/${registrationId}`)).text();
    for (const text of [
      "Changes by the organization",
      "Profile changed by admin@profile.example",
      "WCB 1, Number",
      "7654321",
      "Well control and coiled tubing",
    ]) {
      expectIn(staffPage, text);
    }
  });

  it("records nothing when the form is saved unchanged", async () => {
    const before = (await changeLog()).length;
    const saved = await admin.request("/account/organization", { form: formBody(await storedValues()) });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/account?done=profile-unchanged");
    expect(await changeLog()).toHaveLength(before);
  });

  it("keeps a document date on file that has since passed, but refuses a new past date", async () => {
    // The insurance expired yesterday: the organization can still change its phone number.
    const yesterday = new Date(Date.now() - 86_400_000 * 2).toISOString().slice(0, 10);
    await db()
      .update(sellerRegistrations)
      .set({ inCommercialGeneralExpiry: yesterday })
      .where(eq(sellerRegistrations.registrationId, registrationId));
    const values = await storedValues();
    const kept = await admin.request("/account/organization", { form: formBody(values, { fax: "780-555-0111" }) });
    expect(kept.status).toBe(302);
    const threeDaysAgo = new Date(Date.now() - 86_400_000 * 3).toISOString().slice(0, 10);
    const refused = await admin.request("/account/organization", {
      form: formBody(values, { in_third_party_automobile_expiry: threeDaysAgo }),
    });
    expect(refused.status).toBe(400);
    expectIn(await refused.text(), "Please choose a date from today onward");
  });

  it("answers a mistake at the field with what was typed kept, and changes nothing", async () => {
    const before = await storedValues();
    const logged = (await changeLog()).length;
    const refused = await admin.request("/account/organization", {
      form: formBody(before, { city: "Typed City", "salesContact.email": "not-an-email", postal_zip: "nope" }),
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expectIn(html, "Please ensure all required fields are filled in.");
    expectIn(html, 'value="Typed City"');
    expectIn(html, 'value="not-an-email"');
    expect(await storedValues()).toEqual(before);
    expect(await changeLog()).toHaveLength(logged);
    // Unknown ids (a tampered form) are answered at the field too, never with a 5xx.
    const tampered = await admin.request("/account/organization", {
      form: formBody(before, { services: "99999999", primary_industry: "99999" }),
    });
    expect(tampered.status).toBe(400);
  });

  it("lets other users of the organization read it but not change it; others get 403 or sign-in", async () => {
    const { db: database } = context.app.services;
    await database.insert(users).values({
      email: "member@profile.example",
      role: 3,
      organizationId,
      passwordHash: await hashPassword("member-password"),
    });
    const member = createClient(context.app.baseURL);
    await member.request("/login", { form: { email: "member@profile.example", password: "member-password" } });
    const page = await member.request("/account/organization");
    expect(page.status).toBe(200);
    const html = await page.text();
    expectIn(html, "administrator can change the profile.");
    expectIn(html, "7654321");
    expectNotIn(html, "Save changes");
    const before = await storedValues();
    const post = await member.request("/account/organization", { form: formBody(before, { city: "Hacked" }) });
    expect(post.status).toBe(403);
    expect(await storedValues()).toEqual(before);

    const visitor = await createClient(context.app.baseURL).request("/account/organization");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?ref=/account/organization");
    expect((await staff.request("/account/organization")).status).toBe(403);
    // A user of an organization without an approved registration has no profile to edit.
    const [other] = await database
      .insert(organizations)
      .values({ name: "Elsewhere", organizationType: 2 })
      .returning({ id: organizations.id });
    await database.insert(users).values({
      email: "buyer@elsewhere.example",
      role: 2,
      organizationId: other?.id,
      isOrganizationAdmin: true,
      passwordHash: await hashPassword("buyer-password"),
    });
    const buyer = createClient(context.app.baseURL);
    await buyer.request("/login", { form: { email: "buyer@elsewhere.example", password: "buyer-password" } });
    expect((await buyer.request("/account/organization")).status).toBe(404);
    expect((await buyer.request("/account/organization", { form: formBody(before) })).status).toBe(404);
    const contacts = await database
      .select()
      .from(registrationContacts)
      .where(eq(registrationContacts.registrationId, registrationId));
    expect(contacts.every((contact) => contact.email !== "Hacked")).toBe(true);
  });
});
