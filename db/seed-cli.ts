// `npm run db:seed`: loads the reference data (idempotent). Run db:migrate first on a new database.
import { existsSync } from "node:fs";
import { readEnvironment } from "~/platform/env.server";
import { openDatabase } from "./database.server";
import { seedDemoCatalogue, seedReferenceData } from "./seed";

if (existsSync(".env")) process.loadEnvFile(".env");
const env = readEnvironment();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
try {
  await database.withStartupLock(async () => {
    await seedReferenceData(database.db);
    await seedDemoCatalogue(database.db);
  });
  console.log(`Reference data loaded (${database.kind}).`);
} finally {
  await database.close();
}
