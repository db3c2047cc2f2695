import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, users } from "~db/schema";
import { type CapturedRequest, providerHandlers } from "../../../tests/mocks/providers";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { hashPassword } from "../password.server";

// Password reset e-mails through Postmark (faked at the network edge by MSW): a delivery failure
// gets the spec's message, on the page and over the API; a delivered one holds the absolute link.

const RESET_PROBLEM = "Problem sending password reset email, please check your email and try again.";
const captured: CapturedRequest[] = [];
const network = setupServer(...providerHandlers(captured));

beforeAll(() => network.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => network.close());

describe.each(databaseKinds)("password reset delivery on %s", (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(kind, { POSTMARK_SERVER_TOKEN: "server-token", MAIL_FROM: "noreply@upstream.example" });
    const [organization] = await app.services.db
      .insert(organizations)
      .values({ name: "Foothills Rentals", organizationType: 3 })
      .returning();
    const passwordHash = await hashPassword("seller-password");
    await app.services.db.insert(users).values([
      { email: "gone@inactive.example", role: 3, organizationId: organization?.id, passwordHash },
      { email: "ops@foothills.example", role: 3, organizationId: organization?.id, passwordHash },
    ]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("shows 'Problem sending password reset email…' on the page when Postmark refuses the message", async () => {
    const response = await createClient(app.baseURL).request("/forgot-password", {
      form: { email: "gone@inactive.example" },
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(RESET_PROBLEM);
    expect(html).toContain("Error!");
    expect(html).toContain('value="gone@inactive.example"');
  });

  it("answers 400 with the same message over the API", async () => {
    const response = await createClient(app.baseURL).request("/api/account/send_password_reset", {
      json: { email: "gone@inactive.example" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: { form: RESET_PROBLEM } });
  });

  it("sends a delivered e-mail through Postmark with the absolute reset link, not to the outbox", async () => {
    captured.length = 0;
    const response = await createClient(app.baseURL).request("/forgot-password", {
      form: { email: "OPS@foothills.example" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/forgot-password?done=sent");
    const sent = captured.map((request) => JSON.parse(request.body) as { To: string; TextBody: string });
    expect(sent.map((message) => message.To)).toEqual(["ops@foothills.example"]);
    expect(sent[0]?.TextBody).toMatch(new RegExp(`${app.baseURL}/reset-password/[A-Za-z0-9_-]{43}`));
    expect((await fetch(`${app.baseURL}/dev/outbox.json`)).status).toBe(200); // SMS still uses the outbox
    expect(await app.services.messaging.listOutbox()).toEqual([]);
  });
});
