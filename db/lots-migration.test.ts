import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 31: every auction that exists before lots becomes one lot of one line of quantity 1 holding
// its bidding state, and its bids, minimums and pending notices name that lot. The migrations are
// applied one by one to an embedded database holding an auction as the product kept it before.

const folder = path.resolve(process.cwd(), "db/migrations");
const migrations = readdirSync(folder)
  .filter((name) => name.endsWith(".sql"))
  .sort();

async function apply(client: PGlite, names: string[]) {
  for (const name of names) {
    for (const statement of readFileSync(path.join(folder, name), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) await client.exec(statement);
    }
  }
}

describe("the migration to lots", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    const before = migrations.findIndex((name) => name.startsWith("0024_"));
    expect(before).toBeGreaterThan(0);
    await apply(client, migrations.slice(0, before));
    await client.exec(`
      insert into organizations (id, name, organization_type) values (1, 'Buyer Ltd.', 2), (2, 'Seller Ltd.', 4);
      insert into countries (code, name) values ('CA', 'Canada');
      insert into provinces (id, code, name) values (1, 'AB', 'Alberta');
      insert into services (id, name, depth) values (1, 'Gravel hauling', 1);
      insert into service_areas (id, city, province_id, country_code) values (1, 'Red Deer', 1, 'CA');
      insert into auctions (id, organization_id, title, description, service_id, service_area_id, reserve_cents,
        decrement_kind, decrement_value, starts_at, ends_at, scheduled_ends_at, soft_close_window_minutes,
        soft_close_extension_minutes, soft_close_cap_minutes, extensions, status, sequence, bid_count)
      values (1, 1, 'Gravel to 12-34', 'Haul gravel.', 1, 1, 1000000, 'percent', 150,
        '2026-11-01T09:00Z', '2026-11-01T17:05Z', '2026-11-01T17:00Z', 5, 5, 60, 1, 'open', 2, 1);
      insert into auction_auto_bids (id, auction_id, organization_id, minimum_cents, entered_sequence)
        values (1, 1, 2, 800000, 1);
      insert into auction_bids (id, auction_id, organization_id, amount_cents, kind, rank)
        values (1, 1, 2, 950000, 'auto', 1);
      update auctions set lowest_bid_id = 1, lowest_cents = 950000, leader_organization_id = 2 where id = 1;
      insert into bid_effects (auction_id, outbid_organization_ids, extended, ends_at)
        values (1, '{}', true, '2026-11-01T17:05Z');
    `);
    await apply(client, migrations.slice(before));
    // Two embedded databases migrated in full: slow on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("makes the auction one lot holding its bidding state, with one line of quantity 1", async () => {
    const lots = await client.query<Record<string, unknown>>("select * from auction_lots");
    expect(lots.rows).toEqual([
      expect.objectContaining({
        auction_id: 1,
        position: 1,
        title: "",
        reserve_cents: 1000000,
        decrement_kind: "percent",
        decrement_value: 150,
        extensions: 1,
        bid_count: 1,
        lowest_bid_id: 1,
        lowest_cents: 950000,
        leader_organization_id: 2,
      }),
    ]);
    const lot = lots.rows[0] as { id: number; ends_at: Date; scheduled_ends_at: Date };
    expect(lot.ends_at.toISOString()).toBe("2026-11-01T17:05:00.000Z");
    expect(lot.scheduled_ends_at.toISOString()).toBe("2026-11-01T17:00:00.000Z");
    const lines = await client.query(
      "select lot_id, position, description, unit, quantity_thousandths, ceiling_cents from auction_line_items",
    );
    expect(lines.rows).toEqual([
      {
        lot_id: lot.id,
        position: 1,
        description: "Gravel to 12-34",
        unit: "lot",
        quantity_thousandths: 1000,
        ceiling_cents: null,
      },
    ]);
    for (const table of ["auction_bids", "auction_auto_bids", "bid_effects"]) {
      expect((await client.query(`select lot_id from ${table}`)).rows).toEqual([{ lot_id: lot.id }]);
    }
    const columns = await client.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'auctions'",
    );
    const names = columns.rows.map((row) => row.column_name);
    expect(names).not.toContain("lowest_cents");
    expect(names).not.toContain("decrement_kind");
    expect(names).toContain("reserve_cents");
  });
});

// Issue 31: a sealed bid names the lots it bids on (migration 0029). Every sealed bid before it is on
// its auction's one lot: its amount and unit prices become that lot's, and the bid keeps its amount.
describe("the migration to sealed bids' lots", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    const before = migrations.findIndex((name) => name.startsWith("0029_"));
    expect(before).toBeGreaterThan(0);
    await apply(client, migrations.slice(0, before));
    await client.exec(`
      insert into organizations (id, name, organization_type) values (1, 'Buyer Ltd.', 2), (2, 'Seller Ltd.', 4),
        (3, 'Other Seller Ltd.', 4);
      insert into countries (code, name) values ('CA', 'Canada');
      insert into provinces (id, code, name) values (1, 'AB', 'Alberta');
      insert into services (id, name, depth) values (1, 'Gravel hauling', 1);
      insert into service_areas (id, city, province_id, country_code) values (1, 'Red Deer', 1, 'CA');
      insert into auctions (id, organization_id, title, description, service_id, service_area_id, reserve_cents,
        starts_at, ends_at, scheduled_ends_at, soft_close_window_minutes, soft_close_extension_minutes,
        soft_close_cap_minutes, status, kind)
      values (1, 1, 'Sealed gravel', 'Haul gravel.', 1, 1, 1000000,
        '2026-11-01T09:00Z', '2026-11-01T17:00Z', '2026-11-01T17:00Z', 0, 0, 0, 'open', 'sealed');
      insert into auction_lots (id, auction_id, position, title, reserve_cents, decrement_kind, decrement_value,
        scheduled_ends_at, ends_at)
        values (7, 1, 1, '', 1000000, 'percent', 100, '2026-11-01T17:00Z', '2026-11-01T17:00Z');
      insert into sealed_bids (id, auction_id, organization_id, amount_cents, unit_cents, revision)
        values (1, 1, 2, 950000, null, 1), (2, 1, 3, 142500, '{10000,5000,300}', 2);
    `);
    await apply(client, migrations.slice(before));
    // Two embedded databases migrated in full: slow on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("puts each sealed bid's amount and unit prices on its auction's one lot", async () => {
    const lots = await client.query<Record<string, unknown>>(
      "select sealed_bid_id, lot_id, amount_cents::int as amount, unit_cents::int[] as units from sealed_bid_lots order by sealed_bid_id",
    );
    expect(lots.rows).toEqual([
      { sealed_bid_id: 1, lot_id: 7, amount: 950000, units: null },
      { sealed_bid_id: 2, lot_id: 7, amount: 142500, units: [10000, 5000, 300] },
    ]);
    const bids = await client.query<Record<string, unknown>>(
      "select id, amount_cents::int as amount from sealed_bids order by id",
    );
    expect(bids.rows).toEqual([
      { id: 1, amount: 950000 },
      { id: 2, amount: 142500 },
    ]);
    const columns = await client.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = 'sealed_bids'",
    );
    expect(columns.rows.map((row) => row.column_name)).not.toContain("unit_cents");
  });
});
