import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "~db/database.server";
import { seedReferenceData } from "~db/seed";

export type DatabaseKind = "pglite" | "postgres";

/** Every integration suite runs on each of these: PGlite always, PostgreSQL when DATABASE_URL is set. */
export const databaseKinds: DatabaseKind[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & {
  /** Connection string of the fresh database (postgres only), for tests that start the app on it. */
  url?: string;
  /** Closes and, for PostgreSQL, drops the database. */
  destroy(): Promise<void>;
};

/** A fresh, migrated and seeded database of the given kind, private to the calling test file. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openDatabase({ pgliteDir: "memory://" });
    await handle.migrate();
    await seedReferenceData(handle.db);
    return { ...handle, destroy: () => handle.close() };
  }
  const { url, drop } = await createPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: url, pgliteDir: "" });
  await handle.migrate();
  await seedReferenceData(handle.db);
  return {
    ...handle,
    url,
    async destroy() {
      await handle.close();
      await drop();
    },
  };
}

/** Creates an empty PostgreSQL database next to DATABASE_URL's; `drop` removes it again. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error("DATABASE_URL is not set");
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
