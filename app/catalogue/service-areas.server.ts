import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { provinces, serviceAreas } from "~db/schema";
import { type CatalogueResult, fail, NOT_FOUND, ok } from "./catalogue-result";
import { catalogueWrite, isStillReferenced, postgresErrorCode, UNIQUE_VIOLATION } from "./catalogue-revision.server";
import type { ServiceAreaPayload } from "./catalogue-schema";
import type { ProvinceView, ServiceAreaView } from "./catalogue-views";

export type { ProvinceView, ServiceAreaView };

const columns = {
  id: serviceAreas.id,
  city: serviceAreas.city,
  province: serviceAreas.provinceId,
  country: serviceAreas.countryCode,
};

const DUPLICATE = { city: "This city is already a service area in that province." };
const IN_USE = { form: "This service area is used by registrations and cannot be deleted." };

export async function listServiceAreas(db: Database): Promise<ServiceAreaView[]> {
  return db
    .select(columns)
    .from(serviceAreas)
    .innerJoin(provinces, eq(provinces.id, serviceAreas.provinceId))
    .orderBy(asc(provinces.name), asc(serviceAreas.city));
}

export async function getServiceArea(db: Database, id: number): Promise<ServiceAreaView | undefined> {
  const [row] = await db.select(columns).from(serviceAreas).where(eq(serviceAreas.id, id));
  return row;
}

/** Provinces that have at least one service area, by name: the picker's groups. */
export async function serviceAreaProvinces(db: Database): Promise<ProvinceView[]> {
  return db
    .selectDistinct({ id: provinces.id, code: provinces.code, name: provinces.name })
    .from(provinces)
    .innerJoin(serviceAreas, eq(serviceAreas.provinceId, provinces.id))
    .orderBy(asc(provinces.name));
}

export async function listProvinces(db: Database): Promise<ProvinceView[]> {
  return db
    .select({ id: provinces.id, code: provinces.code, name: provinces.name })
    .from(provinces)
    .orderBy(asc(provinces.name));
}

async function resolveProvince(tx: Transaction, province: number | string): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: provinces.id })
    .from(provinces)
    .where(typeof province === "number" ? eq(provinces.id, province) : eq(provinces.code, province));
  return row?.id;
}

async function validate(
  tx: Transaction,
  payload: ServiceAreaPayload,
  exceptId?: number,
): Promise<CatalogueResult<{ provinceId: number }>> {
  if (payload.country !== "CA") return fail(400, { country: "Service areas are in Canada: country must be CA" });
  const provinceId = await resolveProvince(tx, payload.province);
  if (!provinceId) return fail(400, { province: "Please choose a province" });
  const [duplicate] = await tx
    .select({ id: serviceAreas.id })
    .from(serviceAreas)
    .where(
      and(
        eq(serviceAreas.provinceId, provinceId),
        sql`lower(${serviceAreas.city}) = lower(${payload.city})`,
        exceptId ? ne(serviceAreas.id, exceptId) : undefined,
      ),
    );
  if (duplicate) return fail(409, DUPLICATE);
  return ok({ provinceId });
}

async function guarded<T>(work: () => Promise<CatalogueResult<T>>): Promise<CatalogueResult<T>> {
  try {
    return await work();
  } catch (error) {
    const code = postgresErrorCode(error);
    if (code === UNIQUE_VIOLATION) return fail(409, DUPLICATE);
    if (isStillReferenced(code)) return fail(409, IN_USE);
    throw error;
  }
}

export function createServiceArea(
  db: Database,
  payload: ServiceAreaPayload,
): Promise<CatalogueResult<ServiceAreaView>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const checked = await validate(tx, payload);
      if (!checked.ok) return checked;
      const [row] = await tx
        .insert(serviceAreas)
        .values({ city: payload.city, provinceId: checked.value.provinceId, countryCode: payload.country })
        .returning(columns);
      return row ? ok(row) : fail(500, { form: "The service area was not saved." });
    }),
  );
}

export function updateServiceArea(
  db: Database,
  id: number,
  payload: ServiceAreaPayload,
): Promise<CatalogueResult<ServiceAreaView>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const [existing] = await tx.select({ id: serviceAreas.id }).from(serviceAreas).where(eq(serviceAreas.id, id));
      if (!existing) return fail(404, NOT_FOUND);
      const checked = await validate(tx, payload, id);
      if (!checked.ok) return checked;
      const [row] = await tx
        .update(serviceAreas)
        .set({
          city: payload.city,
          provinceId: checked.value.provinceId,
          countryCode: payload.country,
          updatedAt: new Date(),
        })
        .where(eq(serviceAreas.id, id))
        .returning(columns);
      return row ? ok(row) : fail(404, NOT_FOUND);
    }),
  );
}

export function deleteServiceArea(db: Database, id: number): Promise<CatalogueResult<null>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const [row] = await tx.delete(serviceAreas).where(eq(serviceAreas.id, id)).returning({ id: serviceAreas.id });
      return row ? ok(null) : fail(404, NOT_FOUND);
    }),
  );
}
