import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMessaging } from "~/messaging/messaging.server";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import { readEnvironment } from "~/platform/env.server";
import { providerEvents, sellerSubscriptions, subscriptionEvents } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import { catalogueForAuctions, createSeller } from "../../../tests/support/auction-fixtures";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../../tests/support/test-database";
import { stripeEvent } from "./fixtures/stripe-events";
import type { LifecycleServices } from "./lifecycle.server";
import type { ProviderEvent } from "./provider-event";
import { drainProviderEvents, storeProviderEvent } from "./provider-events.server";

// The drain of stored provider events (issue 19): several drains at once (several machines) apply
// each event once, and a drain that stops half-way (a crash: its transaction never commits) leaves
// the event received for the next one.

describe.each(databaseKinds)("draining provider events on %s", (kind) => {
  let database: TestDatabase;
  let services: LifecycleServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const env = readEnvironment({ PGLITE_DIR: "memory://" });
    services = { db: database.db, env, messaging: createMessaging(env, database.db) };
    await seedDemoCatalogue(database.db);
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
});
