import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { hashToken } from "~/shared/secret-tokens.server";
import type { Database } from "~db/database.server";
import { industries, outboxMessages, registrationAccessTokens, registrationRequests, registrations } from "~db/schema";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "./test-app";
import type { DatabaseKind } from "./test-database";

// Registration steps 1-4 over the API, for tests of step 5 (those steps have their own tests).

export type StepsThroughTerms = {
  organizationType: 2 | 3 | 4;
  mobileNumber: string;
  /** Each test file its own addresses, so the request-code throttle never mixes them. */
  clientAddress: string;
  name: string;
  organizationName: string;
  /** Stop before accepting the privacy policy (then the terms are not accepted either). */
  privacy?: boolean;
  /** Stop before accepting the terms. */
  terms?: boolean;
};

/**
 * The app for step 5 over the API (each applicant from its own address; staff to be told of new
 * registrations), with the first industry and the first `serviceAreas` service areas it offers.
 */
export async function startStepFiveApp(kind: DatabaseKind, serviceAreas: number) {
  const app = await startTestApp(kind, {
    ...BEHIND_ONE_PROXY,
    SEED_STAFF_EMAIL: "review@example.com",
    SEED_STAFF_PASSWORD: "staff-password",
  });
  const [industry] = await app.services.db.select().from(industries).orderBy(asc(industries.id)).limit(1);
  const areas = (await (await fetch(`${app.baseURL}/api/service_area_checkboxes`)).json()) as {
    serviceAreas: { id: number }[];
  };
  return {
    app,
    industryId: industry?.id ?? 0,
    serviceAreaIds: areas.serviceAreas.slice(0, serviceAreas).map((area) => area.id),
  };
}

/** Requests and verifies the SMS code, then accepts the policy and the terms: a token ready for the form. */
export async function accessTokenThroughSteps(app: TestApp, steps: StepsThroughTerms): Promise<string> {
  const { organizationType, mobileNumber, name, organizationName } = steps;
  const post = (path: string, json: unknown) => createClient(app.baseURL).request(path, { json });
  const requested = await createClient(app.baseURL).request("/api/registration/request_code", {
    json: { name, organizationName, organizationType, mobileNumber },
    headers: { "x-forwarded-for": steps.clientAddress },
  });
  expect(requested.status).toBe(200);
  const [sms] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.to, mobileNumber));
  const verificationCode = /\d{6}/.exec(sms?.text ?? "")?.[0];
  const verified = await post("/api/registration/verify_code", { mobileNumber, verificationCode });
  const { accessToken } = (await verified.json()) as { accessToken: string };
  if (steps.privacy !== false) await post("/api/registration/accept_privacy_policy", { accessToken });
  if (steps.privacy !== false && steps.terms !== false) {
    await post("/api/registration/accept_terms_and_conditions", { accessToken });
  }
  return accessToken;
}

/** An access token through steps 1-4 written straight into the database, for tests without the app. */
export async function accessTokenWritten(
  db: Database,
  request: { organizationType: 2 | 3 | 4; mobileNumber: string },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const [written] = await db
    .insert(registrationRequests)
    .values({
      name: "Sam",
      organizationName: "Roughneck",
      ...request,
      codeSalt: "s",
      codeHash: "h",
      codeExpiresAt: now,
      verifiedAt: now,
    })
    .returning();
  await db.insert(registrationAccessTokens).values({
    registrationRequestId: written?.id ?? 0,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + 3_600_000),
    privacyPolicyAcceptedAt: now,
    termsAcceptedAt: now,
  });
  return token;
}

/** The access token's row and the registrations written with it. */
export async function registrationsOf(app: TestApp, token: string) {
  const [tokenRow] = await app.services.db
    .select()
    .from(registrationAccessTokens)
    .where(eq(registrationAccessTokens.tokenHash, hashToken(token)));
  const rows = await app.services.db
    .select()
    .from(registrations)
    .where(eq(registrations.accessTokenId, tokenRow?.id ?? 0));
  return { token: tokenRow, rows };
}
