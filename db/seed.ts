import { count, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "./database.server";
import {
  canadianProvinces,
  certificationOptions,
  industrySectors,
  listCountries,
  listTimezones,
  usStates,
} from "./reference-data";
import { type DemoService, demoServiceAreas, demoServices } from "./reference-data/demo-catalogue";
import * as schema from "./schema";

/**
 * Loads the reference data of spec section 3. Idempotent: rows are upserted by their natural key,
 * so a second run (or a second machine) changes nothing, and renamed labels are corrected.
 */
export async function seedReferenceData(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(schema.industries)
      .values(industrySectors.map((s) => ({ code: s.code, name: s.name })))
      .onConflictDoUpdate({ target: schema.industries.code, set: { name: sql`excluded.name` } });

    await tx
      .insert(schema.countries)
      .values(listCountries())
      .onConflictDoUpdate({ target: schema.countries.code, set: { name: sql`excluded.name` } });

    await tx
      .insert(schema.provinces)
      .values(canadianProvinces.map((p) => ({ code: p.code, name: p.name })))
      .onConflictDoUpdate({ target: schema.provinces.code, set: { name: sql`excluded.name` } });

    await tx
      .insert(schema.usStates)
      .values(usStates)
      .onConflictDoUpdate({ target: schema.usStates.code, set: { name: sql`excluded.name` } });

    await tx
      .insert(schema.timezones)
      .values(listTimezones())
      .onConflictDoUpdate({
        target: schema.timezones.name,
        set: { offsetMinutes: sql`excluded.offset_minutes`, label: sql`excluded.label` },
      });

    await tx
      .insert(schema.certificationOptions)
      .values(certificationOptions.map((name, index) => ({ name, position: index + 1 })))
      .onConflictDoUpdate({
        target: schema.certificationOptions.name,
        set: { position: sql`excluded.position` },
      });
  });
}

/**
 * Loads the demo catalogue (services and oil-patch service areas) into an empty catalogue only:
 * once staff have entered anything, start never touches the catalogue again.
 */
export async function seedDemoCatalogue(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    // Serialize with other catalogue writes (and other machines seeding at the same time).
    await tx
      .update(schema.catalogueRevision)
      .set({ revision: sql`${schema.catalogueRevision.revision} + 1` })
      .where(eq(schema.catalogueRevision.id, 1));
    const [services] = await tx.select({ n: count() }).from(schema.services);
    if (services?.n === 0) {
      const insertLevel = async (nodes: DemoService[], parentId: number | null, depth: number) => {
        for (const node of nodes) {
          const [row] = await tx
            .insert(schema.services)
            .values({ name: node.name, costAccountCode: node.costAccountCode, parentId, depth })
            .returning({ id: schema.services.id });
          if (row && node.children?.length) await insertLevel(node.children, row.id, depth + 1);
        }
      };
      await insertLevel(demoServices, null, 1);
    }
    const [areas] = await tx.select({ n: count() }).from(schema.serviceAreas);
    if (areas?.n === 0) {
      const codes = [...new Set(demoServiceAreas.map((area) => area.province))];
      const provinces = await tx
        .select({ id: schema.provinces.id, code: schema.provinces.code })
        .from(schema.provinces)
        .where(inArray(schema.provinces.code, codes));
      const provinceIds = new Map(provinces.map((province) => [province.code, province.id]));
      await tx.insert(schema.serviceAreas).values(
        demoServiceAreas.map((area) => {
          const provinceId = provinceIds.get(area.province);
          if (!provinceId) throw new Error(`unknown province ${area.province}`);
          return { city: area.city, provinceId, countryCode: "CA" };
        }),
      );
    }
  });
}
