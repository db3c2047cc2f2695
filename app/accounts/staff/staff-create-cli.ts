// `npm run staff:create -- --email <e> --password <p>`: ensures a staff user exists with that password.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { emailField } from "~/forms/text-schema";
import { readEnvironment } from "~/platform/env.server";
import { openDatabase } from "~db/database.server";
import { MIN_PASSWORD_LENGTH } from "../schemas";
import { ensureStaffUser } from "./staff.server";

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } } });
const input = z
  .object({
    email: emailField(),
    password: z
      .string({ error: "--password is required" })
      .min(MIN_PASSWORD_LENGTH, `--password must be at least ${MIN_PASSWORD_LENGTH} characters`),
  })
  .safeParse(values);
if (!input.success) {
  console.error(
    `Usage: npm run staff:create -- --email <email> --password <password>\n${input.error.issues.map((i) => i.message).join("\n")}`,
  );
  process.exit(2);
}

if (existsSync(".env")) process.loadEnvFile(".env");
const env = readEnvironment();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
try {
  await database.withStartupLock(() => database.migrate());
  await ensureStaffUser(database.db, input.data.email, input.data.password);
  console.log(`Staff user ${input.data.email.trim().toLowerCase()} is ready.`);
} finally {
  await database.close();
}
