import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, organizations, outboxMessages, users } from "~db/schema";
import { expectIn } from "../../tests/support/html";
import { createClient, hasBuild, startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { hashPassword } from "./password.server";

// /account/users (issue 8): the organization's administrator invites users by e-mail and removes
// them; other users see the list only; nobody reaches another organization's users.

describe.runIf(hasBuild).each(databaseKinds)("an organization's users on %s", (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof createClient>;
  let member: ReturnType<typeof createClient>;
  let outsiderId: number;

  async function signedIn(email: string) {
    const client = createClient(app.baseURL);
    const response = await client.request("/login", { form: { email, password: "member-password" } });
    expect(response.status).toBe(302);
    return client;
  }

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    const passwordHash = await hashPassword("member-password");
    const [organization] = await db
      .insert(organizations)
      .values({ name: "Roughneck Services Ltd.", organizationType: 3 })
      .returning();
    const [other] = await db.insert(organizations).values({ name: "Other Ltd.", organizationType: 2 }).returning();
    await db.insert(users).values([
      {
        email: "admin@roughneck.example",
        role: 3,
        organizationId: organization?.id,
        passwordHash,
        isOrganizationAdmin: true,
      },
      { email: "member@roughneck.example", role: 3, organizationId: organization?.id, passwordHash },
    ]);
    const [outsider] = await db
      .insert(users)
      .values({ email: "outsider@other.example", role: 2, organizationId: other?.id, passwordHash })
      .returning();
    outsiderId = outsider?.id ?? 0;
    admin = await signedIn("admin@roughneck.example");
    member = await signedIn("member@roughneck.example");
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("lists the organization's users, and only they", async () => {
    const page = await member.request("/account/users");
    expect(page.status).toBe(200);
    const html = await page.text();
    expectIn(html, "admin@roughneck.example");
    expectIn(html, "member@roughneck.example");
    expect(html.includes("outsider@other.example")).toBe(false);
    expectIn(html, "Your organization&#x27;s administrator can invite and remove users.");
  });

  it("lets the administrator invite a user, who is e-mailed a 7-day set-password link", async () => {
    const invited = await admin.request("/account/users", {
      form: { intent: "invite", email: "New.Hire@Roughneck.example", firstName: "Nia", lastName: "Hire" },
    });
    expect(invited.status).toBe(302);
    expect(invited.headers.get("location")).toBe("/account/users?done=invited");
    const { db } = app.services;
    const [user] = await db.select().from(users).where(eq(users.email, "new.hire@roughneck.example"));
    expect(user).toMatchObject({ role: 3, passwordHash: null, isOrganizationAdmin: false });
    const [token] = await db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.userId, user?.id ?? 0));
    expect(token?.purpose).toBe("set_password");
    const [mail] = await db.select().from(outboxMessages).where(eq(outboxMessages.to, "new.hire@roughneck.example"));
    expect(mail?.text).toMatch(new RegExp(`${app.baseURL}/set-password/[A-Za-z0-9_-]{43}`));
    expectIn(await (await admin.request("/account/users")).text(), "Invited");
  });

  it("answers a bad invitation at its field, keeping what was typed, and creates nobody", async () => {
    const empty = await admin.request("/account/users", {
      form: { intent: "invite", email: "not-an-email", firstName: "Typed", lastName: "" },
    });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    expectIn(html, 'href="#invite-email"');
    expectIn(html, "Please enter a last name");
    expectIn(html, 'value="Typed"');
  });

  // Issue 17 changed this: an address that has an account used to get 409 "Someone already has an
  // account with this email address", which told any administrator who has an account.
  it("answers an invitation to an address with an account as any other, and tells that account's owner", async () => {
    const { db } = app.services;
    const before = await db.select().from(users);
    const [outsider] = await db.select().from(users).where(eq(users.id, outsiderId));
    const answers = [];
    for (const email of ["Outsider@Other.example", "brand.new@roughneck.example"]) {
      const response = await admin.request("/account/users", {
        form: { intent: "invite", email, firstName: "A", lastName: "B" },
      });
      answers.push({
        status: response.status,
        location: response.headers.get("location"),
        body: await response.text(),
        cookie: response.headers.get("set-cookie"),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(302);
    expect(answers[0]?.location).toBe("/account/users?done=invited");

    // Nothing written for the existing account: same row, no link; only the new address was added.
    expect((await db.select().from(users)).length).toBe(before.length + 1);
    expect((await db.select().from(users).where(eq(users.id, outsiderId)))[0]).toEqual(outsider);
    expect(await db.select().from(accountTokens).where(eq(accountTokens.userId, outsiderId))).toHaveLength(0);
    const [mail, ...more] = await db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, "outsider@other.example"));
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe("Someone at Roughneck Services Ltd. tried to add you");
    expect(mail?.text).toContain("tried to add this e-mail address as a user of their account");
    expect(mail?.text).toContain("You already have an Upstream Marketplace account with this address");
    expect(mail?.text).toContain(`${app.baseURL}/forgot-password`);
    expect(mail?.text).not.toMatch(/set-password|account-setup|reset-password/);

    const notice = await (await admin.request("/account/users?done=invited")).text();
    expectIn(notice, "Invitation sent");
    expectIn(notice, "If they already have an account, we have told them so instead.");
  });

  it("lets the administrator remove a user after a confirmation, never themself nor another organization's", async () => {
    const { db } = app.services;
    const [target] = await db.select().from(users).where(eq(users.email, "new.hire@roughneck.example"));
    const asked = await admin.request("/account/users", { form: { intent: "remove", userId: String(target?.id) } });
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "Remove new.hire@roughneck.example?");
    const removed = await admin.request("/account/users", {
      form: { intent: "remove", userId: String(target?.id), confirm: "yes" },
    });
    expect(removed.status).toBe(302);
    expect(await db.select().from(users).where(eq(users.email, "new.hire@roughneck.example"))).toHaveLength(0);

    const [self] = await db.select().from(users).where(eq(users.email, "admin@roughneck.example"));
    expect(
      (await admin.request("/account/users", { form: { intent: "remove", userId: String(self?.id), confirm: "yes" } }))
        .status,
    ).toBe(409);
    expect(
      (
        await admin.request("/account/users", {
          form: { intent: "remove", userId: String(outsiderId), confirm: "yes" },
        })
      ).status,
    ).toBe(404);
    expect(await db.select().from(users).where(eq(users.id, outsiderId))).toHaveLength(1);
  });

  it("signs a removed user out at once", async () => {
    const { db } = app.services;
    const [organization] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.name, "Roughneck Services Ltd."));
    const [leaving] = await db
      .insert(users)
      .values({
        email: "leaving@roughneck.example",
        role: 3,
        organizationId: organization?.id,
        passwordHash: await hashPassword("member-password"),
      })
      .returning();
    const leaver = await signedIn("leaving@roughneck.example");
    expect((await leaver.request("/account")).status).toBe(200);
    const removed = await admin.request("/account/users", {
      form: { intent: "remove", userId: String(leaving?.id), confirm: "yes" },
    });
    expect(removed.status).toBe(302);
    await expect.poll(async () => (await leaver.request("/account")).status, { timeout: 2_000 }).toBe(302);
  });

  it("refuses other users' changes, visitors and staff", async () => {
    const before = await app.services.db.select().from(users);
    const posted = await member.request("/account/users", {
      form: { intent: "invite", email: "sneaky@roughneck.example", firstName: "S", lastName: "N" },
    });
    expect(posted.status).toBe(403);
    expect(await app.services.db.select().from(users)).toHaveLength(before.length);
    const visitor = await createClient(app.baseURL).request("/account/users");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe("/login?ref=/account/users");
  });
});
