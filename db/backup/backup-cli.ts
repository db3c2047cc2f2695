// `npm run db:backup -- <file>`: a consistent copy of the database, also while the app runs.
// `npm run db:restore -- <file>`: loads one into an empty database (PGLITE_DIR, or DATABASE_URL's).
import { existsSync } from "node:fs";
import { ConfigurationError, readEnvironment } from "~/platform/env.server";
import { BackupError, backupDatabase, restoreDatabase } from "./backup.server";

const [command, file, ...extra] = process.argv.slice(2);

async function run(): Promise<string> {
  if ((command !== "backup" && command !== "restore") || !file || extra.length > 0) {
    throw new BackupError(`Usage: npm run db:${command === "restore" ? "restore" : "backup"} -- <file>`);
  }
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = readEnvironment();
  const target = { databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR };
  if (command === "backup") {
    const { bytes, source } = await backupDatabase(target, file);
    const from =
      source === "postgres"
        ? "PostgreSQL (DATABASE_URL), pg_dump custom format"
        : `the embedded database in ${env.PGLITE_DIR}, ${source === "running app" ? "taken by the running app" : "no app running"}`;
    return `Backup written to ${file} (${bytes} bytes) from ${from}.`;
  }
  const { into, migrations } = await restoreDatabase(target, file);
  return `Restored ${file} into ${into} (${migrations} migrations applied; the app applies any newer ones when it starts).`;
}

try {
  console.log(await run());
} catch (error) {
  // A refusal or a problem the user can fix is one line; anything else is a bug, with its stack.
  if (error instanceof BackupError || error instanceof ConfigurationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
