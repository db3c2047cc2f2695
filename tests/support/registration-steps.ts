import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { hashToken } from "~/accounts/account-tokens.server";
import { outboxMessages, registrationAccessTokens, registrations } from "~db/schema";
import { createClient, type TestApp } from "./test-app";

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
