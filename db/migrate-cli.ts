// `npm run db:migrate`: applies the checked-in migrations (idempotent).
import { existsSync } from "node:fs";
import { readEnvironment } from "~/platform/env.server";
import { openDatabase } from "./database.server";

if (existsSync(".env")) process.loadEnvFile(".env");
const env = readEnvironment();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
try {
  await database.withStartupLock(() => database.migrate());
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
