import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, outboxMessages, registrations, timezones, users } from "~db/schema";
import { expectIn } from "../../../tests/support/html";
import { startSellerFormApp } from "../../../tests/support/seller-form-app";
import { createClient } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { issueAccountToken } from "../account-tokens.server";
import { hashPassword } from "../password.server";
import { ensureStaffUser } from "../staff/staff.server";

// Issue 17: one link per purpose and person at a time. Issuing a link revokes the user's earlier
// unused links of that purpose; setting a password revokes all of them. A revoked link gets the
// spec's answer for an invalid link, on the pages and through /api/account/*.

const LINK_PROBLEM = "Please check the link and try again.";
const SET_PASSWORD_PROBLEM = "Problem setting your password, please try again.";

let nextUser = 0;

describe.each(databaseKinds)("link revocation on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let staff: ReturnType<typeof createClient>;
  let timezone: string;

  beforeAll(async () => {
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
    staff = createClient(context.app.baseURL);
    const signedIn = await staff.request("/login", {
      form: { email: "staff@example.com", password: "staff-password" },
    });
    expect(signedIn.status).toBe(302);
    const [zone] = await context.app.services.db.select().from(timezones).orderBy(asc(timezones.name)).limit(1);
    timezone = zone?.name ?? "";
    expect(timezone).not.toBe("");
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  const visitor = () => createClient(context.app.baseURL);

  /** A user in their own organization, with a password or (invited) without one. */
  async function createUser(options: { password?: string } = {}) {
    const { db } = context.app.services;
    nextUser += 1;
    const email = `links${nextUser}-${kind}@example.com`;
    const [organization] = await db
      .insert(organizations)
      .values({ name: `Link Drilling ${nextUser}`, organizationType: 2 })
      .returning();
    const [user] = await db
      .insert(users)
      .values({
        email,
        role: 2,
        organizationId: organization?.id,
        passwordHash: options.password ? await hashPassword(options.password) : null,
      })
      .returning();
    if (!user) throw new Error("no user");
    return { id: user.id, email };
  }

  /** The tokens of the links e-mailed to `email` to the page `page`, oldest first. */
  async function linksMailedTo(email: string, page: string): Promise<string[]> {
    const mails = await context.app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, email))
      .orderBy(asc(outboxMessages.id));
    const pattern = new RegExp(`${context.app.baseURL}/${page}/([A-Za-z0-9_-]{43})`);
    return mails.flatMap((mail) => {
      const match = pattern.exec(mail.text);
      return match?.[1] ? [match[1]] : [];
    });
  }

  const passwords = (password: string) => ({ newPassword: password, confirmPassword: password });

  /** The link's page answers as for an invalid link, and so does every /api/account call for it. */
  async function expectRefused(page: "reset-password" | "set-password" | "account-setup", token: string) {
    const shown = await visitor().request(`/${page}/${token}`);
    expect(shown.status).toBe(404);
    expectIn(await shown.text(), LINK_PROBLEM);
    const posted = await visitor().request(`/${page}/${token}`, {
      form: page === "account-setup" ? { ...passwords("sneaky-password"), timezone } : passwords("sneaky-password"),
    });
    expect(posted.status).toBe(404);
    expectIn(await posted.text(), SET_PASSWORD_PROBLEM);
    const verified = await visitor().request("/api/account/verify_password_reset_token", {
      json: { passwordResetToken: token },
    });
    expect(verified.status).toBe(404);
    expect(await verified.json()).toEqual({ errors: { form: LINK_PROBLEM } });
    const api =
      page === "account-setup"
        ? await visitor().request("/api/account/setup_account", {
            json: { passwordResetToken: token, newPassword: "sneaky-password", timezone },
          })
        : await visitor().request("/api/account/token_set_password", {
            json: { passwordResetToken: token, newPassword: "sneaky-password" },
          });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ errors: { form: LINK_PROBLEM } });
  }

  async function expectSignIn(email: string, password: string, status: number) {
    const answer = await visitor().request("/api/account/login", { json: { email, password } });
    expect(answer.status).toBe(status);
  }

  it("refuses an older reset link once a newer one is requested, and after the newer one is used", async () => {
    const user = await createUser({ password: "old-password" });
    for (let request = 0; request < 2; request += 1) {
      const sent = await visitor().request("/forgot-password", { form: { email: user.email } });
      expect(sent.status).toBe(302);
    }
    const [older, newer] = await linksMailedTo(user.email, "reset-password");
    if (!older || !newer) throw new Error("expected two reset e-mails");
    await expectRefused("reset-password", older);
    expect((await visitor().request(`/reset-password/${newer}`)).status).toBe(200);

    const used = await visitor().request(`/reset-password/${newer}`, { form: passwords("newer-password") });
    expect(used.status).toBe(302);
    expect(used.headers.get("location")).toBe("/reset-password/complete");
    await expectRefused("reset-password", older);
    await expectRefused("reset-password", newer);
    await expectSignIn(user.email, "newer-password", 200);
    await expectSignIn(user.email, "sneaky-password", 401);
  });

  it("refuses the first account-setup link once staff re-send it, and after the new one is used", async () => {
    const email = `resend-${kind}@review.example`;
    const token = await context.sellerToken();
    const form = context.completeForm({
      name: `Resend ${kind} Ltd.`,
      email: `office-resend-${kind}@review.example`,
      "salesContact.email": email,
      "salesContact.confirm_email": email,
    });
    expect((await context.submit(token, form)).status).toBe(302);
    const { db } = context.app.services;
    const [registration] = await db
      .select({ id: registrations.id })
      .from(registrations)
      .where(eq(registrations.email, `office-resend-${kind}@review.example`));
    const page = `/staff/registrations/${registration?.id}`;
    expect((await staff.request(page, { form: { intent: "approve", confirm: "yes" } })).status).toBe(302);
    const [first] = await linksMailedTo(email, "account-setup");
    if (!first) throw new Error("expected the approval e-mail");
    expect((await visitor().request(`/account-setup/${first}`)).status).toBe(200);

    const resent = await staff.request(page, { form: { intent: "resend" } });
    expect(resent.status).toBe(200);
    expectIn(await resent.text(), `A new account-setup link has been e-mailed to ${email}.`);
    const [, second] = await linksMailedTo(email, "account-setup");
    if (!second) throw new Error("expected the re-sent e-mail");
    await expectRefused("account-setup", first);

    const setUp = await visitor().request(`/account-setup/${second}`, {
      form: { ...passwords("setup-password"), timezone },
    });
    expect(setUp.status).toBe(302);
    await expectRefused("account-setup", first);
    await expectRefused("account-setup", second);
    await expectSignIn(email, "setup-password", 200);
    // Set up: staff have nothing more to send.
    expect((await staff.request(page, { form: { intent: "resend" } })).status).toBe(409);
  });

  it("refuses every other link of the user, of every purpose, once a password is set through a page", async () => {
    const user = await createUser();
    const { db } = context.app.services;
    const setPassword = await issueAccountToken(db, user.id, "set_password");
    const setup = await issueAccountToken(db, user.id, "account_setup");
    const reset = await issueAccountToken(db, user.id, "password_reset");
    const other = await createUser();
    const othersLink = await issueAccountToken(db, other.id, "set_password");

    const used = await visitor().request(`/reset-password/${reset}`, { form: passwords("chosen-password") });
    expect(used.status).toBe(302);
    await expectRefused("set-password", setPassword);
    await expectRefused("account-setup", setup);
    await expectSignIn(user.email, "chosen-password", 200);
    // Another user's links are theirs; and a link issued after the password was set works.
    expect((await visitor().request(`/set-password/${othersLink}`)).status).toBe(200);
    const later = await issueAccountToken(db, user.id, "password_reset");
    expect((await visitor().request(`/reset-password/${later}`)).status).toBe(200);
  });

  it("refuses every other link once a password is set through /api/account/setup_account", async () => {
    const user = await createUser();
    const { db } = context.app.services;
    const setup = await issueAccountToken(db, user.id, "account_setup");
    const setPassword = await issueAccountToken(db, user.id, "set_password");
    const reset = await issueAccountToken(db, user.id, "password_reset");

    const done = await visitor().request("/api/account/setup_account", {
      json: { passwordResetToken: setup, newPassword: "api-password", timezone },
    });
    expect(done.status).toBe(200);
    await expectRefused("reset-password", reset);
    await expectRefused("set-password", setPassword);
    await expectRefused("account-setup", setup);
    await expectSignIn(user.email, "api-password", 200);
  });

  it("refuses every other link once a password is set through /api/account/token_set_password", async () => {
    const user = await createUser({ password: "old-password" });
    const { db } = context.app.services;
    const setup = await issueAccountToken(db, user.id, "account_setup");
    const olderReset = await issueAccountToken(db, user.id, "password_reset");
    const reset = await issueAccountToken(db, user.id, "password_reset");
    await expectRefused("reset-password", olderReset);

    const done = await visitor().request("/api/account/token_set_password", {
      json: { passwordResetToken: reset, newPassword: "api-password" },
    });
    expect(done.status).toBe(200);
    await expectRefused("account-setup", setup);
    await expectRefused("reset-password", reset);
    await expectSignIn(user.email, "api-password", 200);
  });

  it("refuses the user's links once staff:create sets the password", async () => {
    const { db } = context.app.services;
    const id = await ensureStaffUser(db, `ops-${kind}@example.com`, "first-password");
    const reset = await issueAccountToken(db, id, "password_reset");
    await ensureStaffUser(db, `ops-${kind}@example.com`, "second-password");
    await expectRefused("reset-password", reset);
  });

  it("of a re-send and a use at the same moment, leaves at most the re-sent link usable", async () => {
    const user = await createUser();
    const { db } = context.app.services;
    const first = await issueAccountToken(db, user.id, "set_password");
    const [used, second] = await Promise.all([
      visitor().request("/api/account/token_set_password", {
        json: { passwordResetToken: first, newPassword: "raced-password" },
      }),
      issueAccountToken(db, user.id, "set_password"),
    ]);
    const verified = await visitor().request("/api/account/verify_password_reset_token", {
      json: { passwordResetToken: second },
    });
    // Either the use came first (then the re-sent link is newer than the password and works) or the
    // re-send did (then the first link was revoked and the use refused); never a 5xx.
    expect([200, 404]).toContain(used.status);
    expect(verified.status).toBe(200);
    await expectRefused("set-password", first);
  });
});
