import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages, registrationCodeSends, registrationRequests } from "~db/schema";
import { type CapturedRequest, providerHandlers } from "../../../tests/mocks/providers";
import { BEHIND_ONE_PROXY, createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";

// With Twilio configured (faked at the network edge by MSW): codes go out by SMS, and a refusal
// answers the spec's message with nothing left behind.

const SEND_FAILED = "Failed to send access code. Please check your mobile number and try again.";
const REFUSED_NUMBER = "+14035550000";

const captured: CapturedRequest[] = [];
const server = setupServer(
  http.post("https://api.twilio.com/2010-04-01/Accounts/:sid/Messages.json", async ({ request }) => {
    const body = await request.clone().text();
    if (new URLSearchParams(body).get("To") === REFUSED_NUMBER) {
      return HttpResponse.json({ code: 21614, message: "Not a mobile number", status: 400 }, { status: 400 });
    }
    return undefined;
  }),
  ...providerHandlers(captured),
);

beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => server.close());

describe.each(databaseKinds)("access codes through Twilio on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, {
      ...BEHIND_ONE_PROXY,
      TWILIO_ACCOUNT_SID: "AC123",
      TWILIO_AUTH_TOKEN: "secret",
      TWILIO_FROM: "+15875550100",
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const requestCode = (mobileNumber: string, address: string) =>
    createClient(app.baseURL).request("/api/registration/request_code", {
      json: { name: "Dana", organizationName: "Foothills", organizationType: 2, mobileNumber },
      headers: { "x-forwarded-for": address },
    });

  it("texts the 6-digit code through Twilio, not the outbox", async () => {
    const response = await requestCode("403-555-0101", "10.1.0.1");
    expect(response.status).toBe(200);
    const sent = captured.map((request) => Object.fromEntries(new URLSearchParams(request.body)));
    expect(sent.find((message) => message.To === "+14035550101")?.Body).toMatch(/\b\d{6}\b/);
    // Queued for Twilio and sent: nothing in the dev outbox.
    expect(await app.services.messaging.listOutbox()).toEqual([]);
    expect(
      (await app.services.db.select().from(outboxMessages)).map(({ provider, status }) => ({ provider, status })),
    ).toEqual([{ provider: "twilio", status: "sent" }]);
  });

  it("answers a refused SMS with the spec's message and keeps nothing of the attempt", async () => {
    const requestsBefore = await app.services.db.select().from(registrationRequests);
    const sendsBefore = await app.services.db.select().from(registrationCodeSends);
    const response = await requestCode("403-555-0000", "10.1.0.2");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: { form: SEND_FAILED } });
    expect(await app.services.db.select().from(registrationRequests)).toEqual(requestsBefore);
    expect(await app.services.db.select().from(registrationCodeSends)).toEqual(sendsBefore);

    // The page says the same, keeps what was typed, and the number may try again at once.
    const page = await createClient(app.baseURL).request("/signup", {
      form: { name: "Dana", organizationName: "Foothills", organizationType: "2", mobileNumber: "403-555-0000" },
      headers: { "x-forwarded-for": "10.1.0.2" },
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(SEND_FAILED);
    expect(html).toContain('value="403-555-0000"');
  });
});
