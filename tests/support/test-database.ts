import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "~db/database.server";
import { type DatabaseTemplates, databaseUrlFor, type TemplateName } from "./database-templates";

export type DatabaseKind = "pglite" | "postgres";

/** Every integration suite runs on each of these: PGlite always, PostgreSQL when DATABASE_URL is set. */
export const databaseKinds: DatabaseKind[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & {
  /** Connection string of the fresh database (postgres only), for tests that start the app on it. */
  url?: string;
  /** Closes and, for PostgreSQL, drops the database. */
  destroy(): Promise<void>;
};

/**
 * The prepared databases of this run (tests/support/database-templates.ts): migrated and seeded once,
 * then copied for each test file instead of migrated again.
 */
function templates(): DatabaseTemplates {
  const made = inject("databaseTemplates");
  if (!made) {
    throw new Error(
      "No database templates: tests/support/database-templates.ts makes them as the globalSetup of the integration and e2e projects (vitest.config.ts).",
    );
  }
  return made;
}

// One read of each snapshot per test file; PGlite copies the blob into its own file system.
const snapshots = new Map<TemplateName, Blob>();

/** A PGlite snapshot (dumpDataDir tarball) of the named template, for `openDatabase({ pgliteDataDir })`. */
export function pgliteSnapshot(template: TemplateName): Blob {
  let snapshot = snapshots.get(template);
  if (!snapshot) {
    snapshot = new Blob([readFileSync(templates().pglite[template])]);
    snapshots.set(template, snapshot);
  }
  return snapshot;
}

/** An in-memory PGlite that starts as a copy of the named template. */
export function openPgliteCopy(template: TemplateName): Promise<DatabaseHandle> {
  return openDatabase({ pgliteDir: "memory://", pgliteDataDir: pgliteSnapshot(template) });
}

/**
 * A fresh database of the given kind, private to the calling test file: migrated, with the reference
 * data (and no catalogue), copied from this run's template.
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openPgliteCopy("reference");
    return { ...handle, destroy: () => handle.close() };
  }
  const { url, drop } = await createPostgresDatabase("reference");
  const handle = await openDatabase({ databaseUrl: url, pgliteDir: "" });
  return {
    ...handle,
    url,
    async destroy() {
      await handle.close();
      await drop();
    },
  };
}

/**
 * A PostgreSQL database next to DATABASE_URL's: empty, or a copy of this run's named template
 * (CREATE DATABASE ... TEMPLATE, a file copy instead of the migrations). `drop` removes it again.
 */
export async function createPostgresDatabase(template?: TemplateName): Promise<{ url: string; drop(): Promise<void> }> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error("DATABASE_URL is not set");
  const source = template ? templates().postgres?.[template] : undefined;
  if (template && !source) throw new Error(`no PostgreSQL template "${template}" was made for this run`);
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(source ? `create database "${name}" template "${source}"` : `create database "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrlFor(baseUrl, name),
    async drop() {
      const cleanup = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
