import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PgBoss from "pg-boss";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { type DatabaseHandle, openDatabase } from "~db/database.server";
import { seedDemoCatalogue, seedReferenceData } from "~db/seed";

// Migrating and seeding a database costs seconds, and every integration file used to do it twice
// (PGlite and PostgreSQL), for each database and app it started. This globalSetup does it once per
// run for each kind: a PostgreSQL template database (copied per file by CREATE DATABASE ... TEMPLATE)
// and a PGlite data directory snapshot (loaded per file by `loadDataDir`). They are named by a hash
// of what they are made from, so a later run reuses them until a migration or the seed changes.

/**
 * - reference: migrated, with the reference data (what `createTestDatabase` gives);
 * - app: as the app prepares its database on start (the demo catalogue too, and pg-boss's schema).
 */
export type TemplateName = "reference" | "app";

export type DatabaseTemplates = {
  /** Snapshot files, by template. */
  pglite: Record<TemplateName, string>;
  /** Template database names, by template, when DATABASE_URL is set. */
  postgres?: Record<TemplateName, string>;
};

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** DATABASE_URL with another database name. */
export function databaseUrlFor(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** pg-boss's schema, as the app names it (messaging/delivery, reminders). */
const PG_BOSS_SCHEMA = "pgboss";

/** A hash of everything a template holds: the migrations, the seed and its data, the engines' versions. */
function templateHash(): string {
  const hash = createHash("sha256");
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true })
      .flatMap((entry) => {
        const full = path.join(folder, entry.name);
        return entry.isDirectory() ? files(full) : [full];
      })
      .filter((file) => !/\.test\.ts$/.test(file))
      .sort();
  for (const file of [...files("db/migrations"), ...files("db/reference-data"), "db/seed.ts"]) {
    hash.update(file).update(readFileSync(file));
  }
  for (const name of ["@electric-sql/pglite", "pg-boss", "drizzle-orm"]) {
    hash.update(readFileSync(path.resolve("node_modules", name, "package.json")));
  }
  return hash.digest("hex").slice(0, 12);
}

async function prepare(database: DatabaseHandle, template: TemplateName): Promise<void> {
  await database.migrate();
  await seedReferenceData(database.db);
  if (template === "app") await seedDemoCatalogue(database.db);
}

/** Writes the named template's PGlite snapshot to `file`, unless an earlier run has. */
async function makePgliteSnapshot(file: string, template: TemplateName): Promise<void> {
  if (existsSync(file) && statSync(file).size > 0) return;
  const database = await openDatabase({ pgliteDir: "memory://" });
  try {
    await prepare(database, template);
    const snapshot = await database.dumpDataDir?.();
    if (!snapshot) throw new Error("PGlite gave no data directory snapshot");
    // Written aside and renamed: a run stopped half-way, or another run beside this one, never
    // leaves a half-written snapshot under the final name.
    const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
    writeFileSync(partial, Buffer.from(await snapshot.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
}

/** Makes the named template database next to DATABASE_URL's, unless an earlier run has. */
async function makePostgresTemplate(baseUrl: string, name: string, template: TemplateName): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`select 1 from pg_database where datname = ${name}`;
    if (existing) return;
    // Built under a name of its own, then renamed: a template is complete or absent.
    const building = `${name}_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database "${building}"`);
    try {
      const url = databaseUrlFor(baseUrl, building);
      const database = await openDatabase({ databaseUrl: url, pgliteDir: "" });
      try {
        await prepare(database, template);
      } finally {
        await database.close();
      }
      if (template === "app") {
        // pg-boss makes its schema on its first start; every app started on a copy finds it made.
        const boss = new PgBoss({ connectionString: url, schema: PG_BOSS_SCHEMA, max: 1 });
        boss.on("error", () => {});
        await boss.start();
        await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
      }
      await admin.unsafe(`alter database "${building}" rename to "${name}"`);
    } catch (error) {
      await admin.unsafe(`drop database if exists "${building}" with (force)`);
      // Another run made it meanwhile: theirs serves as well.
      const [made] = await admin`select 1 from pg_database where datname = ${name}`;
      if (!made) throw error;
    }
  } finally {
    await admin.end();
  }
}

/**
 * Templates are named after DATABASE_URL's database as well, so runs against different databases of
 * one server (parallel checkouts, each with its own) never drop each other's templates.
 */
function templatePrefix(baseUrl: string): string {
  const database = decodeURIComponent(new URL(baseUrl).pathname.slice(1)) || "postgres";
  return `tpl_${database
    .replace(/[^a-z0-9]/gi, "")
    .slice(0, 20)
    .toLowerCase()}_`;
}

/** Drops the templates of earlier runs made from other migrations (one in use is left alone). */
async function dropOtherTemplates(baseUrl: string, hash: string): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  const prefix = templatePrefix(baseUrl).replaceAll("_", "\\_");
  try {
    const stale = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`${prefix}%`} and datname not like ${`%_${hash}`}`;
    for (const { datname } of stale) await admin.unsafe(`drop database if exists "${datname}"`).catch(() => {});
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const hash = templateHash();
  const folder = path.join(tmpdir(), "upstream-marketplace-test-templates");
  mkdirSync(folder, { recursive: true });
  const templates: DatabaseTemplates = {
    pglite: {
      reference: path.join(folder, `${hash}-reference.tar`),
      app: path.join(folder, `${hash}-app.tar`),
    },
  };
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const prefix = templatePrefix(baseUrl);
    templates.postgres = { reference: `${prefix}reference_${hash}`, app: `${prefix}app_${hash}` };
  }
  await Promise.all([
    makePgliteSnapshot(templates.pglite.reference, "reference"),
    makePgliteSnapshot(templates.pglite.app, "app"),
    ...(baseUrl && templates.postgres
      ? [
          dropOtherTemplates(baseUrl, hash).then(() =>
            Promise.all([
              makePostgresTemplate(baseUrl, templates.postgres?.reference ?? "", "reference"),
              makePostgresTemplate(baseUrl, templates.postgres?.app ?? "", "app"),
            ]),
          ),
        ]
      : []),
  ]);
  project.provide("databaseTemplates", templates);
}
