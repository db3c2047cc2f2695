import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMessage } from "~/messaging/delivery/outbox.server";
import { createMessaging } from "~/messaging/messaging.server";
import { readEnvironment } from "~/platform/env.server";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../tests/support/test-database";
import * as schema from "./schema";
import { seedReferenceData } from "./seed";

describe.each(databaseKinds)("database on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const counts = async () => {
    const { db } = database;
    const rows = await Promise.all(
      [
        schema.industries,
        schema.countries,
        schema.provinces,
        schema.usStates,
        schema.timezones,
        schema.certificationOptions,
      ].map((table) => db.select({ n: count() }).from(table)),
    );
    return rows.map((result) => result[0]?.n);
  };

  it("loads the reference data of the specification", async () => {
    const [industries, countries, provinces, usStates, timezones, certifications] = await counts();
    expect(industries).toBe(19);
    expect(countries).toBeGreaterThan(240);
    expect(provinces).toBe(13);
    expect(usStates).toBe(57);
    expect(timezones).toBeGreaterThan(300);
    expect(certifications).toBe(8);
    const provinceCodes = (await database.db.select({ code: schema.provinces.code }).from(schema.provinces))
      .map((row) => row.code)
      .sort();
    expect(provinceCodes).toEqual(["AB", "BC", "MB", "NB", "NL", "NS", "NU", "NW", "ON", "PE", "QC", "SK", "YU"]);
  });

  it("migrates and seeds again without changing anything", async () => {
    const before = await counts();
    const firstIds = await database.db.select().from(schema.industries);
    await database.withStartupLock(async () => {
      await database.migrate();
      await seedReferenceData(database.db);
    });
    expect(await counts()).toEqual(before);
    expect(await database.db.select().from(schema.industries)).toEqual(firstIds);
  });

  it("keeps messages in the outbox when no provider is configured, newest first", async () => {
    const messaging = createMessaging(readEnvironment({}), database.db);
    expect(messaging.outboxChannels).toEqual(["sms", "email"]);
    const sms = await queueMessage(database.db, messaging, {
      channel: "sms",
      kind: "test",
      to: "+14035550123",
      text: "Your access code is 123456",
    });
    await queueMessage(database.db, messaging, {
      channel: "email",
      kind: "test",
      to: "a@example.com",
      subject: "Hello",
      text: "https://x.test/link",
    });
    // Nothing to deliver: kept in the dev outbox is 'sent'.
    expect(sms.status).toBe("sent");
    const messages = await messaging.listOutbox();
    expect(messages.map(({ channel, to, subject, text }) => ({ channel, to, subject, text }))).toEqual([
      { channel: "email", to: "a@example.com", subject: "Hello", text: "https://x.test/link" },
      { channel: "sms", to: "+14035550123", subject: null, text: "Your access code is 123456" },
    ]);
    expect(messages[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("uses the real providers, not the outbox, once they are configured", () => {
    const messaging = createMessaging(
      readEnvironment({
        TWILIO_ACCOUNT_SID: "AC1",
        TWILIO_AUTH_TOKEN: "t",
        TWILIO_FROM: "+15875550100",
        POSTMARK_SERVER_TOKEN: "p",
        MAIL_FROM: "no-reply@upstream-marketplace.ca",
      }),
      database.db,
    );
    expect(messaging.outboxChannels).toEqual([]);
  });

  it("counts the pool's connections in use and the work waiting for one, for the metrics", async () => {
    const { db } = database;
    const max = kind === "postgres" ? Number(process.env.DATABASE_POOL_SIZE ?? 10) : 1;
    expect(database.poolUsage()).toEqual({ inUse: 0, waiting: 0, max });
    // A transaction and queries that hold their connection a moment: the pool full, the rest waiting
    // (PGlite's one connection runs them one after another).
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await held;
    });
    const queries = Promise.all([
      ...Array.from({ length: max + 2 }, () => db.execute(sql`select pg_sleep(0.2)`)),
      database.query("select pg_sleep(0.2)"),
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      // 1 transaction + (max + 2) queries + 1 raw query.
      expect(database.poolUsage()).toEqual({ inUse: max, waiting: 4, max });
    } finally {
      releaseTransaction();
    }
    await Promise.all([transaction, queries]);
    expect(database.poolUsage()).toEqual({ inUse: 0, waiting: 0, max });
    // A failed query gives its connection back too.
    await expect(db.execute(sql`select no_such_column`)).rejects.toThrow();
    expect(database.poolUsage()).toEqual({ inUse: 0, waiting: 0, max });
  });
});
