import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import { outboxMessages } from "~db/schema";
import { eventually, startFakePostmark } from "../support/fake-postmark";
import { startTestApp, type TestApp } from "../support/test-app";
import { submit } from "./account-helpers";
import { pagesOn, signInAs } from "./app-pages";
import { browserForFile, expectNoAxeViolations, javaScriptModes } from "./browser";

// /staff/messages in Chromium, JavaScript on and off (issue 19): staff filter the list, read a
// message's state and resend it; the copy is delivered through the fake Postmark.

const STAFF = { email: "messages-staff@example.com", password: "messages-staff-password" };

let fake: Awaited<ReturnType<typeof startFakePostmark>>;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakePostmark();
  app = await startTestApp(
    "pglite",
    { ...fake.environment, SEED_STAFF_EMAIL: STAFF.email, SEED_STAFF_PASSWORD: STAFF.password },
    { delivery: { retryDelayMs: () => 20, pollMs: 500 } },
  );
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});
const { browser } = browserForFile();
const open = pagesOn(browser, () => app.baseURL);

const stateOf = async (id: number) =>
  (await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]?.status;

describe.each(javaScriptModes)("staff messages with %s", (mode) => {
  const axe = (page: Page) => (mode === "js" ? expectNoAxeViolations(page) : Promise.resolve());

  it("lists a sent message and resends it as a copy that is delivered", async () => {
    const subject = `Your registration has been approved (${mode})`;
    const { id } = await queueMessage(app.services.db, app.services.messaging, {
      channel: "email",
      kind: "decision",
      to: `approved-${mode}@seller.example`,
      subject,
      text: "https://example.test/account-setup/one-time-token",
    });
    await eventually(async () => (await stateOf(id)) === "sent", "the message sent");

    const page = await open(mode);
    await signInAs(page, mode, STAFF);
    await page.goto("/staff");
    await submit(page, mode, page.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "Messages" }), {
      clientSide: true,
    });
    await page.getByRole("heading", { level: 1, name: "Messages" }).waitFor();
    await page.getByLabel("State").selectOption("sent");
    await submit(page, mode, page.getByRole("button", { name: "Filter" }), { clientSide: true });
    await page.waitForURL("**/staff/messages?status=sent");
    const row = page.getByRole("row").filter({ hasText: subject });
    await expect.poll(() => row.textContent()).toContain("Sent");
    expect(await page.locator("main").textContent()).not.toContain("one-time-token");
    await axe(page);

    await submit(page, mode, row.getByRole("button", { name: `Resend message ${id}` }));
    await expect.poll(() => page.locator("main").textContent()).toContain("Message queued again.");
    await axe(page);
    await page.goto("/staff/messages");
    expect(await page.locator("main").textContent()).toContain(`resends ${id}`);
    await eventually(
      async () => fake.state.delivered.filter((message) => message.Subject === subject).length === 2,
      "the copy delivered",
    );
    await page.context().close();
  });
});
