import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_FEES_TOTAL } from "~/payments/fees";
import { providerEvents, registrations, sellerSubscriptions } from "~db/schema";
import { seedDemoCatalogue } from "~db/seed";
import { catalogueForAuctions, createSeller } from "../../../../tests/support/auction-fixtures";
import { eventually } from "../../../../tests/support/fake-postmark";
import { createClient, createStaffAndBuyerUsers, startTestApp, type TestApp } from "../../../../tests/support/test-app";
import { databaseKinds } from "../../../../tests/support/test-database";
import { postStripeEvent, stripeEvent } from "../fixtures/stripe-events";
import { RETRY_REFUSED } from "./staff-payment-events-schema";

// /staff/payment-events through HTTP (issue 19): staff only; each event's state in words, attempts,
// last error and seller; the state filter; pages of 50; "Retry now" on a failed event. The fault is a
// real database error (a trigger on the subscription history for evt_broken… ids), and the app's
// backoff is shortened to nothing so its drain makes the 10 tries at once.

const SECRET = `whsec_${randomBytes(16).toString("hex")}`;

describe.each(databaseKinds)("/staff/payment-events on %s", (kind) => {
  let app: TestApp;
  let staff: ReturnType<typeof createClient>;
  let buyer: ReturnType<typeof createClient>;
  let sellerName: string;
  let registrationId: number;
  let brokenId: string;
  let appliedId: string;

  const eventRow = async (id: string) =>
    (await app.services.db.select().from(providerEvents).where(eq(providerEvents.id, id)))[0];

  beforeAll(async () => {
    app = await startTestApp(kind, { STRIPE_WEBHOOK_SECRET: SECRET }, { eventRetry: { retryDelayMs: () => 0 } });
    const db = app.services.db;
    await seedDemoCatalogue(db);
    await db.execute(sql`
      create function test_event_faults() returns trigger language plpgsql as $$
      begin
        if new.event_id like 'evt_broken%' then
          raise exception 'Simulated outage while applying %', new.event_id;
        end if;
        return new;
      end $$`);
    await db.execute(
      sql`create trigger test_event_faults before insert on subscription_events for each row execute function test_event_faults()`,
    );
    staff = await createStaffAndBuyerUsers(app);
    buyer = createClient(app.baseURL);
    await buyer.request("/login", { form: { email: "buyer@upstream.example", password: "staff-password" } });

    const catalogue = await catalogueForAuctions(db);
    sellerName = `Broken Events Drilling ${kind}`;
    const seller = await createSeller(db, {
      name: sellerName,
      serviceIds: [catalogue.serviceId],
      serviceAreaIds: [catalogue.serviceAreaId],
    });
    registrationId =
      (
        await db
          .select({ id: registrations.id })
          .from(registrations)
          .where(eq(registrations.organizationId, seller.organizationId))
      )[0]?.id ?? 0;
    const ids = { subscription: `sub_page_${kind}`, customer: `cus_page_${kind}`, paymentMethod: `pm_page_${kind}` };
    await db.insert(sellerSubscriptions).values({
      organizationId: seller.organizationId,
      provider: "stripe",
      subscriptionId: ids.subscription,
      status: "active",
      amountCents: SELLER_FEES_TOTAL,
    });
    const applied = stripeEvent("invoice.paid", ids, { created: 1_980_000_000 });
    const broken = stripeEvent("invoice.payment_failed", ids, { created: 1_979_999_900, id: `evt_broken_${kind}` });
    appliedId = applied.id;
    brokenId = broken.id;
    // Through the webhook, whose drain runs in the app.
    for (const event of [applied, broken]) {
      expect((await postStripeEvent(app.baseURL, JSON.stringify(event), { secret: SECRET })).status).toBe(200);
    }
    await eventually(
      async () => (await eventRow(brokenId))?.state === "failed" && (await eventRow(appliedId))?.state === "processed",
      "the broken event failed and the other applied",
    );
    expect((await eventRow(brokenId))?.attempts).toBe(10);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("is for staff only", async () => {
    const visitor = await createClient(app.baseURL).request("/staff/payment-events");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
    expect((await buyer.request("/staff/payment-events")).status).toBe(403);
    expect(
      (await buyer.request("/staff/payment-events", { form: { intent: "retry", eventId: brokenId } })).status,
    ).toBe(403);
    expect((await eventRow(brokenId))?.state).toBe("failed");
  });

  it("lists each event with its seller, state in words, attempts and last error", async () => {
    const html = await (await staff.request("/staff/payment-events")).text();
    expect(html).toContain("<caption");
    expect(html).toContain(brokenId);
    expect(html).toContain(appliedId);
    expect(html).toContain("invoice.payment_failed");
    expect(html).toContain("Failed after 10 tries");
    expect(html).toContain(`Simulated outage while applying ${brokenId}`);
    expect(html).toMatch(new RegExp(`href="/staff/registrations/${registrationId}"[^>]*>${sellerName}</a>`));
    expect(html).toContain(`Retry now<span class="visually-hidden"> event <!-- -->${brokenId}</span>`);
    expect(html).not.toContain(`event <!-- -->${appliedId}</span>`);
    expect(html).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // In the staff navigation, next to Messages.
    expect(html).toMatch(/href="\/staff\/messages"[^>]*>Messages<\/a><\/li><li><a[^>]*href="\/staff\/payment-events"/);
  });

  it("filters by state", async () => {
    const failed = await (await staff.request("/staff/payment-events?state=failed")).text();
    expect(failed).toContain(brokenId);
    expect(failed).not.toContain(appliedId);
    const applied = await (await staff.request("/staff/payment-events?state=processed")).text();
    expect(applied).toContain(appliedId);
    expect(applied).not.toContain(brokenId);
  });

  it("refuses to retry an event that is not failed, at the page", async () => {
    const response = await staff.request("/staff/payment-events", { form: { intent: "retry", eventId: appliedId } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(RETRY_REFUSED);
    expect((await eventRow(appliedId))?.attempts).toBe(1);
    const malformed = await staff.request("/staff/payment-events", { form: { intent: "retry", eventId: "a b" } });
    expect(malformed.status).toBe(400);
  });

  it("retries a failed event now: put back and taken by the drain, once", async () => {
    // The fault has passed.
    await app.services.db.execute(sql`alter table subscription_events disable trigger test_event_faults`);
    const response = await staff.request("/staff/payment-events?state=failed", {
      form: { intent: "retry", eventId: brokenId },
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location).toBe(`/staff/payment-events?state=failed&done=retried&event=${brokenId}`);
    expect(await eventRow(brokenId)).toMatchObject({ state: "processed", attempts: 11 });
    const page = await (await staff.request(`/staff/payment-events?done=retried&event=${brokenId}`)).text();
    expect(page).toContain("Event tried again.");
    expect(page).toContain("applied after 11 tries");
    // Older than the invoice.paid applied meanwhile: recorded, and it changes nothing.
    const [subscription] = await app.services.db
      .select()
      .from(sellerSubscriptions)
      .where(eq(sellerSubscriptions.subscriptionId, `sub_page_${kind}`));
    expect(subscription?.status).toBe("active");
    // Once more: no longer failed.
    const again = await staff.request("/staff/payment-events", { form: { intent: "retry", eventId: brokenId } });
    expect(again.status).toBe(400);
  });

  it("pages by 50 with 'Older' and 'Newer' links", async () => {
    const long = new Date("2020-01-01T00:00:00Z");
    await app.services.db.insert(providerEvents).values(
      Array.from({ length: 55 }, (_, index) => ({
        id: `evt_old_${String(index).padStart(2, "0")}`,
        type: "customer.created",
        createdAt: long,
        receivedAt: new Date(long.getTime() + index * 1000),
        payload: { id: `evt_old_${index}`, type: "customer.created", created: 0, data: { object: {} } },
        state: "ignored" as const,
        attempts: 1,
      })),
    );
    const first = await (await staff.request("/staff/payment-events")).text();
    expect(first.match(/<tr>/g)?.length).toBe(51); // the header row and 50 events
    const older = /href="([^"]*page=2)"[^>]*>Older</.exec(first)?.[1];
    expect(older).toBe("/staff/payment-events?page=2");
    const second = await (await staff.request(older ?? "")).text();
    expect(second).toContain("evt_old_00");
    expect(second).not.toContain(">Older<");
    expect(second).toContain(">Newer<");
  });
});
