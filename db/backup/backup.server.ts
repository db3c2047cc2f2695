import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, gunzipSync } from "node:zlib";
import postgres from "postgres";
import { openDatabase } from "../database.server";
import { BackupError, backupFromHolder, DataDirectoryInUseError, holdDataDirectory } from "./control-socket.server";

// `npm run db:backup` and `npm run db:restore` (db/backup/backup-cli.ts).
// - PostgreSQL (DATABASE_URL): pg_dump's custom format, taken in one snapshot while the app runs;
//   pg_restore loads it into an empty database in one transaction.
// - Embedded (PGlite): a gzipped tarball of the data directory. While the app runs it takes the copy
//   itself (between two transactions) and streams it over its control socket; otherwise this process
//   opens the directory and takes it. A restore builds the directory aside, opens it, then renames it.
// A backup is written under a temporary name and renamed when complete: a half file never looks like one.

export type BackupTarget = { databaseUrl?: string; pgliteDir: string };

export type BackupOutcome = { file: string; bytes: number; source: "postgres" | "running app" | "data directory" };

const PG_DUMP_MAGIC = Buffer.from("PGDMP");
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** Writes `write`'s bytes to `file` via a temporary name beside it (owner-only, flushed to disk), then renames it. */
async function writeAtomically(file: string, write: (output: Writable) => Promise<void>): Promise<number> {
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose another name, or remove it first.`);
  const directory = path.dirname(path.resolve(file));
  if (!existsSync(directory)) throw new BackupError(`The folder ${directory} does not exist.`);
  const partial = path.join(directory, `.${path.basename(file)}.${randomBytes(4).toString("hex")}.partial`);
  try {
    await write(createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    // On disk before it takes the final name.
    const written = await open(partial, "r+");
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    renameSync(partial, file);
    return statSync(file).size;
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export async function backupDatabase(target: BackupTarget, file: string): Promise<BackupOutcome> {
  if (target.databaseUrl) {
    const url = target.databaseUrl;
    const bytes = await writeAtomically(file, (output) =>
      runPostgresTool("pg_dump", ["--format=custom", "--no-password"], url, { stdout: output }),
    );
    return { file, bytes, source: "postgres" };
  }
  const dir = target.pgliteDir;
  if (dir.startsWith("memory://")) {
    throw new BackupError(
      "PGLITE_DIR is memory://: that database lives only inside its process and cannot be backed up.",
    );
  }
  let source: BackupOutcome["source"] = "running app";
  const bytes = await writeAtomically(file, async (output) => {
    const gzip = createGzip();
    const written = pipeline(gzip, output);
    const copied = await backupFromHolder(dir, gzip).catch(async (error: unknown) => {
      gzip.destroy();
      await written.catch(() => {});
      throw error;
    });
    if (!copied) {
      source = "data directory";
      await backupDataDirectory(dir, gzip);
    }
    await written;
  });
  return { file, bytes, source };
}

/** No process holds the directory: open it here (which holds it meanwhile) and take the copy. */
async function backupDataDirectory(dir: string, output: Writable): Promise<void> {
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    throw new BackupError(`There is no embedded database in ${dir} (PGLITE_DIR): nothing to back up.`);
  }
  const database = await openDatabase({ pgliteDir: dir }).catch(async (error: unknown) => {
    // An app started meanwhile: ask it instead.
    if (error instanceof DataDirectoryInUseError && (await backupFromHolder(dir, output))) return undefined;
    throw error;
  });
  if (!database) return;
  try {
    const copy = await database.dumpDataDir?.();
    if (!copy) throw new Error("PGlite gave no copy of its data directory");
    await pipeline(Readable.fromWeb(copy.stream() as Parameters<typeof Readable.fromWeb>[0]), output);
  } finally {
    await database.close();
  }
}

export type RestoreOutcome = { into: string; migrations: number };

export async function restoreDatabase(target: BackupTarget, file: string): Promise<RestoreOutcome> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const head = Buffer.alloc(5);
  const headHandle = await open(file, "r");
  try {
    await headHandle.read(head, 0, 5, 0);
  } finally {
    await headHandle.close();
  }
  const isPgDump = head.subarray(0, 5).equals(PG_DUMP_MAGIC);
  const isEmbedded = head.subarray(0, 2).equals(GZIP_MAGIC);
  if (target.databaseUrl) {
    if (isEmbedded) {
      throw new BackupError(
        `${file} is a backup of the embedded database: unset DATABASE_URL to restore it into PGLITE_DIR.`,
      );
    }
    if (!isPgDump) throw new BackupError(`${file} is not a backup made by npm run db:backup.`);
    return restorePostgres(target.databaseUrl, file);
  }
  if (isPgDump) {
    throw new BackupError(`${file} is a PostgreSQL backup (pg_dump): set DATABASE_URL to restore it into PostgreSQL.`);
  }
  if (!isEmbedded) throw new BackupError(`${file} is not a backup made by npm run db:backup.`);
  return restorePglite(target.pgliteDir, file);
}

async function restorePglite(dir: string, file: string): Promise<RestoreOutcome> {
  if (dir.startsWith("memory://")) {
    throw new BackupError("PGLITE_DIR is memory://: set it to the empty folder to restore into.");
  }
  let tarball: Buffer;
  try {
    tarball = gunzipSync(readFileSync(file));
  } catch {
    throw new BackupError(`${file} is damaged or incomplete (it does not unpack).`);
  }
  // Held for the whole restore: no app starts on the directory while it is being filled.
  const hold = await holdDataDirectory(dir, async () => {
    throw new Error("a restore into this database is in progress");
  });
  const staging = `${path.resolve(dir)}.restoring-${randomBytes(4).toString("hex")}`;
  try {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new BackupError(
        `${dir} (PGLITE_DIR) is not empty: restore only into an empty or new folder (move the current one aside first).`,
      );
    }
    const database = await openDatabase({
      pgliteDir: staging,
      pgliteDataDir: new Blob([new Uint8Array(tarball)]),
    }).catch((error: unknown) => {
      throw new BackupError(
        `${file} could not be opened as a database: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    let migrations: number;
    try {
      migrations = await appliedMigrations((text) => database.query(text));
    } finally {
      await database.close();
    }
    if (existsSync(dir)) rmdirSync(dir);
    renameSync(staging, dir);
    return { into: dir, migrations };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    await hold.release();
  }
}

async function appliedMigrations(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>) {
  const { rows } = await query(
    "select count(*)::int as count from drizzle.__drizzle_migrations where to_regclass('drizzle.__drizzle_migrations') is not null",
  ).catch(() => ({ rows: [{ count: 0 }] }));
  return Number(rows[0]?.count ?? 0);
}

/** What makes a database not empty: a relation, routine or type of its own, or a schema besides public. */
const FIRST_OWN_OBJECT = `
  with own_schemas as (
    select oid, nspname from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_%'
  ),
  from_extensions as (select objid from pg_depend where deptype = 'e')
  (select format('table %I.%I', n.nspname, c.relname) as object from pg_class c join own_schemas n on n.oid = c.relnamespace
    where c.oid not in (select objid from from_extensions) limit 1)
  union all
  (select format('function %I.%I', n.nspname, p.proname) from pg_proc p join own_schemas n on n.oid = p.pronamespace
    where p.oid not in (select objid from from_extensions) limit 1)
  union all
  (select format('schema %I', nspname) from own_schemas
    where nspname <> 'public' and oid not in (select objid from from_extensions) limit 1)
  limit 1`;

async function restorePostgres(databaseUrl: string, file: string): Promise<RestoreOutcome> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || "the database";
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await client.unsafe<{ object: string }[]>(FIRST_OWN_OBJECT);
    if (found) {
      throw new BackupError(
        `The database ${name} (DATABASE_URL) is not empty (it has ${found.object}): restore only into an empty database.`,
      );
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Could not reach DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end({ timeout: 5 });
  }
  // Owners and grants are left out: the copy belongs to the user restoring it, whatever roles the source had.
  await runPostgresTool(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--no-password", file],
    databaseUrl,
  );
  const check = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const migrations = await appliedMigrations(async (text) => ({ rows: [...(await check.unsafe(text))] }));
    return { into: name, migrations };
  } finally {
    await check.end({ timeout: 5 });
  }
}

/**
 * Runs pg_dump or pg_restore on DATABASE_URL. The password goes in PGPASSWORD, not on the command
 * line (where every local user could read it). A failure is one BackupError with the tool's own words.
 */
function runPostgresTool(tool: string, args: string[], databaseUrl: string, io: { stdout?: Writable } = {}) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const child = spawn(tool, [...args, `--dbname=${url.toString()}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    stdio: ["ignore", io.stdout ? "pipe" : "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const copied = io.stdout && child.stdout ? pipeline(child.stdout, io.stdout) : Promise.resolve();
  const exited = new Promise<void>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(`${tool} was not found: install PostgreSQL's client tools (Debian: postgresql-client).`)
          : error,
      );
    });
    child.once("close", (code) => {
      if (code === 0) resolve();
      else {
        const said = errors.trim().split("\n").slice(-3).join(" ").replace(/\s+/g, " ");
        reject(new BackupError(`${tool} failed (exit ${code}): ${said || "no message"}`));
      }
    });
  });
  return Promise.all([exited, copied.catch((error) => exited.then(() => Promise.reject(error)))]).then(() => {});
}

export { BackupError };
