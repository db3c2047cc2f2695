import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMessaging, type MessageServices } from "~/messaging/messaging.server";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import { readEnvironment } from "~/platform/env.server";
import { notifications, providerEvents, sellerSubscriptions, subscriptionEvents, users } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import { catalogueForAuctions, createSeller } from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { stripeEvent } from "./fixtures/stripe-events";
import type { ProviderEvent } from "./provider-event";
import {
  DEFAULT_EVENT_RETRY,
  drainProviderEvents,
  type EventRetrySettings,
  requeueFailedEvent,
  storeProviderEvent,
} from "./provider-events.server";

// The drain of stored provider events (issue 19): several drains at once (several machines) apply
// each event once, and a drain that stops half-way (a crash: its transaction never commits) leaves
// the event received for the next one. An attempt that throws is retried with a backoff, applied once
// when it finally goes through, and marked failed after the 10th try; the faults are real database
// errors, raised by a trigger on the subscription history for chosen event ids.

/** Retries at once, so one drain makes every attempt (the backoff itself is checked on its own). */
const AT_ONCE: EventRetrySettings = { ...DEFAULT_EVENT_RETRY, retryDelayMs: () => 0 };

describe.each(databaseKinds)("draining provider events on %s", (kind) => {
  let database: TestDatabase;
  let services: MessageServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const env = readEnvironment({ PGLITE_DIR: "memory://" });
    services = { db: database.db, env, messaging: createMessaging(env, database.db) };
    await seedDemoCatalogue(database.db);
    // evt_broken…: every attempt fails; evt_flaky…: the first two attempts fail (a sequence is not
    // rolled back with the attempt, so it counts them).
    await database.db.execute(sql`create sequence test_flaky_attempts`);
    await database.db.execute(sql`
      create function test_event_faults() returns trigger language plpgsql as $$
      begin
        if new.event_id like 'evt_broken%' then
          raise exception 'Simulated outage while applying %', new.event_id;
        end if;
        if new.event_id like 'evt_flaky%' and nextval('test_flaky_attempts') <= 2 then
          raise exception 'Simulated database hiccup';
        end if;
        return new;
      end $$`);
    await database.db.execute(
      sql`create trigger test_event_faults before insert on subscription_events for each row execute function test_event_faults()`,
    );
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function subscription(suffix: string) {
    const catalogue = await catalogueForAuctions(database.db);
    const seller = await createSeller(database.db, {
      serviceIds: [catalogue.serviceId],
      serviceAreaIds: [catalogue.serviceAreaId],
    });
    await database.db.insert(sellerSubscriptions).values({
      organizationId: seller.organizationId,
      provider: "stripe",
      subscriptionId: `sub_${suffix}`,
      status: "active",
      amountCents: SELLER_FEES_TOTAL,
    });
    return { seller, ids: { subscription: `sub_${suffix}`, customer: `cus_${suffix}`, paymentMethod: `pm_${suffix}` } };
  }

  it("applies each event once however many drains run at the same time", async () => {
    const { seller, ids } = await subscription(`many_${kind}`);
    const events = Array.from({ length: 12 }, (_, index) =>
      stripeEvent(index % 2 ? "invoice.paid" : "invoice.payment_failed", ids, { created: 1_900_000_000 + index }),
    );
    for (const event of events) expect(await storeProviderEvent(database.db, event as ProviderEvent)).toBe(true);
    // A replay of a stored one is not stored again.
    expect(await storeProviderEvent(database.db, events[0] as ProviderEvent)).toBe(false);
    const taken = await Promise.all([
      drainProviderEvents(services),
      drainProviderEvents(services),
      drainProviderEvents(services),
    ]);
    expect(taken.reduce((sum, count) => sum + count, 0)).toBe(12);
    const history = await database.db
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.organizationId, seller.organizationId));
    expect(history).toHaveLength(12);
    const states = await database.db
      .select({ state: providerEvents.state, attempts: providerEvents.attempts })
      .from(providerEvents)
      .where(
        inArray(
          providerEvents.id,
          events.map((event) => event.id),
        ),
      );
    expect(states.every((row) => row.state === "processed" && row.attempts === 1)).toBe(true);
  });

  it("leaves an event received when the drain that claimed it never commits, for the next drain", async () => {
    const { seller, ids } = await subscription(`crash_${kind}`);
    const event = stripeEvent("invoice.payment_failed", ids, { created: 1_950_000_000 });
    await storeProviderEvent(database.db, event as ProviderEvent);
    // The claim and a crash before the commit: the transaction is rolled back.
    await expect(
      database.db.transaction(async (tx) => {
        await tx
          .select()
          .from(providerEvents)
          .where(eq(providerEvents.id, event.id))
          .for("update", { skipLocked: true });
        await tx.update(providerEvents).set({ state: "processed" }).where(eq(providerEvents.id, event.id));
        throw new Error("the machine stopped");
      }),
    ).rejects.toThrow("the machine stopped");
    const [left] = await database.db.select().from(providerEvents).where(eq(providerEvents.id, event.id));
    expect(left?.state).toBe("received");
    await drainProviderEvents(services);
    const [row] = await database.db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.organizationId, seller.organizationId));
    expect(row?.status).toBe("past_due");
  });

  const eventRow = async (id: string) =>
    (await database.db.select().from(providerEvents).where(eq(providerEvents.id, id)))[0];
  const historyOf = (organizationId: number) =>
    database.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.organizationId, organizationId));
  const standing = async (organizationId: number) =>
    (
      await database.db.select().from(sellerSubscriptions).where(eq(sellerSubscriptions.organizationId, organizationId))
    )[0];

  it("applies an event that fails twice once, on its third try, with its e-mail queued once", async () => {
    const { seller, ids } = await subscription(`flaky_${kind}`);
    const event = stripeEvent("invoice.payment_failed", ids, { created: 1_960_000_000, id: `evt_flaky_${kind}` });
    await storeProviderEvent(database.db, event as ProviderEvent);
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(3);
    expect(await eventRow(event.id)).toMatchObject({
      state: "processed",
      attempts: 3,
      lastError: "Simulated database hiccup",
    });
    expect(await historyOf(seller.organizationId)).toHaveLength(1);
    expect((await standing(seller.organizationId))?.status).toBe("past_due");
    const notices = await database.db
      .select({ subject: notifications.subject })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .where(eq(users.organizationId, seller.organizationId));
    expect(notices.map((notice) => notice.subject)).toEqual(["Your subscription payment failed"]);
    // Applied and marked in one commit: nothing is left to take, so it is not applied again.
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(0);
    expect(await historyOf(seller.organizationId)).toHaveLength(1);
  });

  it("puts a failed attempt off by the backoff, with its error", async () => {
    const { seller, ids } = await subscription(`later_${kind}`);
    const event = stripeEvent("invoice.paid", ids, { created: 1_960_000_100, id: `evt_broken_later_${kind}` });
    await storeProviderEvent(database.db, event as ProviderEvent);
    const before = Date.now();
    expect(await drainProviderEvents(services)).toBe(1);
    const row = await eventRow(event.id);
    expect(row).toMatchObject({ state: "received", attempts: 1 });
    expect(row?.lastError).toContain(`Simulated outage while applying ${event.id}`);
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    // Not due yet: the next drain leaves it alone.
    expect(await drainProviderEvents(services)).toBe(0);
    expect((await eventRow(event.id))?.attempts).toBe(1);
    expect(await historyOf(seller.organizationId)).toEqual([]);
    expect(DEFAULT_EVENT_RETRY.retryDelayMs(1)).toBe(30_000);
    expect(DEFAULT_EVENT_RETRY.retryDelayMs(2)).toBe(60_000);
    expect(DEFAULT_EVENT_RETRY.retryDelayMs(9)).toBe(60 * 60_000);
    expect(DEFAULT_EVENT_RETRY.maxAttempts).toBe(10);
    // Out of the way of the next tests' drains.
    await database.db.delete(providerEvents).where(eq(providerEvents.id, event.id));
  });

  it("marks an event that keeps failing failed after the 10th try, with the error; retrying it takes it once more", async () => {
    const { seller, ids } = await subscription(`broken_${kind}`);
    const event = stripeEvent("invoice.payment_failed", ids, { created: 1_960_000_200, id: `evt_broken_${kind}` });
    await storeProviderEvent(database.db, event as ProviderEvent);
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(10);
    const failed = await eventRow(event.id);
    expect(failed).toMatchObject({ state: "failed", attempts: 10 });
    expect(failed?.lastError).toBe(`Simulated outage while applying ${event.id}`);
    expect(failed?.processedAt).not.toBeNull();
    expect(await historyOf(seller.organizationId)).toEqual([]);
    expect((await standing(seller.organizationId))?.status).toBe("active");
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(0);

    // Only a failed event is put back.
    expect(await requeueFailedEvent(database.db, `evt_flaky_${kind}`)).toBe(false);
    // Still broken: one more try, failed again.
    expect(await requeueFailedEvent(database.db, event.id)).toBe(true);
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(1);
    expect(await eventRow(event.id)).toMatchObject({ state: "failed", attempts: 11 });
  });

  it("keeps the rule that an event older than the last one applied changes nothing when it goes through late", async () => {
    const { seller, ids } = await subscription(`late_${kind}`);
    // The older event fails its first try; the newer one is applied meanwhile.
    const older = stripeEvent("invoice.payment_failed", ids, { created: 1_970_000_000, id: `evt_broken_old_${kind}` });
    const newer = stripeEvent("invoice.paid", ids, { created: 1_970_000_100 });
    await storeProviderEvent(database.db, older as ProviderEvent);
    await storeProviderEvent(database.db, newer as ProviderEvent);
    expect(await drainProviderEvents(services)).toBe(2);
    expect((await eventRow(older.id))?.state).toBe("received");
    expect((await eventRow(newer.id))?.state).toBe("processed");
    expect((await standing(seller.organizationId))?.status).toBe("active");
    // The older one goes through on a later try (the fault has passed): recorded, nothing changed.
    await database.db.execute(
      sql`update provider_events set next_attempt_at = now() - interval '1 second' where id = ${older.id}`,
    );
    await database.db.execute(sql`alter table subscription_events disable trigger test_event_faults`);
    try {
      expect(await drainProviderEvents(services, AT_ONCE)).toBe(1);
    } finally {
      await database.db.execute(sql`alter table subscription_events enable trigger test_event_faults`);
    }
    expect(await eventRow(older.id)).toMatchObject({ state: "processed", attempts: 2 });
    expect((await standing(seller.organizationId))?.status).toBe("active");
    const history = await database.db
      .select()
      .from(subscriptionEvents)
      .where(
        and(eq(subscriptionEvents.organizationId, seller.organizationId), eq(subscriptionEvents.eventId, older.id)),
      );
    expect(history.map((row) => row.summary)).toEqual(["Older than the last event applied: no change"]);
    // A replay of it (Stripe resends for days) is not stored again and changes nothing.
    expect(await storeProviderEvent(database.db, older as ProviderEvent)).toBe(false);
    expect(await drainProviderEvents(services, AT_ONCE)).toBe(0);
    expect(await historyOf(seller.organizationId)).toHaveLength(2);
  });
});
