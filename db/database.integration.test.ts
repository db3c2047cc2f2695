import { count } from "drizzle-orm";
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
});
