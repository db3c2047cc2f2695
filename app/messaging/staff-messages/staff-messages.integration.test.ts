import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages } from "~db/schema";
import { eventually, startFakePostmark } from "../../../tests/support/fake-postmark";
import { createClient, createStaffAndBuyerUsers, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { databaseKinds } from "../../../tests/support/test-database";
import { queueMessage } from "../delivery/outbox.server";
import { RESEND_REFUSED } from "./staff-messages-schema";

// /staff/messages through HTTP (issue 19): staff only; each message's state, attempts and the
// provider's answer, never its body; the state filter; pages of 50; a resend queues a copy.

const SECRET_LINK = "https://upstream.example/reset-password/secret-one-time-token";

describe.each(databaseKinds)("/staff/messages on %s", (kind) => {
  let fake: Awaited<ReturnType<typeof startFakePostmark>>;
  let app: TestApp;
  let staff: ReturnType<typeof createClient>;
  let sentId: number;
  let failedId: number;

  const statusOf = async (id: number) =>
    (await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0];

  beforeAll(async () => {
    fake = await startFakePostmark();
    app = await startTestApp(kind, fake.environment, { delivery: { retryDelayMs: () => 20, pollMs: 500 } });
    staff = await createStaffAndBuyerUsers(app);
    const queue = (to: string, subject: string) =>
      queueMessage(app.services.db, app.services.messaging, {
        channel: "email",
        kind: "password-reset",
        to,
        subject,
        text: `Choose a new password: ${SECRET_LINK}`,
      });
    sentId = (await queue("ops@foothills.example", "Delivered one")).id;
    failedId = (await queue("gone@inactive.example", "Refused one")).id;
    await eventually(
      async () => (await statusOf(sentId))?.status === "sent" && (await statusOf(failedId))?.status === "failed",
      "both messages delivered or refused",
    );
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it("is for staff only", async () => {
    const visitor = await createClient(app.baseURL).request("/staff/messages");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
    const buyer = createClient(app.baseURL);
    await buyer.request("/login", { form: { email: "buyer@upstream.example", password: "staff-password" } });
    expect((await buyer.request("/staff/messages")).status).toBe(403);
    const before = await app.services.db.select({ id: outboxMessages.id }).from(outboxMessages);
    expect(
      (await buyer.request("/staff/messages", { form: { intent: "resend", messageId: String(sentId) } })).status,
    ).toBe(403);
    expect(await app.services.db.select({ id: outboxMessages.id }).from(outboxMessages)).toEqual(before);
  });

  it("lists each message's state, tries and the provider's answer, never its body", async () => {
    const html = await (await staff.request("/staff/messages")).text();
    expect(html).toContain("Delivered one");
    expect(html).toContain("Refused one");
    expect(html).toContain("Failed after 1 try");
    expect(html).toContain("marked as inactive");
    expect(html).toContain("password-reset");
    expect(html).not.toContain(SECRET_LINK);
    expect(html).not.toContain("secret-one-time-token");
  });

  it("filters by state", async () => {
    const html = await (await staff.request("/staff/messages?status=failed")).text();
    expect(html).toContain("Refused one");
    expect(html).not.toContain("Delivered one");
  });

  it("resends a sent message as a new row that names it, delivered once more", async () => {
    const response = await staff.request("/staff/messages?status=sent", {
      form: { intent: "resend", messageId: String(sentId) },
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location).toMatch(/^\/staff\/messages\?status=sent&done=resent&message=\d+$/);
    const copyId = Number(new URL(location, app.baseURL).searchParams.get("message"));
    const copy = await statusOf(copyId);
    expect(copy).toMatchObject({ resendOf: sentId, subject: "Delivered one", to: "ops@foothills.example" });
    await eventually(async () => (await statusOf(copyId))?.status === "sent", "the copy sent");
    expect(fake.state.delivered.filter((message) => message.Subject === "Delivered one")).toHaveLength(2);
    expect((await statusOf(sentId))?.status).toBe("sent");
    const page = await (await staff.request(location)).text();
    expect(page).toContain("Message queued again.");
    expect(page).toContain(`resends ${sentId}`);
  });

  it("refuses to resend a message that does not exist, at the page", async () => {
    const response = await staff.request("/staff/messages", { form: { intent: "resend", messageId: "999999" } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(RESEND_REFUSED);
    const malformed = await staff.request("/staff/messages", { form: { intent: "resend", messageId: "x" } });
    expect(malformed.status).toBe(400);
  });

  it("takes only the digits of an id: hex, exponent, spaced, decimal and binary forms are refused", async () => {
    // The brief's literal forms, and the same forms of a message that exists and could be resent.
    const literal = ["0x10", "1e1", " 7", "7.0", "0b11"];
    const ofSent = [`0x${sentId.toString(16)}`, `${sentId}e0`, ` ${sentId}`, `${sentId}.0`, `0b${sentId.toString(2)}`];
    const copies = async () =>
      (await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.resendOf, sentId))).length;
    const before = await copies();
    for (const messageId of [...literal, ...ofSent]) {
      const response = await staff.request("/staff/messages", { form: { intent: "resend", messageId } });
      expect(response.status, messageId).toBe(400);
      expect(await response.text()).toContain(RESEND_REFUSED);
    }
    expect(await copies()).toBe(before);
  });

  it("pages by 50 with an 'Older messages' link", async () => {
    await app.services.db.insert(outboxMessages).values(
      Array.from({ length: 55 }, (_, index) => ({
        channel: "sms" as const,
        kind: "access-code",
        to: `+1403555${String(index).padStart(4, "0")}`,
        text: "code",
        status: "sent" as const,
        provider: "outbox" as const,
      })),
    );
    const first = await (await staff.request("/staff/messages")).text();
    const older = /href="([^"]*before=\d+)"[^>]*>Older messages/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toMatch(/^\/staff\/messages\?before=\d+$/);
    expect(first.match(/<tr>/g)?.length).toBe(51); // the header row and 50 messages
    const second = await (await staff.request(older ?? "")).text();
    expect(second).toContain("Refused one");
    expect(second).not.toContain("Older messages");
  });
});
