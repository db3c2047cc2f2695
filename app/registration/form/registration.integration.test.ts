import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "~/shared/secret-tokens.server";
import { outboxMessages, registrationAccessTokens, registrationCodeSends, registrationRequests } from "~db/schema";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

const INVALID_CODE = "Invalid access code. Please check the code and try again.";
const INVALID_TOKEN = "Invalid access token.";

let nextNumber = 100;

/** A fresh North American number per test (the send limits are per number), and a client address for it. */
function newApplicant() {
  nextNumber += 1;
  const line = String(nextNumber).padStart(4, "0");
  return {
    typed: `780-555-${line}`,
    e164: `+1780555${line}`,
    headers: { "x-forwarded-for": `10.0.${Math.floor(nextNumber / 250)}.${nextNumber % 250}` },
  };
}

describe.each(databaseKinds)("registration steps 1-4 on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, BEHIND_ONE_PROXY);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
    createClient(app.baseURL).request(path, { json, headers });

  async function lastCodeSentTo(e164: string): Promise<string> {
    const [message] = await app.services.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.channel, "sms"), eq(outboxMessages.to, e164)))
      .orderBy(desc(outboxMessages.id))
      .limit(1);
    const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
    if (!code) throw new Error(`no code sent to ${e164}`);
    return code;
  }

  /** Pretends the number's earlier sends happened a minute (or more) ago. */
  async function ageSends(e164: string, seconds = 61) {
    await app.services.db
      .update(registrationCodeSends)
      .set({ sentAt: sql`${registrationCodeSends.sentAt} - make_interval(secs => ${seconds})` })
      .where(eq(registrationCodeSends.mobileNumber, e164));
  }

  async function requestCode(applicant: ReturnType<typeof newApplicant>, organizationType: number | string = 4) {
    return post(
      "/api/registration/request_code",
      { name: "Dana Smith", organizationName: "Foothills Consulting", organizationType, mobileNumber: applicant.typed },
      applicant.headers,
    );
  }

  async function verifiedToken(organizationType = 2): Promise<string> {
    const applicant = newApplicant();
    expect((await requestCode(applicant, organizationType)).status).toBe(200);
    const response = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: await lastCodeSentTo(applicant.e164),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { accessToken: string }).accessToken;
  }

  it("runs steps 1 to 4 over the API in JSON", async () => {
    const applicant = newApplicant();
    const requested = await requestCode(applicant, 4);
    expect(requested.status).toBe(200);
    expect(await requested.json()).toEqual({ mobileNumber: applicant.e164 });

    const code = await lastCodeSentTo(applicant.e164);
    const [row] = await app.services.db
      .select()
      .from(registrationRequests)
      .where(eq(registrationRequests.mobileNumber, applicant.e164));
    expect(row).toMatchObject({ name: "Dana Smith", organizationName: "Foothills Consulting", organizationType: 4 });
    expect(row?.attemptsLeft).toBe(5);
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toContain(code);
    const lifetime = (row?.codeExpiresAt.getTime() ?? 0) - (row?.lastCodeSentAt.getTime() ?? 0);
    expect(lifetime).toBe(10 * 60 * 1000);

    const wrong = await post("/api/registration/verify_code", {
      mobileNumber: applicant.typed,
      verificationCode: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ errors: { form: INVALID_CODE } });

    const verified = await post("/api/registration/verify_code", {
      mobileNumber: applicant.typed,
      verificationCode: code,
    });
    expect(verified.status).toBe(200);
    const { accessToken } = (await verified.json()) as { accessToken: string };
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [tokenRow] = await app.services.db
      .select()
      .from(registrationAccessTokens)
      .where(eq(registrationAccessTokens.registrationRequestId, row?.id ?? 0));
    expect(tokenRow?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenRow?.tokenHash).not.toContain(accessToken);

    // The code works once.
    const again = await post("/api/registration/verify_code", { mobileNumber: applicant.e164, verificationCode: code });
    expect(again.status).toBe(400);

    const state = await post("/api/registration/verify_access_token", { accessToken });
    expect(await state.json()).toEqual({
      valid: true,
      organizationType: 4,
      privacyPolicyAccepted: false,
      termsAccepted: false,
    });

    // Steps cannot be skipped.
    const termsFirst = await post("/api/registration/accept_terms_and_conditions", { accessToken });
    expect(termsFirst.status).toBe(409);
    expect(await termsFirst.json()).toEqual({ errors: { form: INVALID_TOKEN } });

    const privacy = await post("/api/registration/accept_privacy_policy", { accessToken });
    expect(privacy.status).toBe(200);
    expect(await privacy.json()).toEqual({ accepted: true, version: "2026-11-01" });

    const terms = await post("/api/registration/accept_terms_and_conditions", { accessToken });
    expect(terms.status).toBe(200);
    expect(await terms.json()).toMatchObject({ organizationType: 4 });

    const [accepted] = await app.services.db
      .select()
      .from(registrationAccessTokens)
      .where(eq(registrationAccessTokens.id, tokenRow?.id ?? 0));
    expect(accepted?.privacyPolicyVersion).toBe("2026-11-01");
    expect(accepted?.termsVersion).toBe("2026-11-01");
    expect(accepted?.privacyPolicyAcceptedAt).toBeInstanceOf(Date);
    expect(accepted?.termsAcceptedAt?.getTime()).toBeGreaterThanOrEqual(
      accepted?.privacyPolicyAcceptedAt?.getTime() ?? 0,
    );
    const after = await post("/api/registration/verify_access_token", { accessToken });
    expect(await after.json()).toMatchObject({ privacyPolicyAccepted: true, termsAccepted: true });
  });

  it("accepts form-encoded requests and string organization types", async () => {
    const applicant = newApplicant();
    const response = await createClient(app.baseURL).request("/api/registration/request_code", {
      form: { name: "Lee", organizationName: "Prairie Drilling", organizationType: "3", mobileNumber: applicant.typed },
      headers: applicant.headers,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ mobileNumber: applicant.e164 });
  });

  it("answers bad requests with field errors and the spec's message, writing nothing", async () => {
    const before = await app.services.db.select({ id: registrationRequests.id }).from(registrationRequests);
    const empty = await post("/api/registration/request_code", {});
    expect(empty.status).toBe(400);
    const emptyErrors = ((await empty.json()) as { errors: Record<string, string> }).errors;
    expect(Object.keys(emptyErrors).sort()).toEqual(["mobileNumber", "name", "organizationName", "organizationType"]);

    const badNumber = await post("/api/registration/request_code", {
      name: "Lee",
      organizationName: "Prairie Drilling",
      organizationType: 2,
      mobileNumber: "555-1234",
    });
    expect(badNumber.status).toBe(400);
    expect(await badNumber.json()).toEqual({
      errors: { mobileNumber: "Please enter a valid mobile number, for example 780-555-1234" },
    });

    const badType = await post("/api/registration/request_code", {
      name: "Lee",
      organizationName: "Prairie Drilling",
      organizationType: 1,
      mobileNumber: "780-555-0001",
    });
    expect(badType.status).toBe(400);
    expect(await badType.json()).toEqual({
      errors: {
        organizationType: "Please select an organization type",
        form: "Failed to send access code. Please check your mobile number and try again.",
      },
    });
    const afterRows = await app.services.db.select({ id: registrationRequests.id }).from(registrationRequests);
    expect(afterRows).toHaveLength(before.length);

    const noCode = await post("/api/registration/verify_code", { mobileNumber: "780-555-0001" });
    expect(noCode.status).toBe(400);
    expect(await noCode.json()).toEqual({ errors: { verificationCode: "Please enter the verification code" } });
    const unknownNumber = await post("/api/registration/verify_code", {
      mobileNumber: "780-555-0002",
      verificationCode: "123456",
    });
    expect(unknownNumber.status).toBe(400);
    expect(await unknownNumber.json()).toEqual({ errors: { form: INVALID_CODE } });
  });

  it("expires codes after 10 minutes", async () => {
    const applicant = newApplicant();
    await requestCode(applicant);
    const code = await lastCodeSentTo(applicant.e164);
    await app.services.db
      .update(registrationRequests)
      .set({ codeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(registrationRequests.mobileNumber, applicant.e164));
    const response = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: code,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: { form: INVALID_CODE } });
  });

  it("allows 5 tries per code; a new code brings 5 more", async () => {
    const applicant = newApplicant();
    await requestCode(applicant);
    const code = await lastCodeSentTo(applicant.e164);
    const wrongCode = code === "999999" ? "888888" : "999999";
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await post("/api/registration/verify_code", {
        mobileNumber: applicant.e164,
        verificationCode: wrongCode,
      });
      expect(wrong.status).toBe(400);
    }
    const tooLate = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: code,
    });
    expect(tooLate.status).toBe(400);
    expect(await tooLate.json()).toEqual({ errors: { form: INVALID_CODE } });

    // The page's resend (a plain form POST, no JavaScript needed) sends a new code.
    await ageSends(applicant.e164);
    const resend = await createClient(app.baseURL).request(`/signup/verify-access-code/${applicant.e164}`, {
      form: { intent: "resend" },
      headers: applicant.headers,
    });
    expect(resend.status).toBe(302);
    expect(resend.headers.get("location")).toBe(
      `/signup/verify-access-code/${encodeURIComponent(applicant.e164)}?done=resent`,
    );
    const newCode = await lastCodeSentTo(applicant.e164);
    const [row] = await app.services.db
      .select()
      .from(registrationRequests)
      .where(eq(registrationRequests.mobileNumber, applicant.e164));
    expect(row?.codesSent).toBe(2);
    expect(row?.attemptsLeft).toBe(5);
    const verified = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: Number(newCode),
    });
    expect(verified.status).toBe(200);
  });

  it("sends at most one code a minute and 5 an hour per number", async () => {
    const applicant = newApplicant();
    expect((await requestCode(applicant)).status).toBe(200);
    const tooSoon = await requestCode(applicant);
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get("retry-after"))).toBeGreaterThan(0);
    const tooSoonBody = (await tooSoon.json()) as { errors: Record<string, string> };
    expect(tooSoonBody.errors.mobileNumber).toMatch(/less than a minute ago/);

    const resendTooSoon = await createClient(app.baseURL).request(`/signup/verify-access-code/${applicant.e164}`, {
      form: { intent: "resend" },
      headers: applicant.headers,
    });
    expect(resendTooSoon.status).toBe(429);
    expect(await resendTooSoon.text()).toContain("less than a minute ago");

    for (let send = 2; send <= 5; send += 1) {
      await ageSends(applicant.e164);
      expect((await requestCode(applicant)).status).toBe(200);
    }
    await ageSends(applicant.e164);
    const sixth = await requestCode(applicant);
    expect(sixth.status).toBe(429);
    expect(((await sixth.json()) as { errors: Record<string, string> }).errors.mobileNumber).toMatch(
      /Too many codes have been sent to this number/,
    );
    const sends = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, applicant.e164));
    expect(sends).toHaveLength(5);

    // An hour later the number may have codes again.
    await ageSends(applicant.e164, 60 * 60);
    expect((await requestCode(applicant)).status).toBe(200);
  });

  it("counts only the latest request of a number", async () => {
    const applicant = newApplicant();
    await requestCode(applicant);
    const firstCode = await lastCodeSentTo(applicant.e164);
    await ageSends(applicant.e164);
    await requestCode(applicant, 2);
    const secondCode = await lastCodeSentTo(applicant.e164);
    if (firstCode !== secondCode) {
      const stale = await post("/api/registration/verify_code", {
        mobileNumber: applicant.e164,
        verificationCode: firstCode,
      });
      expect(stale.status).toBe(400);
    }
    const fresh = await post("/api/registration/verify_code", {
      mobileNumber: applicant.e164,
      verificationCode: secondCode,
    });
    const { accessToken } = (await fresh.json()) as { accessToken: string };
    const state = await post("/api/registration/verify_access_token", { accessToken });
    expect(await state.json()).toMatchObject({ organizationType: 2 });
  });

  it("of simultaneous verifications with the right code, exactly one gets a token", async () => {
    const applicant = newApplicant();
    await requestCode(applicant);
    const code = await lastCodeSentTo(applicant.e164);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        post("/api/registration/verify_code", { mobileNumber: applicant.e164, verificationCode: code }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400]);
  });

  it("refuses unknown, tampered, expired and spent access tokens", async () => {
    const token = await verifiedToken();
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const accessToken of [tampered, "x", "../../etc/passwd"]) {
      for (const call of ["verify_access_token", "accept_privacy_policy", "accept_terms_and_conditions"]) {
        const response = await post(`/api/registration/${call}`, { accessToken });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ errors: { form: INVALID_TOKEN } });
      }
    }
    const missing = await post("/api/registration/verify_access_token", {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ errors: { accessToken: INVALID_TOKEN } });

    const { db } = app.services;
    const expired = await verifiedToken();
    await db
      .update(registrationAccessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(registrationAccessTokens.tokenHash, hashToken(expired)));
    const spent = await verifiedToken();
    await db
      .update(registrationAccessTokens)
      .set({ usedAt: new Date() })
      .where(eq(registrationAccessTokens.tokenHash, hashToken(spent)));
    for (const accessToken of [expired, spent]) {
      expect((await post("/api/registration/verify_access_token", { accessToken })).status).toBe(404);
      expect((await post("/api/registration/accept_privacy_policy", { accessToken })).status).toBe(404);
      const page = await fetch(`${app.baseURL}/signup/accept-privacy-policy/${accessToken}`);
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain(INVALID_TOKEN);
      expect(html).not.toContain(">Agree<");
    }
  });

  it("walks steps 1 to 4 through the HTML forms, as a browser without JavaScript does", async () => {
    const applicant = newApplicant();
    const browser = createClient(app.baseURL);
    const signupPage = await browser.request("/signup?type=consultant");
    expect(signupPage.status).toBe(200);
    expect(await signupPage.text()).toMatch(/<option value="4" selected="">/);

    const invalid = await browser.request("/signup", {
      form: { name: "", organizationName: "Foothills", organizationType: "4", mobileNumber: "12345" },
      headers: applicant.headers,
    });
    expect(invalid.status).toBe(400);
    const invalidHtml = await invalid.text();
    expect(invalidHtml).toContain("Please enter your name");
    expect(invalidHtml).toContain("Please enter a valid mobile number, for example 780-555-1234");
    expect(invalidHtml).toContain('value="Foothills"');

    const requested = await browser.request("/signup", {
      form: { name: "Dana", organizationName: "Foothills", organizationType: "4", mobileNumber: applicant.typed },
      headers: applicant.headers,
    });
    expect(requested.status).toBe(302);
    const verifyPath = requested.headers.get("location") ?? "";
    expect(verifyPath).toBe(`/signup/verify-access-code/${encodeURIComponent(applicant.e164)}`);
    expect(await (await browser.request(verifyPath)).text()).toContain("+1 (780) 555-");

    const wrong = await browser.request(verifyPath, { form: { verificationCode: "12" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(INVALID_CODE);

    const verified = await browser.request(verifyPath, {
      form: { verificationCode: await lastCodeSentTo(applicant.e164) },
    });
    expect(verified.status).toBe(302);
    const privacyPath = verified.headers.get("location") ?? "";
    expect(privacyPath).toMatch(/^\/signup\/accept-privacy-policy\/[A-Za-z0-9_-]{43}$/);
    const token = privacyPath.split("/").pop() ?? "";

    // The terms cannot come before the privacy policy.
    const skipped = await browser.request(`/signup/accept-terms-and-conditions/${token}`);
    expect(skipped.status).toBe(302);
    expect(skipped.headers.get("location")).toBe(privacyPath);
    const skippedPost = await browser.request(`/signup/accept-terms-and-conditions/${token}`, { form: {} });
    expect(skippedPost.status).toBe(302);
    expect(skippedPost.headers.get("location")).toBe(privacyPath);

    const privacyPage = await browser.request(privacyPath);
    const privacyHtml = await privacyPage.text();
    expect(privacyHtml).toMatch(/<button type="submit" class="button">Agree<\/button>/);
    const privacy = await browser.request(privacyPath, { form: {} });
    expect(privacy.status).toBe(302);
    expect(privacy.headers.get("location")).toBe(`/signup/accept-terms-and-conditions/${token}`);

    expect((await browser.request(`/signup/accept-terms-and-conditions/${token}`)).status).toBe(200);
    const terms = await browser.request(`/signup/accept-terms-and-conditions/${token}`, { form: {} });
    expect(terms.status).toBe(302);
    expect(terms.headers.get("location")).toBe(`/signup/consultant-registration/${token}`);
  });
});
