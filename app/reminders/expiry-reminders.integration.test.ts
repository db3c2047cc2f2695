import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveRegistration } from "~/review/review.server";
import { expiryReminders, outboxMessages, registrations, sellerRegistrations, users } from "~db/schema";
import { startSellerFormApp } from "../../tests/support/seller-form-app";
import { startTestApp, type TestApp } from "../../tests/support/test-app";
import { databaseKinds } from "../../tests/support/test-database";
import { sendExpiryReminders } from "./expiry-reminders.server";
import { EXPIRY_REMINDERS_CRON, EXPIRY_REMINDERS_JOB, startRemindersWorker } from "./reminders-worker.server";

// The daily expiry reminders (issue 8): 30 and 7 days before, to the seller's users and to staff,
// and never twice, whether the job runs again or twice at once; on PostgreSQL through pg-boss.

const TODAY = "2031-03-01";
const inDays = (days: number) => {
  const date = new Date(`${TODAY}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

describe.each(databaseKinds)("expiry reminders on %s", (kind) => {
  let context: Awaited<ReturnType<typeof startSellerFormApp>>;
  let organizationId: number;
  const salesEmail = `reminders-${kind}@seller.example`;

  beforeAll(async () => {
    context = await startSellerFormApp(kind, {
      SEED_STAFF_EMAIL: "staff@example.com",
      SEED_STAFF_PASSWORD: "staff-password",
    });
    const token = await context.sellerToken();
    const form = context.completeForm({
      email: `office-${salesEmail}`,
      "salesContact.email": salesEmail,
      "salesContact.confirm_email": salesEmail,
    });
    expect((await context.submit(token, form)).status).toBe(302);
    const { db } = context.app.services;
    const [registration] = await db
      .select()
      .from(registrations)
      .where(eq(registrations.email, `office-${salesEmail}`));
    const [staff] = await db.select().from(users).where(eq(users.email, "staff@example.com"));
    const approved = await approveRegistration(context.app.services, registration?.id ?? 0, staff?.id ?? 0);
    expect(approved).toEqual({ kind: "decided", decision: "approved" });
    // Due in 30 days, due in 5 days (the 7-day reminder), far off, and already expired.
    await db
      .update(sellerRegistrations)
      .set({
        inCommercialGeneralExpiry: inDays(30),
        inThirdPartyAutomobileExpiry: inDays(5),
        inPollution: "$1,000,000 minimum",
        inPollutionExpiry: inDays(200),
        inWcbExpiry: inDays(-3),
        scComplyWorksExpiry: null,
        inAircraftExpiry: null,
        inFireExpiry: null,
        inErrorsOmissionsExpiry: null,
      })
      .where(eq(sellerRegistrations.registrationId, registration?.id ?? 0));
    const [user] = await db.select().from(users).where(eq(users.email, salesEmail));
    organizationId = user?.organizationId ?? 0;
  });
  afterAll(async () => {
    await context?.app.stop();
  });

  const remindersTo = (email: string) =>
    context.app.services.db
      .select()
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.to, email),
          eq(outboxMessages.subject, "Documents expiring soon: Roughneck Services Ltd."),
        ),
      );

  it("reminds the seller and staff of what expires within 30 and 7 days, once", async () => {
    const first = await sendExpiryReminders(context.app.services, TODAY);
    // The two insurances due; the rest is far off, expired or not held.
    expect(first.reminded).toBe(2);
    const [sellerMail] = await remindersTo(salesEmail);
    expect(sellerMail?.text).toContain(`Commercial general liability insurance: expires ${inDays(30)} (in 30 days)`);
    expect(sellerMail?.text).toContain(`Third party automobile liability insurance: expires ${inDays(5)} (in 5 days)`);
    expect(sellerMail?.text).not.toContain("Pollution");
    expect(sellerMail?.text).not.toContain("WCB coverage");
    expect(await remindersTo("staff@example.com")).toHaveLength(1);

    const again = await sendExpiryReminders(context.app.services, TODAY);
    expect(again.reminded).toBe(0);
    expect(await remindersTo(salesEmail)).toHaveLength(1);

    // A week later the 30-day document reaches its 7-day reminder; the other has had its own.
    const later = await sendExpiryReminders(context.app.services, inDays(23));
    expect(later.reminded).toBe(1);
    const rows = await context.app.services.db
      .select()
      .from(expiryReminders)
      .where(eq(expiryReminders.organizationId, organizationId));
    expect(rows.map((row) => `${row.document}@${row.daysBefore}`).sort()).toEqual([
      "inCommercialGeneralExpiry@30",
      "inCommercialGeneralExpiry@7",
      "inThirdPartyAutomobileExpiry@7",
    ]);
  });

  it("sends nothing twice when two runs happen at once", async () => {
    const day = inDays(190); // the pollution insurance is now 10 days off: its 30-day reminder
    const runs = await Promise.all([
      sendExpiryReminders(context.app.services, day),
      sendExpiryReminders(context.app.services, day),
    ]);
    expect(runs.map((run) => run.reminded).sort()).toEqual([0, 1]);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("the expiry reminders job", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp("postgres");
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("runs as a pg-boss job on the same PostgreSQL, scheduled daily", async () => {
    const databaseUrl = app.services.env.DATABASE_URL ?? "";
    const worker = await startRemindersWorker(app.services, databaseUrl, { pollingIntervalSeconds: 0.5 });
    try {
      const schedules = await worker.boss.getSchedules();
      expect(schedules).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: EXPIRY_REMINDERS_JOB, cron: EXPIRY_REMINDERS_CRON })]),
      );
      const jobId = await worker.runNow();
      await expect
        .poll(async () => (await worker.boss.getJobById(EXPIRY_REMINDERS_JOB, jobId ?? ""))?.state, {
          timeout: 20_000,
          interval: 250,
        })
        .toBe("completed");
    } finally {
      await worker.stop();
    }
  });
});
