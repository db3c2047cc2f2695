import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/database.server";
import { catalogueRevision } from "~db/schema";

/**
 * Runs a catalogue write: serialized with every other catalogue write (so two edits cannot build a
 * cycle or a duplicate between them) and bumping the revision that read caches compare.
 */
export async function catalogueWrite<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx
        .update(catalogueRevision)
        .set({ revision: sql`${catalogueRevision.revision} + 1` })
        .where(eq(catalogueRevision.id, 1));
      const result = await work(tx);
      // A refused write (not found, a duplicate, a cycle) leaves everything as it was, the revision too.
      if (isRefusal(result)) throw new RefusedWrite(result);
      return result;
    });
  } catch (error) {
    if (error instanceof RefusedWrite) return error.result as T;
    throw error;
  } finally {
    localWrites += 1;
  }
}

class RefusedWrite extends Error {
  constructor(readonly result: unknown) {
    super("refused catalogue write");
  }
}

function isRefusal(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false;
}

let localWrites = 0;

/** Catalogue writes made by this process: its read cache refreshes at once after its own writes. */
export function localCatalogueWrites(): number {
  return localWrites;
}

export async function readCatalogueRevision(db: Database): Promise<number> {
  const [row] = await db.select({ revision: catalogueRevision.revision }).from(catalogueRevision);
  return row?.revision ?? 0;
}

/** PostgreSQL error codes that are the client's doing, not ours. */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";
/** What PostgreSQL 17+ (and so PGlite) raises for an ON DELETE RESTRICT reference instead of 23503. */
export const RESTRICT_VIOLATION = "23001";
/** A row still referenced elsewhere, whichever of the two codes the server uses. */
export const isStillReferenced = (code: string | undefined) =>
  code === FOREIGN_KEY_VIOLATION || code === RESTRICT_VIOLATION;
