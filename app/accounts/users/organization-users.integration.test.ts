import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, organizationInvitations, organizations, outboxMessages, sessions, users } from "~db/schema";
import { expectIn } from "../../../tests/support/html";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { hashPassword } from "../password.server";

// /account/users (issue 8): the organization's administrator invites users by e-mail and removes
// them; other users see the list only; nobody reaches another organization's users.

describe.each(databaseKinds)("an organization's users on %s", (kind) => {
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

  // Issue 17 changed this: the list names what to remove by its address, and an invited user who has
  // not set up is removed through their invitation, not by their id (which would tell the
  // administrator that the invitation made a user, so that the address had no account).
  it("lets the administrator remove a user after a confirmation, never themself nor another organization's", async () => {
    const { db } = app.services;
    const [target] = await db.select().from(users).where(eq(users.email, "new.hire@roughneck.example"));
    const byId = await admin.request("/account/users", { form: { intent: "remove", userId: String(target?.id) } });
    expect(byId.status).toBe(404);
    const asked = await admin.request("/account/users", {
      form: { intent: "remove", email: "new.hire@roughneck.example" },
    });
    expect(asked.status).toBe(200);
    expectIn(await asked.text(), "Remove new.hire@roughneck.example?");
    const removed = await admin.request("/account/users", {
      form: { intent: "remove", email: "new.hire@roughneck.example", confirm: "yes" },
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

// Issue 17: after "Invitation sent", the page must not tell the administrator whether the address
// already had an account. Both are listed as "Invited" and removed alike; the account is untouched.
describe.each(databaseKinds)("invitations that do not tell who has an account on %s", (kind) => {
  let app: TestApp;
  let admin: ReturnType<typeof createClient>;
  let organizationId: number;
  let adminId: number;
  let existingId: number;
  const NEW = { email: "Fresh.Quillfeather@Wildcat.example", firstName: "Freya", lastName: "Quillfeather" };
  const EXISTING = { email: "Existing.Stonebridge@Elsewhere.example", firstName: "Ezra", lastName: "Stonebridge" };

  beforeAll(async () => {
    app = await startTestApp(kind);
    const { db } = app.services;
    const passwordHash = await hashPassword("member-password");
    const [organization] = await db
      .insert(organizations)
      .values({ name: "Wildcat Drilling Ltd.", organizationType: 3 })
      .returning();
    const [elsewhere] = await db
      .insert(organizations)
      .values({ name: "Elsewhere Ltd.", organizationType: 2 })
      .returning();
    organizationId = organization?.id ?? 0;
    const [adminRow] = await db
      .insert(users)
      .values({ email: "admin@wildcat.example", role: 3, organizationId, passwordHash, isOrganizationAdmin: true })
      .returning();
    adminId = adminRow?.id ?? 0;
    const [existing] = await db
      .insert(users)
      .values({
        email: EXISTING.email.toLowerCase(),
        role: 2,
        organizationId: elsewhere?.id,
        passwordHash,
        firstName: "Original",
        lastName: "Owner",
      })
      .returning();
    existingId = existing?.id ?? 0;
    admin = createClient(app.baseURL);
    const login = await admin.request("/login", {
      form: { email: "admin@wildcat.example", password: "member-password" },
    });
    expect(login.status).toBe(302);
    // The existing account is signed in somewhere: an invitation must neither end nor add a session.
    const owner = createClient(app.baseURL);
    const ownerLogin = await owner.request("/login", {
      form: { email: EXISTING.email.toLowerCase(), password: "member-password" },
    });
    expect(ownerLogin.status).toBe(302);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A page with what was typed for the invitation replaced by placeholders. */
  function normalized(html: string, typed: typeof NEW) {
    return html
      .replaceAll(/nonce="[^"]*"/g, 'nonce="NONCE"') // the CSP nonce differs on every request
      .replaceAll(typed.email.toLowerCase(), "EMAIL")
      .replaceAll(typed.firstName, "FIRST")
      .replaceAll(typed.lastName, "LAST");
  }

  async function pageAfter(path: string, typed: typeof NEW) {
    const response = await admin.request(path);
    expect(response.status).toBe(200);
    return normalized(await response.text(), typed);
  }

  async function invite(typed: typeof NEW) {
    const response = await admin.request("/account/users", { form: { intent: "invite", ...typed } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/account/users?done=invited");
  }

  /** Removes through the list's own form: the button, then the confirmation. */
  async function removeFromList(typed: typeof NEW) {
    const email = typed.email.toLowerCase();
    const list = await (await admin.request("/account/users")).text();
    expectIn(list, `<input type="hidden" name="email" value="${email}"/>`);
    const asked = await admin.request("/account/users", { form: { intent: "remove", email } });
    expect(asked.status).toBe(200);
    const confirmation = normalized(await asked.text(), typed);
    const removed = await admin.request("/account/users", { form: { intent: "remove", email, confirm: "yes" } });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("location")).toBe("/account/users?done=removed");
    return confirmation;
  }

  async function existingAccountState() {
    const { db } = app.services;
    return {
      user: (await db.select().from(users).where(eq(users.id, existingId)))[0],
      sessions: (await db.select().from(sessions).where(eq(sessions.userId, existingId))).map((row) => row.idHash),
      links: await db.select().from(accountTokens).where(eq(accountTokens.userId, existingId)),
    };
  }

  it("shows the same page after inviting a new address and an address that has an account, and removes both alike", async () => {
    const { db } = app.services;
    const accountBefore = await existingAccountState();
    const usersBefore = await db.select().from(users);

    await invite(NEW);
    const newInvited = await pageAfter("/account/users?done=invited", NEW);
    expectIn(newInvited, "<td>EMAIL</td><td>Invited</td>");
    expectIn(newInvited, "Invitation sent");
    const newConfirmation = await removeFromList(NEW);
    const newRemoved = await pageAfter("/account/users?done=removed", NEW);
    expect(await db.select().from(users)).toEqual(usersBefore); // the not-yet-set-up user went too
    expect(await db.select().from(organizationInvitations)).toHaveLength(0);

    await invite(EXISTING);
    const existingInvited = await pageAfter("/account/users?done=invited", EXISTING);
    expect(existingInvited).toBe(newInvited);
    const existingConfirmation = await removeFromList(EXISTING);
    expect(existingConfirmation).toBe(newConfirmation);
    const existingRemoved = await pageAfter("/account/users?done=removed", EXISTING);
    expect(existingRemoved).toBe(newRemoved);
    expect(await db.select().from(organizationInvitations)).toHaveLength(0);

    // The existing account: same row (organization, names, password), same sessions, no link.
    expect(await existingAccountState()).toEqual(accountBefore);
    expect(accountBefore.links).toHaveLength(0);
    expect(accountBefore.sessions).toHaveLength(1);
  });

  it("keeps one invitation per address when it is invited again, in any case, and gives a new address a fresh link", async () => {
    const { db } = app.services;
    const accountBefore = await existingAccountState();
    for (const typed of [NEW, EXISTING]) {
      await invite(typed);
      await invite({ ...typed, email: typed.email.toUpperCase(), firstName: "Renamed" });
    }
    const invitations = await db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.organizationId, organizationId))
      .orderBy(organizationInvitations.id);
    expect(invitations.map((row) => [row.email, row.firstName, row.invitedBy])).toEqual([
      [NEW.email.toLowerCase(), "Renamed", adminId],
      [EXISTING.email.toLowerCase(), "Renamed", adminId],
    ]);
    expect(invitations[1]?.userId).toBeNull();
    const [newUser, ...others] = await db.select().from(users).where(eq(users.email, NEW.email.toLowerCase()));
    expect(others).toHaveLength(0);
    expect(newUser).toMatchObject({ organizationId, firstName: "Renamed", passwordHash: null });
    expect(invitations[0]?.userId).toBe(newUser?.id);
    // The second invitation's link replaced the first one's.
    expect(
      await db
        .select()
        .from(accountTokens)
        .where(and(eq(accountTokens.userId, newUser?.id ?? 0), eq(accountTokens.purpose, "set_password"))),
    ).toHaveLength(1);
    expect(await existingAccountState()).toEqual(accountBefore);
    const list = await (await admin.request("/account/users")).text();
    expect(list.split("<td>Invited</td>")).toHaveLength(3);
  });

  it("does not let the administrator reach an invited user by id", async () => {
    const { db } = app.services;
    const [newUser] = await db.select().from(users).where(eq(users.email, NEW.email.toLowerCase()));
    const attempts: Record<string, string>[] = [
      { intent: "remove", userId: String(newUser?.id) },
      { intent: "remove", userId: String(newUser?.id), confirm: "yes" },
    ];
    for (const form of attempts) {
      const response = await admin.request("/account/users", { form });
      expect(response.status).toBe(404);
      expectIn(await response.text(), "That user is not in your organization.");
    }
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.id, newUser?.id ?? 0)),
    ).toHaveLength(1);
  });

  it("makes an invited user who sets their password a member, and their invitation is gone", async () => {
    const { db } = app.services;
    const [mail] = await db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, NEW.email.toLowerCase()))
      .orderBy(outboxMessages.id)
      .then((rows) => rows.slice(-1));
    const token = mail?.text.match(/set-password\/([A-Za-z0-9_-]{43})/)?.[1];
    const form = { newPassword: "invited-password", confirmPassword: "invited-password" };
    const set = await createClient(app.baseURL).request(`/set-password/${token}`, { form });
    expect(set.headers.get("location")).toBe("/set-password/complete");
    expect(
      await db.select().from(organizationInvitations).where(eq(organizationInvitations.email, NEW.email.toLowerCase())),
    ).toHaveLength(0);
    const list = await (await admin.request("/account/users")).text();
    expectIn(list, `<td>${NEW.email.toLowerCase()}</td><td>Active</td>`);
    // The invitation to the existing account is still pending, and still gives it nothing.
    expectIn(list, `<td>${EXISTING.email.toLowerCase()}</td><td>Invited</td>`);
    const [existing] = await db.select().from(users).where(eq(users.id, existingId));
    expect(existing?.organizationId).not.toBe(organizationId);
  });

  it("records nothing and e-mails nobody when the administrator invites their own address", async () => {
    const { db } = app.services;
    const invitationsBefore = await db.select().from(organizationInvitations);
    const mailsBefore = await db.select().from(outboxMessages);
    await invite({ email: "Admin@Wildcat.example", firstName: "Me", lastName: "Myself" });
    expect(await db.select().from(organizationInvitations)).toEqual(invitationsBefore);
    expect(await db.select().from(outboxMessages)).toEqual(mailsBefore);
    const [self] = await db.select().from(users).where(eq(users.id, adminId));
    expect(self?.firstName).toBeNull();
  });
});
