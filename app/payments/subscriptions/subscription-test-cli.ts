// `npm run subscription:test -- --organization <id> --step <step>`: moves a seller's subscription on
// the test card provider one step of Stripe's lifecycle (trial-ends, renewal-fails,
// retries-exhausted, renewal-recovers), as staff can on the registration page. Development only: the
// test provider must be the one in use. On the embedded database stop the app first (one process
// at a time may open its folder).
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { createMessaging } from "~/messaging/messaging.server";
import { createPayments } from "~/payments/payments.server";
import { readEnvironment } from "~/platform/env.server";
import { openDatabase } from "~db/database.server";
import { moveTestSubscription } from "./test-lifecycle.server";
import { TEST_LIFECYCLE_STEPS } from "./test-lifecycle-schema";

const { values } = parseArgs({ options: { organization: { type: "string" }, step: { type: "string" } } });
const input = z
  .object({
    organization: z.coerce.number({ error: "--organization must be an organization id" }).int().positive(),
    step: z.enum(TEST_LIFECYCLE_STEPS, `--step must be one of ${TEST_LIFECYCLE_STEPS.join(", ")}`),
  })
  .safeParse(values);
if (!input.success) {
  console.error(
    `Usage: npm run subscription:test -- --organization <id> --step <${TEST_LIFECYCLE_STEPS.join("|")}>\n${input.error.issues.map((issue) => issue.message).join("\n")}`,
  );
  process.exit(2);
}

if (existsSync(".env")) process.loadEnvFile(".env");
const env = readEnvironment();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
try {
  await database.withStartupLock(() => database.migrate());
  const services = {
    env,
    db: database.db,
    messaging: createMessaging(env, database.db),
    payments: createPayments(env),
  };
  const moved = await moveTestSubscription(services, input.data.organization, input.data.step);
  if (!moved) {
    console.error(
      "Nothing moved: the organization has no running subscription on the test card provider, or Stripe is configured here.",
    );
    process.exitCode = 1;
  } else {
    console.log(`Organization ${input.data.organization}: ${input.data.step} done.`);
  }
} finally {
  await database.close();
}
