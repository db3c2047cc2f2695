import { asc, eq } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { services } from "~db/schema";
import { type CatalogueResult, fail, NOT_FOUND, ok } from "./catalogue-result";
import { catalogueWrite, isStillReferenced, postgresErrorCode, UNIQUE_VIOLATION } from "./catalogue-revision.server";
import type { ServicePayload } from "./catalogue-schema";
import type { ServiceView } from "./catalogue-views";

export const MAX_SERVICE_DEPTH = 3;

export type { ServiceView };
export type ServiceNode = ServiceView & { depth: number; children: ServiceNode[] };

type ServiceRow = typeof services.$inferSelect;

const view = (row: ServiceRow): ServiceView => ({
  id: row.id,
  name: row.name,
  cost_account_code: row.costAccountCode,
  parent: row.parentId,
});

const DUPLICATE = { name: "A service with this name already exists under the same parent." };
const IN_USE = { form: "This service is used by registrations and cannot be deleted." };

export async function listServices(db: Database, parent?: number | null): Promise<ServiceView[]> {
  const rows = await db.select().from(services).orderBy(asc(services.depth), asc(services.name), asc(services.id));
  return rows.filter((row) => parent === undefined || row.parentId === parent).map(view);
}

export async function getService(db: Database, id: number): Promise<ServiceView | undefined> {
  const [row] = await db.select().from(services).where(eq(services.id, id));
  return row ? view(row) : undefined;
}

/** The whole hierarchy, siblings by name: the service checkboxes and the staff tree. */
export async function serviceTree(db: Database): Promise<ServiceNode[]> {
  const rows = await db.select().from(services).orderBy(asc(services.name), asc(services.id));
  return buildTree(rows);
}

export function buildTree(rows: ServiceRow[]): ServiceNode[] {
  const nodes = new Map(rows.map((row) => [row.id, { ...view(row), depth: row.depth, children: [] as ServiceNode[] }]));
  const roots: ServiceNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent === null ? undefined : nodes.get(node.parent);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

async function loadAll(tx: Transaction): Promise<Map<number, ServiceRow>> {
  const rows = await tx.select().from(services);
  return new Map(rows.map((row) => [row.id, row]));
}

function childrenOf(all: Map<number, ServiceRow>, id: number): ServiceRow[] {
  return [...all.values()].filter((row) => row.parentId === id);
}

/** Levels below and including the node: 1 for a leaf. */
function subtreeHeight(all: Map<number, ServiceRow>, id: number): number {
  const children = childrenOf(all, id);
  return 1 + (children.length ? Math.max(...children.map((child) => subtreeHeight(all, child.id))) : 0);
}

function isDescendant(all: Map<number, ServiceRow>, candidate: number, ancestor: number): boolean {
  for (let row = all.get(candidate); row; row = row.parentId === null ? undefined : all.get(row.parentId)) {
    if (row.id === ancestor) return true;
  }
  return false;
}

function duplicateName(all: Map<number, ServiceRow>, payload: ServicePayload, exceptId?: number): boolean {
  const name = payload.name.toLowerCase();
  return [...all.values()].some(
    (row) => row.id !== exceptId && row.parentId === payload.parent && row.name.toLowerCase() === name,
  );
}

function placement(all: Map<number, ServiceRow>, payload: ServicePayload, height = 1) {
  if (payload.parent === null) return ok(1);
  const parent = all.get(payload.parent);
  if (!parent) return fail<number>(400, { parent: "Please choose an existing parent service" });
  if (parent.depth + height > MAX_SERVICE_DEPTH) {
    return fail<number>(400, {
      parent: "Services go three levels deep at most (top group, sub-service, sub-sub-service).",
    });
  }
  return ok(parent.depth + 1);
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

export function createService(db: Database, payload: ServicePayload): Promise<CatalogueResult<ServiceView>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const all = await loadAll(tx);
      const depth = placement(all, payload);
      if (!depth.ok) return depth;
      if (duplicateName(all, payload)) return fail(409, DUPLICATE);
      const [row] = await tx
        .insert(services)
        .values({
          name: payload.name,
          costAccountCode: payload.cost_account_code,
          parentId: payload.parent,
          depth: depth.value,
        })
        .returning();
      return row ? ok(view(row)) : fail(500, { form: "The service was not saved." });
    }),
  );
}

export function updateService(
  db: Database,
  id: number,
  payload: ServicePayload,
): Promise<CatalogueResult<ServiceView>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const all = await loadAll(tx);
      const current = all.get(id);
      if (!current) return fail(404, NOT_FOUND);
      if (payload.parent !== null && isDescendant(all, payload.parent, id)) {
        return fail(400, { parent: "A service cannot be placed under itself or one of its own sub-services." });
      }
      const depth = placement(all, payload, subtreeHeight(all, id));
      if (!depth.ok) return depth;
      if (duplicateName(all, payload, id)) return fail(409, DUPLICATE);
      const [row] = await tx
        .update(services)
        .set({
          name: payload.name,
          costAccountCode: payload.cost_account_code,
          parentId: payload.parent,
          depth: depth.value,
          updatedAt: new Date(),
        })
        .where(eq(services.id, id))
        .returning();
      // Moving a service moves its sub-services: their depth follows.
      const shift = depth.value - current.depth;
      if (shift !== 0) {
        const move = async (parentId: number) => {
          for (const child of childrenOf(all, parentId)) {
            await tx
              .update(services)
              .set({ depth: child.depth + shift })
              .where(eq(services.id, child.id));
            await move(child.id);
          }
        };
        await move(id);
      }
      return row ? ok(view(row)) : fail(404, NOT_FOUND);
    }),
  );
}

export function deleteService(db: Database, id: number): Promise<CatalogueResult<null>> {
  return guarded(() =>
    catalogueWrite(db, async (tx) => {
      const all = await loadAll(tx);
      if (!all.has(id)) return fail(404, NOT_FOUND);
      if (childrenOf(all, id).length > 0) {
        return fail(409, { form: "This service has sub-services. Delete or move them first." });
      }
      await tx.delete(services).where(eq(services.id, id));
      return ok(null);
    }),
  );
}
