import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.server";
import { readEnvironment } from "~/platform/env.server";
import { openDatabase } from "~db/database.server";
import { outboxMessages, users } from "~db/schema";
import { eventually, startFakePostmark } from "../../../tests/support/fake-postmark";
import { createClient, startTestApp, type TestApp } from "../../../tests/support/test-app";
import { createPostgresDatabase, databaseKinds } from "../../../tests/support/test-database";
import { createMessaging, type DeliverySettings } from "../messaging.server";
import { deliverMessage, queueMessage } from "./outbox.server";

// The durable outbox against a fake Postmark on localhost (issue 19): an outage delays messages and
// loses none, a crash between commit and send loses none, two drainers never send a row twice, a
// refusal fails at once with Postmark's answer. The backoff is shortened; every wait is for an outcome.

// Four attempts: an outage of three refusals cannot use them all up, a lasting one does.
const FAST: Partial<DeliverySettings> = { retryDelayMs: () => 20, pollMs: 500, maxAttempts: 4 };

type Fake = Awaited<ReturnType<typeof startFakePostmark>>;

const email = (to: string, subject: string) =>
  ({ channel: "email", kind: "test", to, subject, text: `Hello ${to}` }) as const;

async function statusOf(app: TestApp, ids: number[]) {
  return app.services.db
    .select({
      id: outboxMessages.id,
      status: outboxMessages.status,
      attempts: outboxMessages.attempts,
      lastError: outboxMessages.lastError,
      providerMessageId: outboxMessages.providerMessageId,
    })
    .from(outboxMessages)
    .where(inArray(outboxMessages.id, ids))
    .orderBy(outboxMessages.id);
}

const settled = async (app: TestApp, ids: number[]) =>
  (await statusOf(app, ids)).every((row) => row.status === "sent" || row.status === "failed");

/** How many times the fake accepted each subject. */
const deliveries = (fake: Fake) => {
  const counts = new Map<string, number>();
  for (const message of fake.state.delivered) counts.set(message.Subject, (counts.get(message.Subject) ?? 0) + 1);
  return counts;
};

describe.each(databaseKinds)("message delivery on %s", (kind) => {
  let fake: Fake;
  let app: TestApp;
  beforeAll(async () => {
    fake = await startFakePostmark();
    app = await startTestApp(kind, fake.environment, { delivery: FAST });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it("delivers every message exactly once through an outage (503 three times, then 200)", async () => {
    fake.state.failNext = 3;
    const subjects = ["one", "two", "three", "four", "five"].map((word) => `Outage ${word}`);
    const ids = await app.services.db.transaction(async (tx) => {
      const queued = [];
      for (const subject of subjects) {
        queued.push((await queueMessage(tx, app.services.messaging, email("ops@foothills.example", subject))).id);
      }
      return queued;
    });
    await eventually(() => settled(app, ids), "every message sent");
    const rows = await statusOf(app, ids);
    expect(rows.map((row) => row.status)).toEqual(subjects.map(() => "sent"));
    expect(rows.every((row) => row.providerMessageId?.startsWith("pm-"))).toBe(true);
    const counts = deliveries(fake);
    for (const subject of subjects) expect(counts.get(subject)).toBe(1);
    // The three refused attempts were retried: eight requests for five messages.
    expect(rows.reduce((sum, row) => sum + row.attempts, 0)).toBe(subjects.length + 3);
  });

  it("tells the user a reset e-mail was sent when Postmark is briefly down, and delivers it on the retry", async () => {
    const passwordHash = await hashPassword("outage-password");
    await app.services.db.insert(users).values({ email: "reset@foothills.example", role: 2, passwordHash });
    fake.state.failNext = 1;
    const response = await createClient(app.baseURL).request("/forgot-password", {
      form: { email: "reset@foothills.example" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/forgot-password?done=sent");
    const [row] = await app.services.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.to, "reset@foothills.example"));
    await eventually(() => settled(app, [row?.id ?? 0]), "the reset e-mail sent on the retry");
    expect(await statusOf(app, [row?.id ?? 0])).toMatchObject([{ status: "sent", attempts: 2 }]);
    expect(fake.state.delivered.filter((message) => message.To === "reset@foothills.example")).toHaveLength(1);
  });

  it("fails a message Postmark refuses at once, with Postmark's answer", async () => {
    const { id } = await queueMessage(
      app.services.db,
      app.services.messaging,
      email("gone@inactive.example", "Refused"),
    );
    await eventually(() => settled(app, [id]), "the refusal recorded");
    const [row] = await statusOf(app, [id]);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row?.lastError).toMatch(/ErrorCode 406.*marked as inactive/);
  });

  it("fails a message after the most attempts, with the last answer", async () => {
    const { id } = await queueMessage(app.services.db, app.services.messaging, email("ops@down.example", "Down"));
    await eventually(() => settled(app, [id]), "the message given up on");
    const [row] = await statusOf(app, [id]);
    expect(row?.status).toBe("failed");
    expect(row?.attempts).toBe(4);
    expect(row?.lastError).toMatch(/\(503\)/);
  });

  it("never sends a message twice when two deliveries race for it", async () => {
    const { id } = await queueMessage(app.services.db, app.services.messaging, email("race@foothills.example", "Race"));
    const outcomes = await Promise.all(
      [0, 1, 2].map(() => deliverMessage(app.services.db, app.services.messaging, id, { now: true })),
    );
    await eventually(() => settled(app, [id]), "the message sent");
    expect(outcomes.filter((outcome) => outcome.kind === "sent").length).toBeLessThanOrEqual(1);
    expect(deliveries(fake).get("Race")).toBe(1);
  });
});

// Messages a person waits for retry within seconds (1, 2, 4, 8 s; here a tenth of that), notices on
// the 30 s doubling (kept as it is). The queue looks on its own only once a minute here, so a retry
// that waited for a poll instead of its own time would show.
const QUICK_TENTHS = [100, 200, 400, 800];

describe.each(databaseKinds)("retries of a message a person waits for on %s", (kind) => {
  let fake: Fake;
  let app: TestApp;
  beforeAll(async () => {
    fake = await startFakePostmark();
    app = await startTestApp(kind, fake.environment, {
      delivery: { awaitedRetryDelaysMs: QUICK_TENTHS, pollMs: 60_000 },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it("delivers a reset e-mail refused four times on the quick schedule, not the notices' one", async () => {
    const passwordHash = await hashPassword("quick-password");
    await app.services.db.insert(users).values({ email: "quick@foothills.example", role: 2, passwordHash });
    fake.state.failNext = 4;
    const askedAt = Date.now();
    const response = await createClient(app.baseURL).request("/forgot-password", {
      form: { email: "quick@foothills.example" },
    });
    expect(response.headers.get("location")).toBe("/forgot-password?done=sent");
    const [row] = await app.services.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.to, "quick@foothills.example"));
    await eventually(() => settled(app, [row?.id ?? 0]), "the reset e-mail sent", 10_000);
    const [stored] = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.id, row?.id ?? 0));
    expect(stored).toMatchObject({ kind: "password-reset", status: "sent", attempts: 5 });
    // The last retry was stored for 0.1 + 0.2 + 0.4 + 0.8 s after the first attempt (plus the sends).
    const lastRetryAfter = (stored?.nextAttemptAt.getTime() ?? 0) - (stored?.createdAt.getTime() ?? 0);
    expect(lastRetryAfter).toBeGreaterThanOrEqual(1_500);
    expect(lastRetryAfter).toBeLessThan(4_000);
    // Postmark was asked five times, each retry no sooner than its wait and not held for a poll.
    const asked = fake.state.answers.filter((answer) => answer.to === "quick@foothills.example");
    expect(asked.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 200]);
    const gaps = asked.slice(1).map((answer, index) => answer.at - (asked[index]?.at ?? 0));
    for (const [index, gap] of gaps.entries()) {
      expect(gap, `wait ${index + 1}`).toBeGreaterThanOrEqual((QUICK_TENTHS[index] ?? 0) - 5);
      expect(gap, `wait ${index + 1}`).toBeLessThan((QUICK_TENTHS[index] ?? 0) + 1_500);
    }
    expect((asked.at(-1)?.at ?? 0) - askedAt).toBeLessThan(5_000);
  });

  it("sends a burst queued in one commit at once, not one batch per poll", async () => {
    // 45 closing notices from one auction's close: the poll here is a minute, so a worker that waited
    // for it between batches would still be sending after the limit.
    const ids = await app.services.db.transaction(async (tx) => {
      const queued = [];
      for (let index = 0; index < 45; index += 1) {
        const message = { ...email(`seller${index}@burst.example`, `Closed ${index}`), kind: "closed notification" };
        queued.push((await queueMessage(tx, app.services.messaging, message)).id);
      }
      return queued;
    });
    await eventually(() => settled(app, ids), "all 45 notices sent", 20_000);
    expect((await statusOf(app, ids)).every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    const counts = deliveries(fake);
    for (let index = 0; index < 45; index += 1) expect(counts.get(`Closed ${index}`)).toBe(1);
  });

  it("keeps a notice on the 30 s doubling after a refusal", async () => {
    fake.state.failNext = 1;
    const { id } = await queueMessage(app.services.db, app.services.messaging, {
      channel: "email",
      kind: "auction-opened notification",
      to: "notice@foothills.example",
      subject: "Notice",
      text: "An auction opened.",
    });
    await eventually(async () => (await statusOf(app, [id]))[0]?.attempts === 1, "the first attempt refused");
    await eventually(async () => (await statusOf(app, [id]))[0]?.status === "queued", "the retry stored");
    const [stored] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
    const refusedAt = fake.state.answers.find((answer) => answer.to === "notice@foothills.example")?.at ?? 0;
    const retryAfter = (stored?.nextAttemptAt.getTime() ?? 0) - refusedAt;
    expect(stored?.lastError).toMatch(/\(503\)/);
    expect(retryAfter).toBeGreaterThanOrEqual(29_000);
    expect(retryAfter).toBeLessThanOrEqual(31_000);
  });
});

describe.each(databaseKinds)("a crash between commit and send on %s", (kind) => {
  it("delivers what was queued (and what was being sent) once, when the next process starts", async () => {
    const fake = await startFakePostmark();
    const postgres = kind === "postgres" ? await createPostgresDatabase() : undefined;
    const folder = kind === "pglite" ? mkdtempSync(path.join(tmpdir(), "outbox-crash-")) : undefined;
    const location = postgres ? { DATABASE_URL: postgres.url } : { PGLITE_DIR: folder as string };
    try {
      // A process that queued two messages and stopped before delivering them: one still queued, one
      // claimed ('sending') by a send that never finished.
      const database = await openDatabase({ databaseUrl: postgres?.url, pgliteDir: folder ?? "" });
      await database.migrate();
      const messaging = createMessaging(readEnvironment({ ...fake.environment }), database.db);
      const ids = await database.db.transaction(async (tx) => [
        (await queueMessage(tx, messaging, email("ops@foothills.example", "Left queued"))).id,
        (await queueMessage(tx, messaging, email("ops@foothills.example", "Left sending"))).id,
      ]);
      await database.db
        .update(outboxMessages)
        .set({ status: "sending", attempts: 1, claimedUntil: new Date(Date.now() - 1_000) })
        .where(eq(outboxMessages.id, ids[1] as number));
      await database.close();

      const app = await startTestApp(kind, { ...fake.environment, ...location }, { delivery: FAST });
      try {
        await eventually(() => settled(app, ids), "both messages sent by the new process");
        expect((await statusOf(app, ids)).map((row) => row.status)).toEqual(["sent", "sent"]);
        expect(deliveries(fake)).toEqual(
          new Map([
            ["Left queued", 1],
            ["Left sending", 1],
          ]),
        );
      } finally {
        await app.stop();
      }
    } finally {
      await postgres?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
      await fake.close();
    }
  });
});

// Only PostgreSQL has several processes on one database (PGlite is one process's).
describe.each(databaseKinds.filter((kind) => kind === "postgres"))("two app processes on one %s", () => {
  it("deliver many messages between them, each exactly once", async () => {
    const fake = await startFakePostmark({ delayMs: 20 });
    const postgres = await createPostgresDatabase();
    const environment = { ...fake.environment, DATABASE_URL: postgres.url };
    const first = await startTestApp("postgres", environment, { delivery: FAST });
    const second = await startTestApp("postgres", environment, { delivery: FAST });
    try {
      fake.state.failNext = 2;
      const subjects = Array.from({ length: 20 }, (_, index) => `Many ${index}`);
      const ids: number[] = [];
      for (const [index, subject] of subjects.entries()) {
        const app = index % 2 === 0 ? first : second;
        ids.push(
          (await queueMessage(app.services.db, app.services.messaging, email("ops@foothills.example", subject))).id,
        );
      }
      // Both processes also sweep the queue at once, racing the jobs.
      await Promise.all(
        ids.map((id) =>
          Promise.all([first, second].map((app) => deliverMessage(app.services.db, app.services.messaging, id))),
        ),
      );
      await eventually(() => settled(first, ids), "every message sent");
      const counts = deliveries(fake);
      for (const subject of subjects) expect(counts.get(subject)).toBe(1);
    } finally {
      await first.stop();
      await second.stop();
      await postgres.drop();
      await fake.close();
    }
  });
});
