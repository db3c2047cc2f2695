import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrationCodeSends, registrationRequests } from "~db/schema";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { INVALID_ACCESS_CODE } from "../registration-texts";
import { CODE_ATTEMPTS, SEND_LIMITS } from "./signup-steps.server";

// The SMS limits hold whatever the concurrency: simultaneous requests each count the sends and
// tries of the others. The client address comes from the proxy in front (one trusted hop),
// simulated here with X-Forwarded-For.

const TRY_NEW_CODE = "This code can no longer be used. Please send a new code.";

let nextLine = 2000;
let nextAddress = 0;
/** A fresh North American number (typed and E.164). */
function newNumber() {
  nextLine += 1;
  return { typed: `780-555-${nextLine}`, e164: `+1780555${nextLine}` };
}
const newAddress = () => {
  nextAddress += 1;
  return `198.51.${Math.floor(nextAddress / 250)}.${nextAddress % 250}`;
};

describe.each(databaseKinds)("SMS limits under simultaneous requests on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { TRUSTED_PROXY_HOPS: "1" });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const applicant = { name: "Dana Smith", organizationName: "Foothills Consulting", organizationType: 2 };

  /** Half over the API, half through the sign-up page, as both share the limits. */
  const requestCode = (typed: string, address: string, overPage = false) =>
    overPage
      ? createClient(app.baseURL).request("/signup", {
          form: { ...applicant, organizationType: "2", mobileNumber: typed },
          headers: { "x-forwarded-for": address },
        })
      : createClient(app.baseURL).request("/api/registration/request_code", {
          json: { ...applicant, mobileNumber: typed },
          headers: { "x-forwarded-for": address },
        });

  const smsTo = (numbers: string[]) =>
    app.services.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.channel, "sms"), inArray(outboxMessages.to, numbers)))
      .orderBy(desc(outboxMessages.id));

  async function lastCodeSentTo(e164: string): Promise<string> {
    const [message] = await smsTo([e164]);
    const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
    if (!code) throw new Error(`no code sent to ${e164}`);
    return code;
  }

  it("checks at most 5 of 20 simultaneous wrong codes, then refuses the right one", async () => {
    const number = newNumber();
    expect((await requestCode(number.typed, newAddress())).status).toBe(200);
    const code = await lastCodeSentTo(number.e164);
    const wrongCode = code === "999999" ? "888888" : "999999";
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2
          ? createClient(app.baseURL).request("/api/registration/verify_code", {
              json: { mobileNumber: number.e164, verificationCode: wrongCode },
            })
          : createClient(app.baseURL).request(`/signup/verify-access-code/${number.e164}`, {
              form: { verificationCode: wrongCode },
            }),
      ),
    );
    expect(tries.map((response) => response.status)).toEqual(Array(20).fill(400));
    const [request] = await app.services.db
      .select({ attemptsLeft: registrationRequests.attemptsLeft })
      .from(registrationRequests)
      .where(eq(registrationRequests.mobileNumber, number.e164));
    expect(request?.attemptsLeft).toBe(0);

    // The page says so, and the right code no longer helps.
    const page = await createClient(app.baseURL).request(`/signup/verify-access-code/${number.e164}`, {
      form: { verificationCode: code },
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(INVALID_ACCESS_CODE);
    expect(html).toContain(TRY_NEW_CODE);
    const api = await createClient(app.baseURL).request("/api/registration/verify_code", {
      json: { mobileNumber: number.e164, verificationCode: code },
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ errors: { form: INVALID_ACCESS_CODE } });
  });

  it(`lets the right code in after ${CODE_ATTEMPTS - 1} simultaneous wrong ones`, async () => {
    const number = newNumber();
    expect((await requestCode(number.typed, newAddress())).status).toBe(200);
    const code = await lastCodeSentTo(number.e164);
    const wrongCode = code === "999999" ? "888888" : "999999";
    await Promise.all(
      Array.from({ length: CODE_ATTEMPTS - 1 }, () =>
        createClient(app.baseURL).request("/api/registration/verify_code", {
          json: { mobileNumber: number.e164, verificationCode: wrongCode },
        }),
      ),
    );
    const right = await createClient(app.baseURL).request("/api/registration/verify_code", {
      json: { mobileNumber: number.e164, verificationCode: code },
    });
    expect(right.status).toBe(200);
  });

  it("sends one code of 10 simultaneous requests for one number, new requests and resends alike", async () => {
    const number = newNumber();
    const first = await Promise.all(
      Array.from({ length: 10 }, (_, index) => requestCode(number.typed, newAddress(), index % 2 === 1)),
    );
    expect(first.filter((response) => response.status === 429)).toHaveLength(9);
    expect(await smsTo([number.e164])).toHaveLength(1);

    // A minute later: simultaneous resends and new requests still send one more.
    await app.services.db
      .update(registrationCodeSends)
      .set({ sentAt: sql`${registrationCodeSends.sentAt} - make_interval(secs => 61)` })
      .where(eq(registrationCodeSends.mobileNumber, number.e164));
    const again = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2
          ? requestCode(number.typed, newAddress())
          : createClient(app.baseURL).request(`/signup/verify-access-code/${number.e164}`, {
              form: { intent: "resend" },
              headers: { "x-forwarded-for": newAddress() },
            }),
      ),
    );
    expect(again.filter((response) => response.status === 429)).toHaveLength(9);
    expect(await smsTo([number.e164])).toHaveLength(2);
  });

  it(`sends at most ${SEND_LIMITS.perClientPerHour} codes of 40 simultaneous requests from one address`, async () => {
    const address = newAddress();
    const numbers = Array.from({ length: 40 }, newNumber);
    const responses = await Promise.all(
      numbers.map((number, index) => requestCode(number.typed, address, index % 2 === 1)),
    );
    expect(responses.filter((response) => response.status === 429)).toHaveLength(40 - SEND_LIMITS.perClientPerHour);
    expect(await smsTo(numbers.map((number) => number.e164))).toHaveLength(SEND_LIMITS.perClientPerHour);
    for (const response of responses.filter(({ status }) => status === 429)) {
      expect(await response.text()).toMatch(
        /Too many codes have been requested\. Please wait \d+ minutes? and try again\./,
      );
    }
  });
});
